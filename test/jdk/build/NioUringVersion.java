/*
 * Copyright (c) 2026, nio-uring contributors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.
 *
 * This code is distributed in the hope that it will be useful, but WITHOUT
 * ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 * version 2 for more details (a copy is included in the LICENSE file that
 * accompanied this code).
 *
 * You should have received a copy of the GNU General Public License version
 * 2 along with this work; if not, write to the Free Software Foundation,
 * Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
 */

/*
 * @test
 * @summary The JDK under test is the nio-uring build: its version names the patch set
 *          and the git revision it was built from
 * @run main NioUringVersion
 */

public class NioUringVersion {
    public static void main(String[] args) {
        Runtime.Version v = Runtime.version();
        String opt = v.optional().orElseThrow(
                () -> new RuntimeException("no optional version part in " + v));
        if (!opt.matches("nio-uring\\.[0-9a-f]{4,40}|nio-uring\\.norev")) {
            throw new RuntimeException("not a nio-uring build: " + v);
        }
        String vm = System.getProperty("java.vm.version");
        if (!vm.contains(opt)) {
            throw new RuntimeException("java.vm.version " + vm + " does not name " + opt);
        }
        System.out.println("OK: " + v);
    }
}

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
 * @summary The image carries liburing's license notice beside the other notices
 *          of java.base, since libnio links liburing statically
 * @requires os.family == "linux"
 * @run main LiburingNotice
 */

import java.nio.file.Files;
import java.nio.file.Path;

public class LiburingNotice {
    public static void main(String[] args) throws Exception {
        Path legal = Path.of(System.getProperty("java.home"), "legal", "java.base");
        Path notice = legal.resolve("liburing.md");
        if (!Files.isRegularFile(notice))
            throw new RuntimeException("no " + notice + " (" + legal + " has "
                                       + Files.list(legal).toList() + ")");
        String text = Files.readString(notice);
        for (String s : new String[] { "## liburing v", "Jens Axboe", "Permission is hereby granted" }) {
            if (!text.contains(s))
                throw new RuntimeException(notice + " does not say \"" + s + "\"");
        }
        System.out.println("OK: " + notice);
    }
}

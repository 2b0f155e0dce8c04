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
 *
 * Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
 * or visit www.oracle.com if you need additional information or have any
 * questions.
 */

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

/**
 * The counts that -Djdk.nio.file.ioUring.debug=true prints at exit, as
 * "name=value" pairs separated by spaces after a line's prefix, and checks of
 * them, for the IoUring*Statistics tests.
 */
final class IoUringCounts {
    private IoUringCounts() { }

    /**
     * Runs a new VM with -Djdk.nio.file.ioUring.debug=true and the given
     * options, class and arguments, prints what it wrote to standard error,
     * and checks that it exited with 0.
     */
    static OutputAnalyzer run(List<String> args) throws Exception {
        List<String> all = new ArrayList<>(List.of("-Djdk.nio.file.ioUring.debug=true"));
        all.addAll(args);
        OutputAnalyzer out = ProcessTools.executeTestJava(all.toArray(new String[0]));
        System.out.println(String.join(" ", args) + ": " + out.getStderr().strip());
        out.shouldHaveExitValue(0);
        return out;
    }

    /**
     * The counts of the first line of the output that the pattern finds,
     * whose first group holds the pairs; empty if there is none.
     */
    static Map<String, Long> parse(String output, Pattern line) {
        Map<String, Long> map = new HashMap<>();
        Matcher m = line.matcher(output);
        if (m.find()) {
            for (String kv : m.group(1).strip().split(" ")) {
                String[] p = kv.split("=");
                map.put(p[0], Long.parseLong(p[1]));
            }
        }
        return map;
    }

    static void expect(String what, Map<String, Long> s, String key, long value) {
        if (s.get(key) == null || s.get(key) != value)
            throw new RuntimeException(what + ": " + key + " is " + s.get(key)
                                       + ", expected " + value + " (" + s + ")");
    }

    static void positive(String what, Map<String, Long> s, String key) {
        if (s.get(key) == null || s.get(key) <= 0)
            throw new RuntimeException(what + ": " + key + " is " + s.get(key)
                                       + ", expected more than 0 (" + s + ")");
    }
}

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


import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

/**
 * Runs a VM that records JFR's jdk.FileDispatch event, counts the events by
 * route ("page cache", "blocked", "compensated", "io_uring", "fallback"), and
 * checks the counts, for the IoUring*Statistics tests. Left out: the events of
 * threads whose name starts with "warm-up" (a child's own preparation) or
 * "JFR", and the reads of the recorder itself and of the class loader (the
 * events whose stack has jdk.jfr or jdk.internal.loader frames).
 */
final class IoUringCounts {
    private IoUringCounts() { }

    static final String PAGE_CACHE = "page cache";
    static final String BLOCKED = "blocked";
    static final String COMPENSATED = "compensated";
    static final String RING = "io_uring";
    static final String FALLBACK = "fallback";
    static final List<String> ROUTES = List.of(PAGE_CACHE, BLOCKED, COMPENSATED, RING, FALLBACK);

    /** The option that records jdk.FileDispatch to the given file. */
    static String recordingOption(Path jfr) {
        return "-XX:StartFlightRecording:filename=" + jfr
                + ",jdk.FileDispatch#enabled=true,jdk.FileDispatch#stackTrace=true";
    }

    /**
     * Runs a new VM that records jdk.FileDispatch, with the given options,
     * class and arguments, checks that it exited with 0, and returns the
     * counts of its events by route (every route present, 0 if none).
     */
    static Map<String, Long> run(List<String> args) throws Exception {
        Path jfr = Files.createTempFile(Path.of("."), "dispatch", ".jfr");
        try {
            List<String> all = new ArrayList<>(List.of(recordingOption(jfr)));
            all.addAll(args);
            OutputAnalyzer out = ProcessTools.executeTestJava(all.toArray(new String[0]));
            out.shouldHaveExitValue(0);
            Map<String, Long> counts = count(jfr);
            System.out.println(String.join(" ", args) + ": " + counts);
            return counts;
        } finally {
            Files.deleteIfExists(jfr);
        }
    }

    /** The jdk.FileDispatch events of a recording, counted by route. */
    static Map<String, Long> count(Path jfr) throws Exception {
        Map<String, Long> counts = new TreeMap<>();
        for (String r : ROUTES)
            counts.put(r, 0L);
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (!e.getEventType().getName().equals("jdk.FileDispatch"))
                continue;
            String thread = (e.getThread() == null) ? "" : e.getThread().getJavaName();
            if (thread != null && (thread.startsWith("warm-up") || thread.startsWith("JFR")))
                continue;
            if (e.getStackTrace() != null && e.getStackTrace().getFrames().stream()
                    .map(f -> f.getMethod().getType().getName())
                    .anyMatch(n -> n.startsWith("jdk.jfr.") || n.startsWith("jdk.internal.loader.")))
                continue;
            String route = e.getString("route");
            if (!counts.containsKey(route))
                throw new RuntimeException("unknown route \"" + route + "\" in " + e);
            counts.merge(route, 1L, Long::sum);
        }
        return counts;
    }

    /**
     * Reads the whole file into the page cache, in a thread whose reads are
     * not counted.
     */
    static void warmUp(Path file) throws InterruptedException {
        Thread t = Thread.ofPlatform().name("warm-up").start(() -> {
            try {
                Files.readAllBytes(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        t.join();
    }

    /** The sum of the counts of every route. */
    static long total(Map<String, Long> s) {
        return s.values().stream().mapToLong(Long::longValue).sum();
    }

    static void expect(String what, Map<String, Long> s, String key, long value) {
        if (s.get(key) == null || s.get(key) != value)
            throw new RuntimeException(what + ": " + key + " is " + s.get(key)
                                       + ", expected " + value + " (" + s + ")");
    }

    /**
     * The reads of cached data that may find their page missing all the same:
     * memory reclaim (kswapd, or a DAMON pageout scheme as some VMs run) can drop
     * a page between the warm-up and the read, and the kernel's RWF_NOWAIT read
     * returns EAGAIN for a page it would wait for. Such a read goes, rightly, the
     * way of a miss. A sixteenth of the reads; a rule that sent cached reads
     * that way would send them all.
     */
    static long mayMiss(long reads) {
        return reads / 16;
    }

    static void atMost(String what, Map<String, Long> s, String key, long limit) {
        long v = s.getOrDefault(key, 0L);
        if (v > limit)
            throw new RuntimeException(what + ": " + key + " is " + v
                                       + ", expected at most " + limit + " (" + s + ")");
    }

    static void atLeast(String what, Map<String, Long> s, String key, long limit) {
        long v = s.getOrDefault(key, 0L);
        if (v < limit)
            throw new RuntimeException(what + ": " + key + " is " + v
                                       + ", expected at least " + limit + " (" + s + ")");
    }

    static void positive(String what, Map<String, Long> s, String key) {
        if (s.get(key) == null || s.get(key) <= 0)
            throw new RuntimeException(what + ": " + key + " is " + s.get(key)
                                       + ", expected more than 0 (" + s + ")");
    }
}

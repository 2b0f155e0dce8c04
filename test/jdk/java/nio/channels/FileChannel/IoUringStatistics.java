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

/*
 * @test
 * @summary The routes that JFR's jdk.FileDispatch event records for FileChannel
 *          reads, for a few load shapes in each mode: a hot file read by many
 *          virtual threads (every read from the page cache, in auto with the probe
 *          or, where the carrier has nothing else to run, pread), cold reads by one
 *          virtual thread (they block the carrier in auto), by many (they park on
 *          a ring in auto while other virtual threads want the carrier, and block
 *          it otherwise; all are compensated in compensate), and by platform
 *          threads (they block); one event per read; every read's bytes are checked
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringCounts
 * @modules jdk.jfr
 * @run main/othervm/timeout=300 IoUringStatistics
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;
import jtreg.SkippedException;

public class IoUringStatistics {
    static final int BLOCKS = 16384;
    static final int OPS = 64;
    static final String PAGE_CACHE = IoUringCounts.PAGE_CACHE, BLOCKED = IoUringCounts.BLOCKED,
            COMPENSATED = IoUringCounts.COMPENSATED, RING = IoUringCounts.RING,
            FALLBACK = IoUringCounts.FALLBACK;

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            child(args[0], Path.of(args[1]), Long.parseLong(args[2]));
            return;
        }
        long seed = RandomFactory.getRandom().nextLong();
        Path file = Files.createTempFile(Path.of("."), "statistics", ".dat");
        try {
            byte[] data = new byte[BLOCKS * 4096];
            new Random(seed).nextBytes(data);
            try (FileChannel fc = FileChannel.open(file, WRITE)) {
                fc.write(ByteBuffer.wrap(data));
                fc.force(false);
            }
            boolean cold = IoUringRings.canEvict(file);
            long many = 64 * OPS;
            Map<String, Long> s = run("always", "hot", file, seed);
            if (s.get(RING) == 0)
                throw new SkippedException("io_uring not available here: " + s);

            // hot: every read from the page cache (through a ring in always); in
            // auto a read whose carrier has nothing else to run is a pread
            IoUringCounts.expect("always, hot, many virtual threads", s, RING, many);
            // (but the kernel may drop a page before it is read: mayMiss)
            s = run("compensate", "hot", file, seed);
            IoUringCounts.atLeast("compensate, hot, many virtual threads", s, PAGE_CACHE,
                                  many - IoUringCounts.mayMiss(many));
            IoUringCounts.expect("compensate, hot, many virtual threads", s, RING, 0);
            IoUringCounts.expect("compensate, hot, many virtual threads", s, "total", many);
            s = run("auto", "hot", file, seed);
            IoUringCounts.atMost("auto, hot, many virtual threads", s, RING,
                                 IoUringCounts.mayMiss(many));
            IoUringCounts.expect("auto, hot, many virtual threads", s, COMPENSATED, 0);
            IoUringCounts.expect("auto, hot, many virtual threads", s, FALLBACK, 0);
            IoUringCounts.expect("auto, hot, many virtual threads", s, "total", many);
            if (!cold) {
                System.out.println("the page cache keeps the file here: cold shapes skipped");
                return;
            }
            // platform threads: pread, blocking
            for (String mode : List.of("auto", "compensate", "never")) {
                s = run(mode, "platform", file, seed);
                IoUringCounts.expect(mode + ", cold, platform threads", s, BLOCKED, 4 * OPS);
                IoUringCounts.expect(mode + ", cold, platform threads", s, "total", 4 * OPS);
            }
            // one virtual thread: nothing else wants the carrier
            s = run("auto", "one", file, seed);
            IoUringCounts.positive("auto, cold, one virtual thread", s, BLOCKED);
            IoUringCounts.expect("auto, cold, one virtual thread", s, RING, 0);
            IoUringCounts.expect("auto, cold, one virtual thread", s, COMPENSATED, 0);
            IoUringCounts.expect("auto, cold, one virtual thread", s, "total", OPS);
            // many virtual threads: reads park on a ring while others want the
            // carrier (how many block it depends on the device's latency: no count
            // is asserted); none is compensated
            s = run("auto", "many", file, seed);
            IoUringCounts.positive("auto, cold, many virtual threads", s, RING);
            IoUringCounts.expect("auto, cold, many virtual threads", s, COMPENSATED, 0);
            IoUringCounts.expect("auto, cold, many virtual threads", s, FALLBACK, 0);
            IoUringCounts.expect("auto, cold, many virtual threads", s, "total", many);
            s = run("compensate", "many", file, seed);
            IoUringCounts.positive("compensate, cold, many virtual threads", s, COMPENSATED);
            IoUringCounts.expect("compensate, cold, many virtual threads", s, RING, 0);
            IoUringCounts.expect("compensate, cold, many virtual threads", s, BLOCKED, 0);
            IoUringCounts.expect("compensate, cold, many virtual threads", s, "total", many);
            s = run("never", "many", file, seed);
            IoUringCounts.expect("never, cold, many virtual threads", s, BLOCKED, many);
            IoUringCounts.expect("never, cold, many virtual threads", s, "total", many);
        } finally {
            Files.deleteIfExists(file);
        }
        System.out.println("passed");
    }

    /**
     * Runs the child in a new VM and returns its jdk.FileDispatch events
     * counted by route, and their total ("total").
     */
    static Map<String, Long> run(String mode, String shape, Path file, long seed)
        throws Exception
    {
        Map<String, Long> s = IoUringCounts.run(List.of(
                "-Djdk.internal.nio.ioUring.mode=" + mode,
                // the shapes' counts as on a machine with two carriers
                "-Djdk.virtualThreadScheduler.parallelism=2",
                "IoUringStatistics", shape, file.toString(), Long.toString(seed)));
        s.put("total", IoUringCounts.total(s));
        return s;
    }

    /**
     * The child: reads random 4 KiB blocks of the file in the given shape and
     * checks every block against the data made from the seed.
     */
    static void child(String shape, Path file, long seed) throws Exception {
        byte[] data = new byte[BLOCKS * 4096];
        new Random(seed).nextBytes(data);
        if (shape.equals("hot")) {
            IoUringCounts.warmUp(file);
        } else {
            IoUringRings.evict(file);
        }
        int threads = switch (shape) {
            case "one" -> 1;
            case "platform" -> 4;
            default -> 64;
        };
        try (FileChannel fc = FileChannel.open(file, READ)) {
            List<Thread> readers = new ArrayList<>();
            Throwable[] failure = new Throwable[1];
            for (int t = 0; t < threads; t++) {
                Random r = new Random(seed + t);
                Runnable task = () -> {
                    ByteBuffer bb = ByteBuffer.allocateDirect(4096);
                    try {
                        for (int i = 0; i < OPS; i++) {
                            int block = r.nextInt(BLOCKS);
                            if (fc.read(bb.clear(), block * 4096L) != 4096)
                                throw new RuntimeException("short read");
                            for (int k = 0; k < 4096; k++) {
                                if (bb.get(k) != data[block * 4096 + k])
                                    throw new RuntimeException("byte " + k + " of block " + block);
                            }
                        }
                    } catch (Throwable e) {
                        failure[0] = e;
                    }
                };
                readers.add(shape.equals("platform") ? Thread.ofPlatform().start(task)
                                                     : Thread.ofVirtual().start(task));
            }
            for (Thread t : readers)
                t.join();
            if (failure[0] != null)
                throw new RuntimeException(failure[0]);
        }
    }
}

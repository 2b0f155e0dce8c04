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
 * @summary The routes that JFR's jdk.FileDispatch event records for
 *          AsynchronousFileChannel reads: one read at a time blocks a thread of the
 *          executor in pread, as SimpleAsynchronousFileChannelImpl does; many at a
 *          time of a cached file come from the page cache, except those started while
 *          none was outstanding (blocked), and none goes to a ring; of an evicted file
 *          some go to a ring; in always every one goes to a ring; in never every one
 *          blocks; one event per read; every read's bytes are checked
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringCounts IoUringAsyncChannels
 * @modules jdk.jfr
 * @run main/othervm/timeout=300 IoUringAsyncStatistics
 */

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;
import jtreg.SkippedException;

public class IoUringAsyncStatistics {
    static final int BLOCK = 4096;
    static final int BLOCKS = 8192;
    static final int BURST = 16;
    static final int BURSTS = 25;
    static final long READS = BURST * BURSTS;
    static final String PAGE_CACHE = IoUringCounts.PAGE_CACHE, BLOCKED = IoUringCounts.BLOCKED,
            RING = IoUringCounts.RING;

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            child(args[0], Path.of(args[1]), Long.parseLong(args[2]));
            return;
        }
        long seed = RandomFactory.getRandom().nextLong();
        Path file = Files.createTempFile(Path.of("."), "async-statistics", ".dat");
        try {
            Files.write(file, IoUringAsyncChannels.randomBytes(new Random(seed), BLOCKS * BLOCK));
            Map<String, Long> s = run("always", "hot", file, seed);
            if (s.get(RING) == 0)
                throw new SkippedException("no io_uring channel here: " + s);
            // always: every read through a ring
            IoUringCounts.expect("always, hot, a burst at a time", s, RING, READS);
            IoUringCounts.expect("always, hot, a burst at a time", s, "total", READS);
            // one at a time: blocking a thread of the executor
            s = run("auto", "one", file, seed);
            IoUringCounts.expect("auto, one at a time", s, BLOCKED, READS);
            IoUringCounts.expect("auto, one at a time", s, "total", READS);
            // cached: from the page cache, but a read started while none is
            // outstanding (each burst's first, and any whose burst had none left),
            // and a read whose page the kernel dropped meanwhile (mayMiss)
            s = run("auto", "hot", file, seed);
            IoUringCounts.positive("auto, hot, a burst at a time", s, PAGE_CACHE);
            IoUringCounts.atMost("auto, hot, a burst at a time", s, RING,
                                 IoUringCounts.mayMiss(READS));
            IoUringCounts.expect("auto, hot, a burst at a time", s, BLOCKED,
                                 READS - s.get(PAGE_CACHE) - s.getOrDefault(RING, 0L));
            IoUringCounts.expect("auto, hot, a burst at a time", s, "total", READS);
            if (IoUringRings.canEvict(file)) {
                s = run("auto", "cold", file, seed);
                IoUringCounts.positive("auto, cold, a burst at a time", s, RING);
                IoUringCounts.expect("auto, cold, a burst at a time", s, "total", READS);
            } else {
                System.out.println("the page cache keeps the file here: cold shape skipped");
            }
            // never: SimpleAsynchronousFileChannelImpl, blocking
            s = run("never", "hot", file, seed);
            IoUringCounts.expect("never, hot, a burst at a time", s, BLOCKED, READS);
            IoUringCounts.expect("never, hot, a burst at a time", s, "total", READS);
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
        Map<String, Long> s = IoUringCounts.run(List.of("-Djdk.internal.nio.ioUring.mode=" + mode,
                "IoUringAsyncStatistics", shape, file.toString(), Long.toString(seed)));
        s.put("total", IoUringCounts.total(s));
        return s;
    }

    /**
     * The child: reads random blocks of the file, one at a time or a burst
     * of them at a time, from the page cache or evicted first, and checks
     * every block against the data made from the seed.
     */
    static void child(String shape, Path file, long seed) throws Exception {
        byte[] data = IoUringAsyncChannels.randomBytes(new Random(seed), BLOCKS * BLOCK);
        if (shape.equals("cold")) {
            IoUringRings.evict(file);
        } else {
            IoUringCounts.warmUp(file);
        }
        Random r = new Random(seed);
        int burst = shape.equals("one") ? 1 : BURST;
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ)) {
            for (long done = 0; done < READS; done += burst) {
                List<IoUringAsyncChannels.Outcome<Integer>> outcomes = new ArrayList<>();
                List<ByteBuffer> buffers = new ArrayList<>();
                List<Long> positions = new ArrayList<>();
                for (int i = 0; i < burst; i++) {
                    ByteBuffer bb = IoUringAsyncChannels.buffer(i % 2 == 0, BLOCK);
                    long position = (long) r.nextInt(BLOCKS) * BLOCK;
                    var o = new IoUringAsyncChannels.Outcome<Integer>(ch);
                    ch.read(bb, position, null, o);
                    outcomes.add(o);
                    buffers.add(bb);
                    positions.add(position);
                }
                for (int i = 0; i < burst; i++) {
                    IoUringAsyncChannels.checkRead(outcomes.get(i).get(), BLOCK, buffers.get(i),
                                                   data, positions.get(i));
                }
            }
        }
    }
}

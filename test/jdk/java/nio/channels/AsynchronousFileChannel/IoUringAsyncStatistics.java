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
 * @summary What -Djdk.nio.file.ioUring.debug=true reports at exit about the paths that
 *          AsynchronousFileChannel reads took: one read at a time is upstream's; many at
 *          a time of a cached file come from the page cache, except those started while
 *          none was outstanding (upstream's), and none goes to a ring; of an evicted file
 *          some go to a ring;
 *          in always every one goes to a ring; in never the channel is upstream's and
 *          nothing is reported; every read's bytes are checked
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringCounts IoUringAsyncChannels
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
import java.util.regex.Pattern;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;
import jdk.test.lib.process.OutputAnalyzer;
import jtreg.SkippedException;

public class IoUringAsyncStatistics {
    static final int BLOCK = 4096;
    static final int BLOCKS = 8192;
    static final int BURST = 16;
    static final int BURSTS = 25;
    static final long READS = BURST * BURSTS;
    static final Pattern STATS =
            Pattern.compile("jdk\\.nio\\.file\\.ioUring: AsynchronousFileChannel (upstream=.*)");

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            child(args[0], Path.of(args[1]), Long.parseLong(args[2]));
            return;
        }
        long seed = RandomFactory.getRandom().nextLong();
        Path file = Files.createTempFile(Path.of("."), "async-statistics", ".dat");
        try {
            Files.write(file, IoUringAsyncChannels.randomBytes(new Random(seed), BLOCKS * BLOCK));
            Map<String, Long> s = stats(run("always", "hot", file, seed));
            if (s.isEmpty())
                throw new SkippedException("no io_uring channel here");
            // always: every read through a ring
            IoUringCounts.expect("always, hot, a burst at a time", s, "ring", READS);
            IoUringCounts.expect("always, hot, a burst at a time", s, "cached", 0);
            IoUringCounts.expect("always, hot, a burst at a time", s, "upstream", 0);
            // one at a time: upstream's
            s = stats(run("auto", "one", file, seed));
            IoUringCounts.expect("auto, one at a time", s, "upstream", READS);
            IoUringCounts.expect("auto, one at a time", s, "cached", 0);
            IoUringCounts.expect("auto, one at a time", s, "ring", 0);
            // cached: from the page cache, but a read started while none is
            // outstanding (each burst's first, and any whose burst had none left)
            s = stats(run("auto", "hot", file, seed));
            IoUringCounts.positive("auto, hot, a burst at a time", s, "cached");
            IoUringCounts.expect("auto, hot, a burst at a time", s, "ring", 0);
            IoUringCounts.expect("auto, hot, a burst at a time", s, "upstream",
                                 READS - s.get("cached"));
            if (IoUringRings.canEvict(file)) {
                s = stats(run("auto", "cold", file, seed));
                IoUringCounts.positive("auto, cold, a burst at a time", s, "ring");
                IoUringCounts.expect("auto, cold, a burst at a time", s, "upstream",
                       READS - s.get("cached") - s.get("ring"));
            } else {
                System.out.println("the page cache keeps the file here: cold shape skipped");
            }
            // never: upstream's channel, nothing reported
            s = stats(run("never", "hot", file, seed));
            if (!s.isEmpty())
                throw new RuntimeException("never: reported " + s);
        } finally {
            Files.deleteIfExists(file);
        }
        System.out.println("passed");
    }

    static OutputAnalyzer run(String mode, String shape, Path file, long seed) throws Exception {
        return IoUringCounts.run(List.of("-Djdk.nio.file.ioUring=" + mode,
                "IoUringAsyncStatistics", shape, file.toString(), Long.toString(seed)));
    }

    static Map<String, Long> stats(OutputAnalyzer out) {
        return IoUringCounts.parse(out.getStderr(), STATS);
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
            Files.readAllBytes(file);
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

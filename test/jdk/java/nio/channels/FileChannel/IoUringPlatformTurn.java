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
 * @test id=always
 * @summary A platform thread that shares a ring with a carrier whose virtual
 *          threads read cached data back to back gets its turn at submitting:
 *          its reads take no longer than upstream's pread takes beside the same
 *          virtual threads
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always -Djdk.internal.nio.ioUring.rings=2
 *                   -Djdk.virtualThreadScheduler.parallelism=2 IoUringPlatformTurn
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm -Djdk.nio.file.ioUring=never -Djdk.virtualThreadScheduler.parallelism=2
 *                   IoUringPlatformTurn
 */
import java.io.FileOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import static java.nio.file.StandardOpenOption.READ;
import jtreg.SkippedException;

public class IoUringPlatformTurn {
    static final int BLOCK = 4096;
    static final int BLOCKS = 16384;    // 64 MiB
    static final int READERS = 256;
    static final long RUN_NANOS = 5_000_000_000L;
    // The slowest read of the platform thread on a 2-CPU machine, in runs of
    // which some had a JDK build beside them: never (pread) 9 to 585 ms,
    // always 9 to 73 ms. Before virtual threads stopped queueing for the
    // submit lock, always took up to 2.6 s, and once 415 s when they yielded
    // for it. The bound gives upstream's path more than three times its
    // slowest read seen here.
    static final long SLOWEST_NANOS = 2_000_000_000L;

    public static void main(String[] args) throws Exception {
        byte[] data = new byte[BLOCKS * BLOCK];
        new Random(5).nextBytes(data);
        Path f = Files.createTempFile(Path.of("."), "turn", ".dat");
        try (FileOutputStream out = new FileOutputStream(f.toFile())) {
            out.write(data);
        }
        try (FileChannel fc = FileChannel.open(f, READ)) {
            // this thread takes ring 0 and sets the rings up; of the two
            // carriers, one then takes ring 1 and the other ring 0
            ByteBuffer bb = ByteBuffer.allocateDirect(BLOCK);
            IoUringRings.readAndCheck(fc, bb, data, 0);
            boolean never = "never".equals(System.getProperty("jdk.internal.nio.ioUring.mode", System.getProperty("jdk.nio.file.ioUring")));
            if (!never && IoUringRings.fds().isEmpty())
                throw new SkippedException("io_uring not available");

            // virtual threads reading back to back; one read in 64 is checked
            AtomicBoolean stop = new AtomicBoolean();
            LongAdder virtualReads = new LongAdder();
            List<Thread> readers = new ArrayList<>();
            for (int t = 0; t < READERS; t++) {
                long seed = t * 31L + 7;
                readers.add(Thread.ofVirtual().start(() -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    ByteBuffer vb = ByteBuffer.allocateDirect(BLOCK);
                    try {
                        for (int i = 0; !stop.get(); i++) {
                            int pos = rnd.nextInt(BLOCKS) * BLOCK;
                            if ((i & 63) == 0) {
                                IoUringRings.readAndCheck(fc, vb, data, pos);
                            } else {
                                vb.clear();
                                if (fc.read(vb, pos) != BLOCK)
                                    throw new RuntimeException("short read at " + pos);
                            }
                            virtualReads.increment();
                        }
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                }));
            }
            long slowest = 0;
            int reads = 0;
            try {
                Thread.sleep(1000);
                long start = System.nanoTime();
                while (System.nanoTime() - start < RUN_NANOS) {
                    long t0 = System.nanoTime();
                    int pos = (int) (reads * 7919L % BLOCKS) * BLOCK;
                    IoUringRings.readAndCheck(fc, bb, data, pos);
                    slowest = Math.max(slowest, System.nanoTime() - t0);
                    reads++;
                    Thread.sleep(1);
                }
            } finally {
                stop.set(true);
                for (Thread t : readers)
                    t.join();
            }
            System.out.printf("platform thread: %d reads, the slowest %.1f ms;"
                              + " virtual threads: %d reads%n",
                              reads, slowest / 1e6, virtualReads.sum());
            if (slowest > SLOWEST_NANOS)
                throw new RuntimeException("platform thread starved: a read took "
                        + slowest / 1_000_000 + " ms");
        } finally {
            Files.delete(f);
        }
    }
}

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
 * @summary Each carrier of the virtual-thread scheduler submits to a ring of its own,
 *          when there are as many rings as carriers
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always -Djdk.internal.nio.ioUring.rings=4
 *                   -Djdk.virtualThreadScheduler.parallelism=4
 *                   -Djdk.virtualThreadScheduler.maxPoolSize=4 IoUringCarrierRings
 */
import java.io.FileOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import static java.nio.file.StandardOpenOption.READ;
import jtreg.SkippedException;

public class IoUringCarrierRings {
    static final int BLOCK = 4096;
    static final int READS = 2000;

    public static void main(String[] args) throws Exception {
        byte[] data = new byte[1 << 20];
        new Random(7).nextBytes(data);
        Path f = Files.createTempFile(Path.of("."), "rings", ".dat");
        // no FileChannel here nor in reading the fdinfo: this platform thread
        // must not take a ring
        try (FileOutputStream out = new FileOutputStream(f.toFile())) {
            out.write(data);
        }
        try (FileChannel fc = FileChannel.open(f, READ)) {
            // a first read, by a virtual thread so that no platform thread
            // takes a ring, sets the rings up
            Thread first = Thread.ofVirtual().start(() -> {
                try {
                    fc.read(ByteBuffer.allocate(1), 0);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            first.join();
            List<Path> fds = IoUringRings.fds();
            if (fds.isEmpty())
                throw new SkippedException("io_uring not available");
            if (fds.size() < 4)     // RLIMIT_MEMLOCK on kernels before 5.12
                throw new SkippedException("only " + fds.size() + " rings could be set up");
            if (fds.size() > 4)
                throw new RuntimeException(fds.size() + " rings, expected 4");
            long[] before = IoUringRings.submitted(fds);

            // 4 readers at a time keep the 4 carriers busy: a read of cached
            // data completes during its submission, so none of them parks
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                int seed = t;
                threads.add(Thread.ofVirtual().start(() -> {
                    try {
                        start.await();
                        Random rnd = new Random(seed);
                        ByteBuffer bb = ByteBuffer.allocateDirect(BLOCK);
                        for (int i = 0; i < READS; i++) {
                            int pos = rnd.nextInt(data.length / BLOCK) * BLOCK;
                            bb.clear();
                            if (fc.read(bb, pos) != BLOCK)
                                throw new RuntimeException("short read at " + pos);
                            for (int j = 0; j < BLOCK; j += 512) {
                                if (bb.get(j) != data[pos + j])
                                    throw new RuntimeException("bad byte at " + (pos + j));
                            }
                        }
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                }));
            }
            start.countDown();
            for (Thread t : threads)
                t.join();

            long[] after = IoUringRings.submitted(fds);
            long total = 0;
            for (int i = 0; i < fds.size(); i++) {
                long n = after[i] - before[i];
                System.out.println(fds.get(i) + ": " + n + " submissions");
                total += n;
            }
            if (total < 16L * READS)
                throw new RuntimeException(total + " submissions for " + 16 * READS + " reads");
            // each of the 4 carriers read, each on a ring of its own (no
            // platform thread has one)
            for (int i = 0; i < fds.size(); i++) {
                if (after[i] - before[i] == 0)
                    throw new RuntimeException("ring " + fds.get(i) + " unused: carriers share rings");
            }
        } finally {
            Files.delete(f);
        }
    }
}

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
 * @summary A thread that ends gives its ring back: threads that start one
 *          after the other, each after the previous one ended, take the same ring
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always -Djdk.internal.nio.ioUring.rings=2
 *                   IoUringRingUsers
 */
import java.io.FileOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import static java.nio.file.StandardOpenOption.READ;
import jtreg.SkippedException;

public class IoUringRingUsers {
    static final int BLOCK = 4096;
    static final int THREADS = 6;
    static final int READS = 10;

    public static void main(String[] args) throws Exception {
        byte[] data = new byte[64 * BLOCK];
        new Random(11).nextBytes(data);
        Path f = Files.createTempFile(Path.of("."), "users", ".dat");
        try (FileOutputStream out = new FileOutputStream(f.toFile())) {
            out.write(data);
        }
        try (FileChannel fc = FileChannel.open(f, READ)) {
            // this thread takes a ring, if it has none yet, and sets the
            // rings up; it reads no file through a FileChannel after that
            readAndCheck(fc, data, 0, 1);
            List<Path> fds = IoUringRings.fds();
            if (fds.isEmpty())
                throw new SkippedException("io_uring not available");
            if (fds.size() < 2)     // RLIMIT_MEMLOCK on kernels before 5.12
                throw new SkippedException("only " + fds.size() + " ring could be set up");
            if (fds.size() > 2)
                throw new RuntimeException(fds.size() + " rings, expected 2");
            long[] before = IoUringRings.submitted(fds);

            // Threads that start one after the other, each after the previous
            // one ended, find the same counts of live threads per ring, so
            // they all take the same ring. Had the ended ones kept their
            // count, the next ones would take turns at the two rings.
            for (int t = 1; t <= THREADS; t++) {
                int seed = t;
                Thread thread = Thread.ofPlatform().start(() -> {
                    try {
                        readAndCheck(fc, data, seed, READS);
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                thread.join();
            }
            long[] after = IoUringRings.submitted(fds);
            long total = 0;
            int used = 0;
            for (int i = 0; i < 2; i++) {
                long n = after[i] - before[i];
                System.out.println(fds.get(i) + ": " + n + " submissions");
                total += n;
                if (n > 0)
                    used++;
            }
            if (total < THREADS * READS)
                throw new RuntimeException(total + " submissions for " + THREADS * READS
                                           + " reads");
            if (used != 1)
                throw new RuntimeException("threads that started after others ended took"
                        + " different rings: ended threads kept their count");
        } finally {
            Files.delete(f);
        }
    }

    /** Reads n random blocks at positions and checks their bytes. */
    static void readAndCheck(FileChannel fc, byte[] data, int seed, int n) throws Exception {
        Random rnd = new Random(seed);
        ByteBuffer bb = ByteBuffer.allocateDirect(BLOCK);
        for (int i = 0; i < n; i++) {
            int pos = rnd.nextInt(data.length / BLOCK) * BLOCK;
            IoUringRings.readAndCheck(fc, bb, data, pos);
        }
    }
}

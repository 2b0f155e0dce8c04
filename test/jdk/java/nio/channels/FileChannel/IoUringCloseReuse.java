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

/*
 * @test id=always
 * @summary FileChannel.close() under virtual threads reading a cold file while every carrier
 *          computes, then the file descriptor number reused by files opened right after: no
 *          reader ever returns bytes of another file, whether close waited for it or not
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always IoUringCloseReuse
 */

/*
 * @test id=auto
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings
 * @run main/othervm IoUringCloseReuse
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings
 * @run main/othervm -Djdk.nio.file.ioUring=never IoUringCloseReuse
 */

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;

public class IoUringCloseReuse {
    static final Random RAND = RandomFactory.getRandom();
    static final int BLOCK = 4096;
    static final int FILE_SIZE = 8 << 20;
    static final int ROUNDS = 20;
    static final int READERS = 8;

    public static void main(String[] args) throws Exception {
        byte[] a = new byte[FILE_SIZE];
        byte[] b = new byte[FILE_SIZE];
        RAND.nextBytes(a);
        RAND.nextBytes(b);
        Path fileA = write("reuseA", a);
        Path fileB = write("reuseB", b);
        int carriers = Runtime.getRuntime().availableProcessors();
        List<String> failures = new CopyOnWriteArrayList<>();
        try {
            for (int round = 0; round < ROUNDS && failures.isEmpty(); round++) {
                IoUringRings.evict(fileA);
                FileChannel fc = FileChannel.open(fileA, READ);
                CountDownLatch reading = new CountDownLatch(READERS);
                List<Thread> readers = new ArrayList<>();
                for (int r = 0; r < READERS; r++) {
                    long seed = RAND.nextLong();
                    readers.add(Thread.ofVirtual().start(() -> read(fc, a, b, seed, reading, failures)));
                }
                reading.await();
                // every carrier busy, so that a reader whose read completed waits to run
                AtomicBoolean stop = new AtomicBoolean();
                List<Thread> spinners = new ArrayList<>();
                for (int i = 0; i < carriers; i++) {
                    spinners.add(Thread.ofVirtual().start(() -> {
                        long end = System.nanoTime() + 300_000_000L;
                        while (!stop.get() && System.nanoTime() < end)
                            Thread.onSpinWait();
                    }));
                }
                Thread.sleep(20);
                fc.close();
                // the closed descriptor's number goes to one of these
                List<FileChannel> others = new ArrayList<>();
                for (int i = 0; i < 4; i++)
                    others.add(FileChannel.open(fileB, READ));
                stop.set(true);
                for (Thread t : spinners)
                    t.join();
                for (Thread t : readers)
                    t.join();
                for (FileChannel o : others)
                    o.close();
            }
        } finally {
            Files.delete(fileA);
            Files.delete(fileB);
        }
        if (!failures.isEmpty())
            throw new RuntimeException(failures.toString());
        System.out.println("passed: " + ROUNDS + " rounds");
    }

    static Path write(String prefix, byte[] data) throws Exception {
        Path f = Files.createTempFile(Path.of("."), prefix, ".dat");
        try (FileChannel fc = FileChannel.open(f, WRITE)) {
            ByteBuffer bb = ByteBuffer.wrap(data);
            while (bb.hasRemaining())
                fc.write(bb);
            fc.force(true);     // so that evicting drops every page
        }
        return f;
    }

    /**
     * Reads random blocks until the channel is closed; each block read must
     * be file a's, never file b's, which may come to have the same number.
     */
    static void read(FileChannel fc, byte[] a, byte[] b, long seed, CountDownLatch reading,
                     List<String> failures) {
        Random r = new Random(seed);
        ByteBuffer bb = ByteBuffer.allocateDirect(BLOCK);
        boolean counted = false;
        try {
            for (;;) {
                int pos = r.nextInt(FILE_SIZE / BLOCK) * BLOCK;
                int n = fc.read(bb.clear(), pos);
                bb.flip();
                if (n != BLOCK) {
                    failures.add("read at " + pos + " returned " + n);
                    return;
                }
                if (bb.mismatch(ByteBuffer.wrap(a, pos, BLOCK)) >= 0) {
                    boolean other = bb.mismatch(ByteBuffer.wrap(b, pos, BLOCK)) < 0;
                    failures.add("read at " + pos + " returned "
                                 + (other ? "the bytes of the file opened after close" : "wrong bytes"));
                    return;
                }
                if (!counted) {
                    counted = true;
                    reading.countDown();
                }
            }
        } catch (Throwable e) {
            // closed: expected
            if (!(e instanceof ClosedChannelException))
                failures.add(e.toString());
        } finally {
            if (!counted)
                reading.countDown();
        }
    }
}

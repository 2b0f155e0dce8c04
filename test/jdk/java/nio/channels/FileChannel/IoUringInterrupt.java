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
 * @test id=auto
 * @summary Interrupt and async close of threads doing positional reads and writes
 *          while operations are in flight: expected exceptions, no hang, no corruption
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @run main/othervm/timeout=300 -Djdk.nio.file.ioUring=auto IoUringInterrupt
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @run main/othervm/timeout=300 -Djdk.internal.nio.ioUring.mode=always IoUringInterrupt
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @run main/othervm/timeout=300 -Djdk.nio.file.ioUring=never IoUringInterrupt
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;

public class IoUringInterrupt {
    static final Random RAND = RandomFactory.getRandom();
    static final int FILE_SIZE = 32 << 20;
    static final int THREADS = 4;
    static final long MILLIS_PER_KIND = 5000;

    static byte[] reference;
    static Path file;

    public static void main(String[] args) throws Exception {
        System.out.println("jdk.nio.file.ioUring=" + System.getProperty("jdk.internal.nio.ioUring.mode", System.getProperty("jdk.nio.file.ioUring")));
        file = Files.createTempFile(Path.of("."), "intr", ".dat");
        reference = new byte[FILE_SIZE];
        RAND.nextBytes(reference);
        Files.write(file, reference);
        try {
            for (boolean virtual : new boolean[] { false, true }) {
                ThreadFactory factory = virtual
                        ? Thread.ofVirtual().factory()
                        : Thread.ofPlatform().factory();
                long deadline = System.currentTimeMillis() + MILLIS_PER_KIND;
                int iterations = 0;
                while (iterations < 30 || System.currentTimeMillis() < deadline) {
                    if (iterations % 25 == 0)
                        IoUringRings.evict(file);
                    iteration(factory, iterations % 2 == 0);
                    iterations++;
                }
                System.out.println((virtual ? "virtual" : "platform") + ": "
                        + iterations + " iterations");
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Starts THREADS threads doing positional reads (and one rewriting the
     * reference bytes in place) on one channel, then interrupts one of them or
     * closes the channel, and checks how each ended.
     */
    static void iteration(ThreadFactory factory, boolean interrupt) throws Exception {
        FileChannel fc = FileChannel.open(file, READ, WRITE);
        Thread[] threads = new Thread[THREADS];
        @SuppressWarnings("unchecked")
        AtomicReference<Throwable>[] outcome = new AtomicReference[THREADS];
        boolean[] interruptedAfter = new boolean[THREADS];
        AtomicIntegerArray started = new AtomicIntegerArray(THREADS);
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            outcome[t] = new AtomicReference<>();
            long seed = RAND.nextLong();
            threads[t] = factory.newThread(() -> {
                started.set(id, 1);
                try {
                    loop(fc, id, new Random(seed));
                } catch (Throwable e) {
                    outcome[id].set(e);
                } finally {
                    interruptedAfter[id] = Thread.currentThread().isInterrupted();
                }
            });
        }
        for (Thread t : threads)
            t.start();
        Thread.sleep(RAND.nextInt(3));
        // the victim is a thread that has begun its loop: virtual threads are
        // not time-sliced, so while every operation finds the file cached,
        // those that took the carriers may keep them, and one that has not
        // run yet would see its interrupt only once the others end, which
        // they do only when the channel is closed
        List<Integer> running = new ArrayList<>();
        while (running.isEmpty()) {
            for (int t = 0; t < THREADS; t++) {
                if (started.get(t) != 0)
                    running.add(t);
            }
            if (running.isEmpty())
                Thread.sleep(1);
        }
        int victim = running.get(RAND.nextInt(running.size()));
        if (interrupt) {
            threads[victim].interrupt();
        } else {
            fc.close();
        }
        for (Thread t : threads) {
            if (!t.join(java.time.Duration.ofSeconds(30))) {
                for (Thread u : threads) {
                    System.err.println(u);
                    for (StackTraceElement e : u.getStackTrace())
                        System.err.println("    at " + e);
                }
                throw new RuntimeException("thread did not finish: " + t);
            }
        }
        if (fc.isOpen())
            throw new RuntimeException("channel still open");
        for (int t = 0; t < THREADS; t++) {
            Throwable e = outcome[t].get();
            if (e == null)
                throw new RuntimeException("thread " + t + " ended without exception");
            if (interrupt && t == victim) {
                if (!(e instanceof ClosedByInterruptException))
                    throw new RuntimeException("interrupted thread: " + e, e);
                if (!interruptedAfter[t])
                    throw new RuntimeException("interrupt status not set");
            } else {
                if (!(e instanceof AsynchronousCloseException)
                        && !(e instanceof ClosedChannelException))
                    throw new RuntimeException("thread " + t + ": " + e, e);
                if (e instanceof ClosedByInterruptException)
                    throw new RuntimeException("thread " + t + " was not interrupted: " + e, e);
            }
        }
    }

    static void loop(FileChannel fc, int id, Random r) throws IOException {
        ByteBuffer heap = ByteBuffer.allocate(65536);
        ByteBuffer direct = ByteBuffer.allocateDirect(65536);
        for (;;) {
            ByteBuffer bb = r.nextBoolean() ? heap : direct;
            int size = r.nextBoolean() ? 4096 : 1 + r.nextInt(65536);
            int position = r.nextInt(FILE_SIZE - size);
            bb.clear().limit(size);
            if (id == 0) {
                // rewrite bytes in place with what they already hold
                bb.put(reference, position, size).flip();
                int n = fc.write(bb, position);
                if (n != size)
                    throw new RuntimeException("short write " + n);
            } else {
                int n = fc.read(bb, position);
                if (n != size)
                    throw new RuntimeException("short read " + n);
                for (int i = 0; i < size; i++) {
                    if (bb.get(i) != reference[position + i])
                        throw new RuntimeException("corrupt read at " + position + "+" + i);
                }
            }
        }
    }
}

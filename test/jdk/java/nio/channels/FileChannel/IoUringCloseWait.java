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
 * @summary FileChannel.close() and Thread.interrupt() of a virtual thread in a positional
 *          or relative read of a cold file, while other virtual threads compute on every
 *          carrier: they return once the read in progress is done, as upstream's do, whether
 *          the reader blocked its carrier in pread/read(2) or parked on a ring (it need not
 *          be scheduled first)
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings
 * @run main/othervm -Djdk.nio.file.ioUring=auto IoUringCloseWait
 */

/*
 * @test id=auto-scarce
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings
 * @run main/othervm -Djdk.nio.file.ioUring=auto -Djdk.virtualThreadScheduler.parallelism=1
 *      IoUringCloseWait
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always IoUringCloseWait
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings
 * @run main/othervm -Djdk.nio.file.ioUring=never IoUringCloseWait
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;

/**
 * A virtual thread reads 4 KiB blocks of a cold file at random positions in
 * a loop; when it has read one, as many virtual threads as there are
 * carriers start computing for SPIN_MILLIS. Then this platform thread closes
 * the channel, or interrupts the reader, and times it. Upstream's
 * FileChannelImpl.implCloseChannel waits for the threads in an I/O operation
 * on the channel, which upstream are in read(2) on their carrier: a few
 * milliseconds at most. A reader parked on a ring stays registered as in an
 * operation until it runs again, which needs a carrier, so the closer waits
 * for a carrier: here until the computing threads end, after SPIN_MILLIS
 * (doc/design.md, "Close and interrupt wait for a carrier"). So: in never,
 * close and interrupt return within MAX_MILLIS, as upstream's; with a ring,
 * within MAX_MILLIS of the carriers becoming free, never later (no lost
 * wake-up, no hang).
 */
public class IoUringCloseWait {
    static final Random RAND = RandomFactory.getRandom();
    static final int FILE_SIZE = 8 << 20;
    static final long SPIN_MILLIS = 4000;
    static final long MAX_MILLIS = 1500;
    static final int ATTEMPTS = 3;

    public static void main(String[] args) throws Exception {
        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                                          Runtime.getRuntime().availableProcessors());
        System.out.println("jdk.nio.file.ioUring=" + System.getProperty("jdk.internal.nio.ioUring.mode", System.getProperty("jdk.nio.file.ioUring"))
                + ", " + carriers + " carriers");
        Path file = Files.createTempFile(Path.of("."), "closewait", ".dat");
        byte[] reference = new byte[FILE_SIZE];
        RAND.nextBytes(reference);
        try (FileChannel fc = FileChannel.open(file, WRITE)) {
            ByteBuffer bb = ByteBuffer.wrap(reference);
            while (bb.hasRemaining())
                fc.write(bb);
            fc.force(true);     // so that evicting drops every page
        }
        List<String> failures = new ArrayList<>();
        try {
            for (boolean relative : new boolean[] { true, false }) {
                for (boolean interrupt : new boolean[] { false, true }) {
                    String what = (interrupt ? "Thread.interrupt() of"
                                             : "FileChannel.close() under")
                            + " a virtual thread in a " + (relative ? "relative" : "positional")
                            + " read";
                    // the best of ATTEMPTS: upstream's own reader, once its read
                    // is done, can unmount as it enters the thread set's monitor
                    // while close holds it, and then waits for a carrier too
                    long millis = Long.MAX_VALUE;
                    for (int i = 0; i < ATTEMPTS && millis > MAX_MILLIS; i++) {
                        long m = closeOrInterrupt(file, reference, relative, interrupt,
                                                  carriers, what);
                        System.out.println(what + ": " + m + " ms");
                        millis = Math.min(millis, m);
                    }
                    if (millis > MAX_MILLIS)
                        failures.add(what + " took " + millis + " ms or more in " + ATTEMPTS
                                + " attempts while " + carriers + " virtual threads computed"
                                + " for " + SPIN_MILLIS + " ms (limit " + MAX_MILLIS + " ms)");
                }
            }
        } finally {
            Files.delete(file);
        }
        if (!failures.isEmpty())
            throw new RuntimeException(failures.toString());
        System.out.println("passed");
    }

    static long closeOrInterrupt(Path file, byte[] reference, boolean relative, boolean interrupt,
                                 int carriers, String what)
        throws Exception
    {
        IoUringRings.evict(file);
        FileChannel fc = FileChannel.open(file, READ);
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        CountDownLatch reading = new CountDownLatch(1);
        long seed = RAND.nextLong();
        Thread reader = Thread.ofVirtual().start(() -> {
            Random r = new Random(seed);
            ByteBuffer bb = ByteBuffer.allocateDirect(4096);
            try {
                for (;;) {
                    long pos = (long) r.nextInt(FILE_SIZE / 4096) * 4096;
                    int n;
                    if (relative) {
                        fc.position(pos);
                        n = fc.read(bb.clear());
                    } else {
                        n = fc.read(bb.clear(), pos);
                    }
                    if (n != 4096)
                        throw new RuntimeException("read at " + pos + " returned " + n);
                    if (bb.flip().mismatch(ByteBuffer.wrap(reference, (int) pos, 4096)) >= 0)
                        throw new RuntimeException("read at " + pos + " differs");
                    reading.countDown();
                }
            } catch (Throwable e) {
                outcome.set(e);
                reading.countDown();
            }
        });
        reading.await();

        // one computing virtual thread per carrier, until stopped or SPIN_MILLIS
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < carriers; i++) {
            spinners.add(Thread.ofVirtual().start(() -> {
                long end = System.nanoTime() + SPIN_MILLIS * 1_000_000L;
                while (!stop.get() && System.nanoTime() < end)
                    Thread.onSpinWait();
            }));
        }
        Thread.sleep(200);
        long start = System.nanoTime();
        if (interrupt) {
            reader.interrupt();
        } else {
            fc.close();
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        stop.set(true);
        for (Thread t : spinners)
            t.join();
        if (!reader.join(Duration.ofSeconds(60)))
            throw new RuntimeException(what + ": the reader did not finish");
        Throwable e = outcome.get();
        boolean expected = interrupt
                ? e instanceof ClosedByInterruptException
                : (e instanceof AsynchronousCloseException || e instanceof ClosedChannelException)
                  && !(e instanceof ClosedByInterruptException);
        if (!expected)
            throw new RuntimeException(what + ": the reader ended with " + e, e);
        if (fc.isOpen())
            throw new RuntimeException(what + ": the channel is open");
        return millis;
    }
}

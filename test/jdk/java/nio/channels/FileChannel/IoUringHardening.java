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
 * @test id=orphan
 * @summary A submission that io_uring_enter refuses (a seccomp filter on one
 *          thread) leaves no SQE behind that a later submission by another
 *          thread hands to the kernel: the bytes written fall back to pwrite
 *          and nothing else is written
 * @requires os.family == "linux"
 * @library /test/lib
 * @modules java.base/sun.nio.ch
 * @run main/othervm/native -Djdk.internal.nio.ioUring.mode=always -Djdk.internal.nio.ioUring.rings=1
 *      IoUringHardening orphan
 */

/*
 * @test id=reaper
 * @summary When io_uring_enter is denied to every thread while O_DIRECT reads
 *          are in flight (a sandbox applied late), the reaper cannot wait for
 *          completions: every read still completes with the right bytes, and
 *          close does not hang
 * @requires os.family == "linux"
 * @library /test/lib
 * @modules java.base/sun.nio.ch
 * @run main/othervm/native/timeout=300 -Djdk.internal.nio.ioUring.mode=always
 *      -Djdk.internal.nio.ioUring.rings=1 -Djdk.nio.file.ioUring.debug=true IoUringHardening reaper
 */

/*
 * @test id=wait-fault
 * @summary The reaper's wait failing with EBADR (a dropped completion,
 *          simulated): the ring dies, every operation in flight completes or
 *          falls back to pread, with the right bytes
 * @requires os.family == "linux"
 * @library /test/lib
 * @modules java.base/sun.nio.ch
 * @run main/othervm/timeout=300 -Djdk.internal.nio.ioUring.mode=always -Djdk.internal.nio.ioUring.rings=1
 *      -Djdk.internal.nio.ioUring.testFault=wait:40 -Djdk.nio.file.ioUring.debug=true
 *      IoUringHardening wait-fault
 */

/*
 * @test id=interrupt
 * @summary An interrupted thread reading a cold file through an uninterruptible
 *          channel: every read completes with the right bytes, with exactly one
 *          ring operation each (no cancel, no retry), platform and virtual
 * @requires os.family == "linux"
 * @library /test/lib
 * @modules java.base/sun.nio.ch
 * @run main/othervm/timeout=300 -Djdk.internal.nio.ioUring.mode=always IoUringHardening interrupt
 */

/*
 * @test id=compensation
 * @summary O_DSYNC writes by virtual threads that park for io_uring start no
 *          spare carrier: the scheduler does not compensate for them
 * @requires os.family == "linux"
 * @library /test/lib
 * @modules java.base/sun.nio.ch
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always -Djdk.virtualThreadScheduler.parallelism=1
 *      -Djdk.virtualThreadScheduler.maxPoolSize=64 IoUringHardening compensation
 */

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import com.sun.nio.file.ExtendedOpenOption;
import static java.nio.file.StandardOpenOption.*;

import jtreg.SkippedException;

public class IoUringHardening {

    /**
     * Denies io_uring_enter with EPERM to the calling thread, or to every
     * thread; returns 0, an errno value, or -1 if not supported here.
     */
    static native int denyIoUringEnter(boolean allThreads);

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "orphan" -> orphan();
            case "reaper" -> readersSurvive(true);
            case "wait-fault" -> readersSurvive(false);
            case "interrupt" -> interrupt();
            case "compensation" -> compensation();
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static void deny(boolean allThreads) {
        int res = denyIoUringEnter(allThreads);
        if (res != 0)
            throw new SkippedException("seccomp filter not installed: " + res);
    }

    /**
     * A thread that io_uring_enter is denied to writes 'A' at 0 and 'B' at
     * 8192 through the ring; both fall back to pwrite. Another thread then
     * submits a read. An SQE left in the SQ ring by the failed submissions
     * would now write the temporary buffer, which holds 'B', at 0.
     */
    static void orphan() throws Exception {
        System.loadLibrary("IoUringHardening");
        Path file = Files.createTempFile(Path.of("."), "orphan", ".dat");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.write(new byte[65536]);
        }
        try (FileChannel fc = FileChannel.open(file, READ, WRITE)) {
            // the ring is created and used by this thread first
            if (fc.read(ByteBuffer.allocate(4096), 0) != 4096)
                throw new RuntimeException("short read");
            if (IoUringRings.fds().isEmpty())
                throw new SkippedException("io_uring not available");

            CountDownLatch written = new CountDownLatch(1);
            CountDownLatch checked = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = Thread.ofPlatform().start(() -> {
                try {
                    deny(false);
                    for (int i = 0; i < 2; i++) {
                        byte[] b = new byte[4096];
                        Arrays.fill(b, (byte) ('A' + i));
                        int n = fc.write(ByteBuffer.wrap(b), i * 8192);
                        if (n != 4096)
                            throw new RuntimeException("write returned " + n);
                    }
                } catch (Throwable e) {
                    failure.set(e);
                } finally {
                    written.countDown();
                }
                // keep the thread, and so its temporary buffer, alive
                try {
                    checked.await();
                } catch (InterruptedException e) { }
            });
            written.await();
            if (failure.get() instanceof SkippedException e)
                throw e;
            if (failure.get() != null)
                throw new RuntimeException("writer failed", failure.get());

            // a submission from a thread that may enter the ring
            for (int i = 0; i < 4; i++)
                fc.read(ByteBuffer.allocate(4096), 16384 + i * 4096);
            Thread.sleep(500);
            checked.countDown();
            writer.join();

            byte[] expected = new byte[65536];
            Arrays.fill(expected, 0, 4096, (byte) 'A');
            Arrays.fill(expected, 8192, 12288, (byte) 'B');
            byte[] actual = new byte[65536];
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                raf.readFully(actual);
            }
            int mismatch = Arrays.mismatch(expected, actual);
            if (mismatch >= 0)
                throw new RuntimeException("file differs at " + mismatch + ": "
                        + (char) actual[mismatch] + " instead of " + (char) expected[mismatch]);
            System.out.println("file as written");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Platform and virtual threads read a cold file through the ring while
     * its reaper's wait fails: io_uring_enter denied to every thread
     * (denyAll), or the test fault of jdk.internal.nio.ioUring.testFault. Every
     * read must end, with the right bytes, and close must not hang.
     */
    static void readersSurvive(boolean denyAll) throws Exception {
        if (denyAll)
            System.loadLibrary("IoUringHardening");
        int size = 64 << 20;
        Path file = Files.createTempFile(Path.of("."), "reaper", ".dat");
        byte[] reference = new byte[size];
        new Random(1).nextBytes(reference);
        Files.write(file, reference);
        try {
            // O_DIRECT where the file system has it: every read goes to the
            // device, so reads are in flight when the fault comes
            FileChannel fc;
            try {
                fc = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT);
            } catch (IOException | UnsupportedOperationException e) {
                IoUringRings.evict(file);
                fc = FileChannel.open(file, READ);
            }
            FileChannel channel = fc;
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong reads = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                long seed = t;
                Runnable reader = () -> {
                    Random r = new Random(seed);
                    ByteBuffer bb = ByteBuffer.allocateDirect(65536 + 4096).alignedSlice(4096);
                    try {
                        while (!stop.get()) {
                            int len = 4096 << r.nextInt(5);
                            long pos = (long) r.nextInt(size / 4096 - 16) * 4096;
                            bb.clear().limit(len);
                            int n = channel.read(bb, pos);
                            if (n != len)
                                throw new RuntimeException("read returned " + n);
                            for (int i = 0; i < len; i++) {
                                if (bb.get(i) != reference[(int) pos + i])
                                    throw new RuntimeException("wrong byte at " + (pos + i));
                            }
                            reads.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                };
                threads.add((t % 2 == 0) ? Thread.ofPlatform().start(reader)
                                         : Thread.ofVirtual().start(reader));
            }
            Thread.sleep(300);
            long before = reads.get();
            if (denyAll) {
                Thread denier = Thread.ofPlatform().start(() -> {
                    try {
                        deny(true);
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                denier.join();
                if (failure.get() instanceof SkippedException e) {
                    stop.set(true);
                    throw e;
                }
            }
            Thread.sleep(1000);
            stop.set(true);
            for (Thread t : threads) {
                if (!t.join(Duration.ofSeconds(60)))
                    throw new RuntimeException("a reader hangs: " + t);
            }
            if (failure.get() != null)
                throw new RuntimeException("a reader failed", failure.get());
            Thread closer = Thread.ofPlatform().start(() -> {
                try {
                    channel.close();
                } catch (IOException e) {
                    failure.set(e);
                }
            });
            if (!closer.join(Duration.ofSeconds(30)))
                throw new RuntimeException("close hangs");
            System.out.println(reads.get() + " reads, " + (reads.get() - before)
                    + " after the fault");
            if (reads.get() == before)
                throw new RuntimeException("no read after the fault");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Reads a cold file with the thread's interrupt status set, through a
     * channel that an interrupt does not close: each read takes one ring
     * operation and returns the right bytes, and the status stays set.
     */
    static void interrupt() throws Exception {
        int size = 16 << 20;
        int reads = 256;
        Path file = Files.createTempFile(Path.of("."), "interrupt", ".dat");
        byte[] reference = new byte[size];
        new Random(2).nextBytes(reference);
        Files.write(file, reference);
        try (FileChannel fc = FileChannel.open(file, READ)) {
            ((sun.nio.ch.FileChannelImpl) fc).setUninterruptible();
            // the ring is set up (its probe posts a completion) before counting
            fc.read(ByteBuffer.allocate(1), 0);
            for (boolean virtual : new boolean[] { false, true }) {
                IoUringRings.evict(file);
                long before = IoUringRings.completions();
                AtomicReference<Throwable> failure = new AtomicReference<>();
                Runnable task = () -> {
                    try {
                        Thread.currentThread().interrupt();
                        ByteBuffer bb = ByteBuffer.allocateDirect(4096);
                        Random r = new Random(3);
                        for (int i = 0; i < reads; i++) {
                            long pos = (long) r.nextInt(size / 4096) * 4096;
                            int n = fc.read(bb.clear(), pos);
                            if (n != 4096)
                                throw new RuntimeException("read returned " + n);
                            for (int j = 0; j < 4096; j++) {
                                if (bb.get(j) != reference[(int) pos + j])
                                    throw new RuntimeException("wrong byte at " + (pos + j));
                            }
                            if (!Thread.currentThread().isInterrupted())
                                throw new RuntimeException("interrupt status lost");
                        }
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                };
                Thread t = virtual ? Thread.ofVirtual().start(task) : Thread.ofPlatform().start(task);
                if (!t.join(Duration.ofSeconds(120)))
                    throw new RuntimeException("reads do not end");
                if (failure.get() != null)
                    throw new RuntimeException(failure.get());
                long used = IoUringRings.completions() - before;
                System.out.println((virtual ? "virtual" : "platform") + ": " + reads
                        + " reads, " + used + " ring completions");
                if (IoUringRings.fds().isEmpty())
                    throw new SkippedException("io_uring not available");
                // each read's completion, and at most one that wakes the ring's thread
                if (used < reads || used > 2L * reads)
                    throw new RuntimeException(used + " ring completions for " + reads + " reads");
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Virtual threads write with O_DSYNC through the ring on a scheduler of
     * parallelism 1: no spare carrier may be started for them, as it would
     * be if the writes were compensated for.
     */
    static void compensation() throws Exception {
        Path file = Files.createTempFile(Path.of("."), "dsync", ".dat");
        try (FileChannel fc = FileChannel.open(file, READ, WRITE, DSYNC)) {
            fc.write(ByteBuffer.allocate(4096), 0);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                long pos = t * 4096L;
                threads.add(Thread.ofVirtual().start(() -> {
                    try {
                        ByteBuffer bb = ByteBuffer.allocateDirect(4096);
                        for (int i = 0; i < 50; i++) {
                            if (fc.write(bb.clear(), pos) != 4096)
                                throw new RuntimeException("short write");
                        }
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                }));
            }
            int peak = carriers();
            for (Thread t : threads) {
                while (!t.join(Duration.ofMillis(5)))
                    peak = Math.max(peak, carriers());
            }
            if (failure.get() != null)
                throw new RuntimeException(failure.get());
            if (IoUringRings.fds().isEmpty())
                throw new SkippedException("io_uring not available");
            System.out.println("peak carriers: " + peak);
            if (peak > 1)
                throw new RuntimeException(peak + " carriers: a write was compensated for");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** The threads that carry virtual threads. */
    static int carriers() {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getClass().getName().equals("jdk.internal.misc.CarrierThread"))
                n++;
        }
        return n;
    }
}

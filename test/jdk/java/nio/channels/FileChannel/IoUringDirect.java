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
 * @summary O_DIRECT positional reads and writes (ExtendedOpenOption.DIRECT) on platform
 *          and virtual threads with each io_uring policy: bytes, counts, alignment errors,
 *          and a bounded number of spare carriers for virtual threads' reads where
 *          io_uring is used
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @modules jdk.unsupported
 * @run main/othervm -Djdk.nio.file.ioUring=auto -Djdk.virtualThreadScheduler.parallelism=2
 *                   IoUringDirect
 */

/*
 * @test id=auto-one-carrier
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @modules jdk.unsupported
 * @run main/othervm -Djdk.nio.file.ioUring=auto -Djdk.virtualThreadScheduler.parallelism=1
 *                   IoUringDirect
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @modules jdk.unsupported
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always -Djdk.virtualThreadScheduler.parallelism=2
 *                   IoUringDirect
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @modules jdk.unsupported
 * @run main/othervm -Djdk.nio.file.ioUring=never -Djdk.virtualThreadScheduler.parallelism=2
 *                   IoUringDirect
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import com.sun.nio.file.ExtendedOpenOption;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;
import jtreg.SkippedException;

public class IoUringDirect {
    static final Random RAND = RandomFactory.getRandom();
    static final int BLOCKS = 1024;

    public static void main(String[] args) throws Exception {
        Path file = Files.createTempFile(Path.of("."), "direct", ".dat");
        try {
            int align = (int) Files.getFileStore(file).getBlockSize();
            byte[] reference = new byte[BLOCKS * align];
            RAND.nextBytes(reference);
            Files.write(file, reference);
            FileChannel probe;
            try {
                probe = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT);
            } catch (IOException | UnsupportedOperationException e) {
                throw new SkippedException("O_DIRECT not supported here: " + e);
            }
            probe.close();
            // first, while only these reads have run on virtual threads: O_DIRECT
            // writes compensate, and their spares stay alive for a while
            carriers(file, align, reference);
            oneReader(file, align, reference);
            for (boolean virtual : new boolean[] { false, true }) {
                List<Callable<Void>> tasks = new ArrayList<>();
                for (int t = 0; t < (virtual ? 64 : 4); t++) {
                    long seed = RAND.nextLong();
                    tasks.add(() -> { test(file, align, reference, new Random(seed)); return null; });
                }
                try (ExecutorService ex = virtual ? Executors.newVirtualThreadPerTaskExecutor()
                                                  : Executors.newCachedThreadPool()) {
                    for (Future<Void> f : ex.invokeAll(tasks))
                        f.get();
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
        System.out.println("passed");
    }

    static void test(Path file, int align, byte[] reference, Random r) throws IOException {
        try (FileChannel fc = FileChannel.open(file, READ, WRITE, ExtendedOpenOption.DIRECT)) {
            ByteBuffer bb = ByteBuffer.allocateDirect(16 * align + align).alignedSlice(align);
            for (int i = 0; i < 50; i++) {
                int blocks = 1 + r.nextInt(16);
                int block = r.nextInt(BLOCKS);
                bb.clear().limit(blocks * align);
                int n = fc.read(bb, (long) block * align);
                int expected = Math.min(blocks, BLOCKS - block) * align;
                if (n != expected)
                    throw new RuntimeException("direct read returned " + n + ", expected " + expected);
                for (int k = 0; k < n; k++)
                    if (bb.get(k) != reference[block * align + k])
                        throw new RuntimeException("direct read: byte differs");
                // write back what was read (the file does not change)
                bb.flip();
                if (fc.write(bb, (long) block * align) != n)
                    throw new RuntimeException("direct write count");
                // heap buffer of aligned size: IOUtil's aligned temporary buffer
                ByteBuffer heap = ByteBuffer.allocate(align);
                if (fc.read(heap, (long) block * align) != align)
                    throw new RuntimeException("heap direct read count");
                for (int k = 0; k < align; k++)
                    if (heap.get(k) != reference[block * align + k])
                        throw new RuntimeException("heap direct read: byte differs");
            }
            // EOF
            bb.clear().limit(align);
            if (fc.read(bb, (long) BLOCKS * align) != -1)
                throw new RuntimeException("direct read at EOF");
            // misaligned position, size and buffer: the exceptions of upstream
            expectIOException(() -> fc.read(bb.clear().limit(align), 1));
            expectIOException(() -> fc.read(bb.clear().limit(align - 1), 0));
            expectIOException(() -> fc.read(bb.clear().position(1).limit(align + 1), 0));
            expectIOException(() -> fc.write(bb.clear().limit(align), 3));
        }
    }

    /**
     * O_DIRECT reads by many virtual threads. Upstream compensates for each
     * one (Blocker.begin), which starts spare carriers; in always the virtual
     * threads park instead, and the carrier pool does not grow; in auto they
     * park while other virtual threads wait for a carrier or are parked on a
     * ring, and are compensated for otherwise, so the pool grows by a few
     * carriers at most.
     */
    static void carriers(Path file, int align, byte[] reference) throws Exception {
        int parallelism = Integer.getInteger("jdk.virtualThreadScheduler.parallelism");
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger peak = new AtomicInteger();
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (!done.get()) {
                peak.accumulateAndGet(liveCarriers(), Math::max);
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        try (FileChannel fc = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int t = 0; t < 64; t++) {
                tasks.add(reader(fc, align, reference, 100));
            }
            try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
                for (Future<Void> f : ex.invokeAll(tasks))
                    f.get();
            }
        } finally {
            done.set(true);
            sampler.join();
        }
        peak.accumulateAndGet(liveCarriers(), Math::max);
        boolean ring = !IoUringRings.fds().isEmpty();
        String mode = System.getProperty("jdk.internal.nio.ioUring.mode", System.getProperty("jdk.nio.file.ioUring"));
        System.out.println("mode " + mode + ", ring fd open: " + ring + ", peak carriers: "
                + peak.get() + ", parallelism: " + parallelism);
        if (mode.equals("never")) {
            // shows that the sampler sees the spares
            if (peak.get() <= parallelism)
                throw new RuntimeException("never: no spare carrier seen");
        } else if (ring && mode.equals("auto")) {
            // compensated only while nothing else wants a carrier: far fewer
            // spares than upstream's one per blocked reader
            if (peak.get() > parallelism + 5 * parallelism / 2)
                throw new RuntimeException(mode + ": too many spare carriers: " + peak.get());
        } else if (ring) {
            if (peak.get() > parallelism)
                throw new RuntimeException(mode + ": spare carriers started: " + peak.get());
        } else {
            System.out.println("io_uring unavailable here: carrier count not checked");
        }
    }

    /**
     * O_DIRECT reads by one virtual thread at a time: in auto, nothing else
     * wants its carrier, so each is compensated for, as upstream, and none
     * goes to a ring; in always, every one goes to a ring.
     */
    static void oneReader(Path file, int align, byte[] reference) throws Exception {
        String mode = System.getProperty("jdk.internal.nio.ioUring.mode", System.getProperty("jdk.nio.file.ioUring"));
        if (mode.equals("never") || IoUringRings.fds().isEmpty()) {
            System.out.println("one reader: no ring, not checked");
            return;
        }
        int reads = 200;
        try (FileChannel fc = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            long before = IoUringRings.completions();
            Exception[] failure = new Exception[1];
            Thread t = Thread.ofVirtual().start(() -> {
                try {
                    reader(fc, align, reference, reads).call();
                } catch (Exception e) {
                    failure[0] = e;
                }
            });
            t.join();
            if (failure[0] != null)
                throw failure[0];
            long used = IoUringRings.completions() - before;
            System.out.println("one reader: " + used + " ring completions for " + reads + " reads");
            // a read through a ring posts its completion, and at most one more
            // that wakes the ring's thread
            boolean ok = mode.equals("always") ? (used >= reads && used <= 2L * reads)
                                               : used == 0;
            if (!ok)
                throw new RuntimeException(mode + ": " + used + " ring completions for "
                        + reads + " reads by one virtual thread");
        }
    }

    /**
     * A task that reads the given number of random aligned blocks of the
     * file with O_DIRECT and checks their bytes.
     */
    static Callable<Void> reader(FileChannel fc, int align, byte[] reference, int reads) {
        long seed = RAND.nextLong();
        return () -> {
            Random r = new Random(seed);
            ByteBuffer bb = ByteBuffer.allocateDirect(2 * align).alignedSlice(align);
            for (int i = 0; i < reads; i++) {
                int block = r.nextInt(BLOCKS);
                bb.clear().limit(align);
                if (fc.read(bb, (long) block * align) != align)
                    throw new RuntimeException("direct read count");
                for (int k = 0; k < align; k++)
                    if (bb.get(k) != reference[block * align + k])
                        throw new RuntimeException("direct read: byte differs");
            }
            return null;
        };
    }

    static int liveCarriers() {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet())
            if (t.getClass().getName().equals("jdk.internal.misc.CarrierThread"))
                n++;
        return n;
    }

    interface IORunnable {
        Object run() throws IOException;
    }

    static void expectIOException(IORunnable r) {
        try {
            r.run();
        } catch (IOException e) {
            return;
        }
        throw new RuntimeException("expected IOException");
    }
}

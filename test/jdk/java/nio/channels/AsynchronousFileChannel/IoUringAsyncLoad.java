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
 * @summary 1,024 reads, and 1,024 writes, outstanding on one AsynchronousFileChannel of a
 *          cold file, started by platform and virtual threads; 64 channels on 8 files used at
 *          once by 16 threads; chains of reads each started by the handler of the one before,
 *          64 at a time: every operation completes once with its bytes, and with io_uring a
 *          handful of threads do it, where upstream's default executor starts one per read
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=900 IoUringAsyncLoad
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=900 -Djdk.nio.file.ioUring=never IoUringAsyncLoad
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=900 -Djdk.internal.nio.ioUring.mode=always IoUringAsyncLoad
 */

/*
 * @test id=depth64
 * @summary The same with rings of 64 slots: operations wait in the ring's queue for free slots
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=900 -Djdk.internal.nio.ioUring.depth=64 IoUringAsyncLoad
 */

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;

public class IoUringAsyncLoad {
    static final Random RAND = RandomFactory.getRandom();
    static final int BLOCK = 4096;
    static final int FILE_SIZE = 64 << 20;
    static final int OUTSTANDING = 1024;
    // threads io_uring's channel may add while 1,024 operations are outstanding
    static final int THREAD_LIMIT = 32;

    static boolean uring;

    public static void main(String[] args) throws Exception {
        byte[] data = IoUringAsyncChannels.randomBytes(RAND, FILE_SIZE);
        Path file = IoUringAsyncChannels.createFile("load", data);
        try {
            try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ)) {
                uring = IoUringAsyncChannels.checkImplementation(ch);
            }
            System.out.println("io_uring channel: " + uring + ", cold reads: "
                               + IoUringRings.canEvict(file));
            for (boolean virtual : new boolean[] { false, true }) {
                outstanding(file, data, false, virtual);
                outstanding(file, data, true, virtual);
            }
            manyChannels();
            for (boolean pool : new boolean[] { false, true })
                chains(file, data, pool);
        } finally {
            Files.delete(file);
        }
        System.out.println("passed");
    }

    /**
     * OUTSTANDING reads (or writes) of distinct blocks of the cold file,
     * started at once by one thread with the default executor; checks every
     * one, and that with io_uring the VM's thread count grows by no more than
     * THREAD_LIMIT meanwhile.
     */
    static void outstanding(Path file, byte[] data, boolean write, boolean virtual) throws Exception {
        IoUringRings.evict(file);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int before = threads.getThreadCount();
        threads.resetPeakThreadCount();
        long completions = uring ? IoUringRings.completions() : 0;
        List<Integer> blocks = new ArrayList<>();
        for (int i = 0; i < FILE_SIZE / BLOCK; i++)
            blocks.add(i);
        Collections.shuffle(blocks, RAND);
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ, WRITE)) {
            IoUringAsyncChannels.checkImplementation(ch);
            List<ByteBuffer> buffers = new ArrayList<>();
            List<IoUringAsyncChannels.Outcome<Integer>> outcomes = new ArrayList<>();
            List<byte[]> written = new ArrayList<>();
            IoUringAsyncChannels.inThread(virtual, () -> {
                for (int i = 0; i < OUTSTANDING; i++) {
                    ByteBuffer bb = IoUringAsyncChannels.buffer(i % 2 == 0, BLOCK);
                    long position = (long) blocks.get(i) * BLOCK;
                    IoUringAsyncChannels.Outcome<Integer> o = new IoUringAsyncChannels.Outcome<>(ch);
                    if (write) {
                        byte[] b = IoUringAsyncChannels.randomBytes(RAND, BLOCK);
                        bb.put(0, b);
                        written.add(b);
                        ch.write(bb, position, null, o);
                    } else {
                        ch.read(bb, position, null, o);
                    }
                    buffers.add(bb);
                    outcomes.add(o);
                }
                return null;
            });
            for (int i = 0; i < OUTSTANDING; i++) {
                int n = outcomes.get(i).get();
                int position = blocks.get(i) * BLOCK;
                if (write) {
                    if (n != BLOCK)
                        throw new RuntimeException("wrote " + n + " at " + position);
                    System.arraycopy(written.get(i), 0, data, position, BLOCK);
                } else {
                    IoUringAsyncChannels.checkRead(n, BLOCK, buffers.get(i), data, position);
                }
            }
        }
        if (write && !Arrays.equals(Files.readAllBytes(file), data))
            throw new RuntimeException("the file is not what was written");
        int added = threads.getPeakThreadCount() - before;
        String what = OUTSTANDING + (write ? " writes" : " reads") + " outstanding, "
                + (virtual ? "virtual" : "platform") + " initiator";
        System.out.println(what + ": " + added + " threads added");
        // in auto, buffered writes, and an operation started while none is
        // outstanding (the first, or one after the device kept up with the
        // initiator), are done as upstream does
        if (uring && (!write || IoUringAsyncChannels.always())) {
            long done = IoUringRings.completions() - completions;
            long expected = IoUringAsyncChannels.always() ? OUTSTANDING : OUTSTANDING / 2;
            if (done < expected)
                throw new RuntimeException(what + ": " + done + " ring completions, expected "
                                           + expected + " at least");
            if (added > THREAD_LIMIT)
                throw new RuntimeException(what + ": " + added + " threads added");
        }
    }

    /**
     * 64 channels on 8 files, each used by 2 of 16 threads (8 platform, 8
     * virtual) for 64 reads and writes of their own blocks, outstanding 8 at
     * a time.
     */
    static void manyChannels() throws Exception {
        int files = 8, channels = 64, threadsPerChannel = 2, blocksPerThread = 64;
        List<Path> paths = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        for (int f = 0; f < files; f++) {
            byte[] b = IoUringAsyncChannels.randomBytes(RAND, channels / files * threadsPerChannel * blocksPerThread * BLOCK);
            Path p = IoUringAsyncChannels.createFile("many", b);
            paths.add(p);
            contents.add(b);
        }
        try {
            List<AsynchronousFileChannel> chs = new ArrayList<>();
            for (int c = 0; c < channels; c++) {
                AsynchronousFileChannel ch = AsynchronousFileChannel.open(paths.get(c % files), READ, WRITE);
                IoUringAsyncChannels.checkImplementation(ch);
                chs.add(ch);
            }
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                int id = t;
                Runnable task = () -> {
                    try {
                        for (int k = 0; k < channels * threadsPerChannel / 16; k++) {
                            int slot = id * (channels * threadsPerChannel / 16) + k;   // 0..127
                            int c = slot % channels;
                            int f = c % files;
                            // the blocks of this thread on this channel's file
                            int first = (slot / files) * blocksPerThread;
                            useChannel(chs.get(c), contents.get(f), first, blocksPerThread, id);
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                };
                threads.add((t % 2 == 0) ? Thread.ofPlatform().start(task) : Thread.ofVirtual().start(task));
            }
            for (Thread t : threads)
                t.join();
            for (AsynchronousFileChannel ch : chs)
                ch.close();
            if (failure.get() != null)
                throw new RuntimeException(failure.get());
            for (int f = 0; f < files; f++) {
                if (!Arrays.equals(Files.readAllBytes(paths.get(f)), contents.get(f)))
                    throw new RuntimeException("file " + f + " is not what was written");
            }
        } finally {
            for (Path p : paths)
                Files.delete(p);
        }
        System.out.println("64 channels, 16 threads: done");
    }

    /**
     * Reads the given blocks of the file, 8 at a time, checks them, and
     * writes each back with other bytes, which the model records.
     */
    static void useChannel(AsynchronousFileChannel ch, byte[] content, int first, int count, int seed)
        throws Exception
    {
        Random r = new Random(seed * 1000L + first);
        for (int base = first; base < first + count; base += 8) {
            List<IoUringAsyncChannels.Outcome<Integer>> reads = new ArrayList<>();
            List<ByteBuffer> buffers = new ArrayList<>();
            for (int b = base; b < base + 8; b++) {
                ByteBuffer bb = IoUringAsyncChannels.buffer(r.nextBoolean(), BLOCK);
                IoUringAsyncChannels.Outcome<Integer> o = new IoUringAsyncChannels.Outcome<>(ch);
                ch.read(bb, (long) b * BLOCK, null, o);
                reads.add(o);
                buffers.add(bb);
            }
            List<IoUringAsyncChannels.Outcome<Integer>> writes = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                int position = (base + i) * BLOCK;
                ByteBuffer bb = buffers.get(i);
                IoUringAsyncChannels.checkRead(reads.get(i).get(), BLOCK, bb, content, position);
                byte[] next = new byte[BLOCK];
                r.nextBytes(next);
                bb.clear().put(0, next);
                System.arraycopy(next, 0, content, position, BLOCK);
                IoUringAsyncChannels.Outcome<Integer> o = new IoUringAsyncChannels.Outcome<>(ch);
                ch.write(bb, position, null, o);
                writes.add(o);
            }
            for (IoUringAsyncChannels.Outcome<Integer> o : writes) {
                if (o.get() != BLOCK)
                    throw new RuntimeException("short write");
            }
        }
    }

    /**
     * 64 chains of reads at random positions of the cold file, each read
     * started by the handler of the one before, 20,000 reads in all, each
     * checked; with the default executor or a pool of 4 threads.
     */
    static void chains(Path file, byte[] data, boolean pool) throws Exception {
        IoUringRings.evict(file);
        ExecutorService executor = pool ? Executors.newFixedThreadPool(4) : null;
        int total = 20_000;
        AtomicInteger started = new AtomicInteger();
        AtomicInteger completed = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(64);
        long start = System.nanoTime();
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, Set.of(READ), executor)) {
            IoUringAsyncChannels.checkImplementation(ch);
            for (int c = 0; c < 64; c++) {
                Random r = new Random(RAND.nextLong());
                ByteBuffer bb = IoUringAsyncChannels.buffer(c % 2 == 0, BLOCK);
                CompletionHandler<Integer, Long> handler = new CompletionHandler<Integer, Long>() {
                    @Override
                    public void completed(Integer n, Long position) {
                        byte[] b = new byte[BLOCK];
                        bb.get(0, b);
                        int p = (int) (long) position;
                        if (n != BLOCK || !Arrays.equals(b, 0, BLOCK, data, p, p + BLOCK)) {
                            failed(new RuntimeException("read " + n + " at " + p + ", bytes "
                                    + (n == BLOCK ? "wrong" : "?")), position);
                            return;
                        }
                        completed.incrementAndGet();
                        next(this);
                    }
                    @Override
                    public void failed(Throwable e, Long position) {
                        failure.compareAndSet(null, e);
                        done.countDown();
                    }
                    void next(CompletionHandler<Integer, Long> self) {
                        if (started.getAndIncrement() >= total) {
                            done.countDown();
                            return;
                        }
                        long position = (long) r.nextInt(FILE_SIZE / BLOCK) * BLOCK;
                        ch.read(bb.clear(), position, position, self);
                    }
                };
                if (started.getAndIncrement() < total) {
                    long position = (long) r.nextInt(FILE_SIZE / BLOCK) * BLOCK;
                    ch.read(bb, position, position, handler);
                } else {
                    done.countDown();
                }
            }
            if (!done.await(IoUringAsyncChannels.TIMEOUT_SECONDS, TimeUnit.SECONDS))
                throw new RuntimeException("chains not done: " + completed.get() + " reads completed");
        }
        if (failure.get() != null)
            throw new RuntimeException(failure.get());
        if (completed.get() != total)
            throw new RuntimeException(completed.get() + " reads completed, expected " + total);
        if (executor != null)
            executor.shutdown();
        System.out.println("64 chains, " + (pool ? "pool of 4" : "default executor") + ": "
                + total + " reads in " + (System.nanoTime() - start) / 1_000_000 + " ms");
    }
}

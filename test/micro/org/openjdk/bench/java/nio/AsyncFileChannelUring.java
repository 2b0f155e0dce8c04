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
package org.openjdk.bench.java.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import com.sun.nio.file.ExtendedOpenOption;
import static java.nio.file.StandardOpenOption.*;

import org.openjdk.jmh.annotations.*;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Random 4 KiB reads or writes through an AsynchronousFileChannel, {@code qd}
 * of them outstanding at all times, each issued by the CompletionHandler of
 * the one before it, as Vert.x's AsyncFile or Spring's DataBufferUtils drive
 * the channel. The channel has the default executor or, with
 * {@code -p executor=fixed4}, a fixed pool of 4 threads (an application's
 * worker pool), or with {@code -p executor=virtual}, a virtual thread per
 * task executor (of a class that the JDK's channel does not know). Reads
 * are of a file of {@code fileSize} bytes (default 2 GiB, created once in
 * {@code /var/tmp}), evicted from the page cache
 * before each iteration (posix_fadvise DONTNEED through
 * {@code dd iflag=nocache count=0}), or with {@code -p cache=hot} read into
 * it (what reads cost without a device); writes go to a file of the same size
 * beside it, written back and evicted before each iteration. With
 * {@code -p direct=true} the file is opened with O_DIRECT.
 *
 * <p> {@code ops} keeps the operations going from the iteration's setup to
 * its teardown; an invocation waits until {@code BATCH} more have completed.
 * {@code latency} issues one operation and waits for its handler (QD1, run it
 * with {@code -bm sample}). Each iteration prints the process CPU time per
 * operation ("process CPU per op (ns)") and the peak number of live OS
 * threads of the VM ("peak OS threads"), as FileChannelUring does, whose
 * helpers it uses. The channel is io_uring's on the
 * patched JDK, and upstream's with {@code -jvmArgsAppend
 * -Djdk.nio.file.ioUring=never} or on the baseline JDK.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 1, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 4, time = 2, timeUnit = TimeUnit.SECONDS)
public class AsyncFileChannelUring {
    static final int BATCH = 1024;
    static final int BLOCK = 4096;

    @Param({"1", "8", "64", "256"})
    public int qd;

    @Param({"default", "fixed4"})
    public String executor;

    @Param({"false", "true"})
    public boolean direct;           // O_DIRECT

    @Param({"read", "write"})
    public String op;

    @Param({"direct"})
    public String buffer;            // heap | direct

    @Param({"cold"})
    public String cache;             // cold | hot (reads)

    @Param({"2147483648"})
    public long fileSize;

    @Param({"/var/tmp/nio-uring-bench.dat"})
    public String file;

    private Path path;
    private ExecutorService pool;
    private AsynchronousFileChannel ch;
    private boolean write;
    private long blocks;
    private volatile boolean stop;
    private final AtomicLong completed = new AtomicLong();
    private final AtomicInteger outstanding = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private long waitedFor;
    private volatile long target;       // the count that completes ops' batch
    private volatile Thread worker;     // the thread in ops
    private long iterationOps;
    private long cpuStart;
    private volatile int peakThreads;
    private Thread sampler;
    private SplittableRandom latencyRandom;
    private ByteBuffer latencyBuffer;

    @Setup(Level.Trial)
    public void createFile() throws IOException {
        write = op.equals("write");
        path = Path.of(write ? file + ".aw" : file);
        if (Files.exists(path) && Files.size(path) == fileSize)
            return;
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        SplittableRandom r = new SplittableRandom(42);
        try (FileChannel out = FileChannel.open(path, CREATE, WRITE, TRUNCATE_EXISTING)) {
            long pos = 0;
            while (pos < fileSize) {
                chunk.clear();
                while (chunk.hasRemaining())
                    chunk.putLong(r.nextLong());
                chunk.flip().limit((int) Math.min(chunk.limit(), fileSize - pos));
                while (chunk.hasRemaining())
                    pos += out.write(chunk, pos);
            }
        }
    }

    @Setup(Level.Iteration)
    public void open(BenchmarkParams params) throws Exception {
        if (write) {
            // what earlier iterations left dirty is written back first
            try (FileChannel fc = FileChannel.open(path, WRITE)) {
                fc.force(false);
            }
        }
        if (!write && cache.equals("hot")) {
            FileChannelUring.warm(path);
        } else {
            FileChannelUring.evict(path);
        }
        Set<OpenOption> options = new HashSet<>();
        options.add(write ? WRITE : READ);
        if (direct)
            options.add(ExtendedOpenOption.DIRECT);
        pool = switch (executor) {
            case "fixed4" -> Executors.newFixedThreadPool(4);
            case "virtual" -> Executors.newVirtualThreadPerTaskExecutor();
            default -> null;
        };
        ch = AsynchronousFileChannel.open(path, options, pool);
        blocks = fileSize / BLOCK;
        stop = false;
        completed.set(0);
        waitedFor = 0;
        iterationOps = 0;
        failure.set(null);
        peakThreads = 0;
        cpuStart = FileChannelUring.processCpuNanos();
        sampler = Thread.ofPlatform().daemon().start(() -> {
            while (!stop) {
                peakThreads = Math.max(peakThreads, FileChannelUring.liveOsThreads());
                LockSupport.parkNanos(10_000_000L);
            }
        });
        if (params.getBenchmark().endsWith(".latency")) {
            latencyRandom = new SplittableRandom(11);
            latencyBuffer = newBuffer();
        } else {
            for (int i = 0; i < qd; i++)
                new Chain(new SplittableRandom(i * 31L + 7)).next();
        }
    }

    @TearDown(Level.Iteration)
    public void close() throws Exception {
        long cpu = FileChannelUring.processCpuNanos() - cpuStart;
        stop = true;
        while (outstanding.get() > 0)
            LockSupport.parkNanos(100_000);
        sampler.join();
        ch.close();
        if (pool != null) {
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
        if (iterationOps > 0)
            System.out.println("process CPU per op (ns): " + cpu / iterationOps);
        System.out.println("peak OS threads: " + peakThreads);
        Throwable e = failure.get();
        if (e != null)
            throw new RuntimeException(e);
    }

    /**
     * A sequence of operations at random positions, each started by the
     * handler of the one before it, until the iteration stops.
     */
    private final class Chain implements CompletionHandler<Integer, Void> {
        private final SplittableRandom random;
        private final ByteBuffer bb = newBuffer();

        Chain(SplittableRandom random) {
            this.random = random;
        }

        void next() {
            outstanding.incrementAndGet();
            start(bb, random, null, this);
        }

        @Override
        public void completed(Integer n, Void unused) {
            if (n != BLOCK)
                failure.compareAndSet(null, new IOException("transferred " + n));
            if (completed.incrementAndGet() == target)
                LockSupport.unpark(worker);
            outstanding.decrementAndGet();
            if (!stop)
                next();
        }

        @Override
        public void failed(Throwable e, Void unused) {
            failure.compareAndSet(null, e);
            outstanding.decrementAndGet();
        }
    }

    private <A> void start(ByteBuffer bb, SplittableRandom r, A attachment,
                           CompletionHandler<Integer, ? super A> handler) {
        long position = r.nextLong(blocks) * BLOCK;
        bb.clear();
        if (write) {
            ch.write(bb, position, attachment, handler);
        } else {
            ch.read(bb, position, attachment, handler);
        }
    }

    private ByteBuffer newBuffer() {
        // O_DIRECT wants the memory aligned too
        return buffer.equals("heap")
                ? ByteBuffer.allocate(BLOCK)
                : ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK).limit(BLOCK).slice();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void ops() throws Exception {
        waitedFor += BATCH;
        worker = Thread.currentThread();
        target = waitedFor;
        // woken by the handler that completes the batch: the harness takes
        // no CPU from the threads it measures (fio, its control, has none)
        while (completed.get() < waitedFor) {
            if (failure.get() != null)
                throw new RuntimeException(failure.get());
            LockSupport.parkNanos(10_000_000L);
        }
        iterationOps += BATCH;
    }

    // completes the CompletableFuture given as attachment
    private static final CompletionHandler<Integer, CompletableFuture<Integer>> TO_FUTURE =
        new CompletionHandler<>() {
            @Override
            public void completed(Integer n, CompletableFuture<Integer> f) {
                f.complete(n);
            }
            @Override
            public void failed(Throwable e, CompletableFuture<Integer> f) {
                f.completeExceptionally(e);
            }
        };

    @Benchmark
    public int latency() throws InterruptedException, ExecutionException {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        start(latencyBuffer, latencyRandom, done, TO_FUTURE);
        int n = done.get();
        iterationOps++;
        return n;
    }
}

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
 * @summary AsynchronousFileChannel completion handlers and executors: where the handler
 *          runs (a thread of the channel's pool, never an io_uring reaper, also with an
 *          executor that runs tasks in the caller), an executor shut down before the call
 *          (RejectedExecutionException, ShutdownChannelGroupException, as upstream), shut
 *          down with operations in flight (every handler still runs), shut down now,
 *          rejecting some tasks, blocking in execute while a handler waits for another
 *          channel's read, or dropping the tasks it has no room for (DiscardPolicy and
 *          DiscardOldestPolicy, a subclass of ThreadPoolExecutor, whose execute the JDK
 *          cannot know, a rejection handler of the application's; reads started once it
 *          has room complete), and a virtual thread per task executor
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=600 IoUringAsyncExecutor
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=600 -Djdk.nio.file.ioUring=never IoUringAsyncExecutor
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=600 -Djdk.internal.nio.ioUring.mode=always -Djdk.internal.nio.ioUring.rings=1
 *      IoUringAsyncExecutor
 */

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.ShutdownChannelGroupException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;

public class IoUringAsyncExecutor {
    static final Random RAND = RandomFactory.getRandom();
    static final int BLOCK = 4096;
    static final int FILE_SIZE = 32 << 20;

    static byte[] data;
    static Path file;

    public static void main(String[] args) throws Exception {
        data = IoUringAsyncChannels.randomBytes(RAND, FILE_SIZE);
        file = IoUringAsyncChannels.createFile("executor", data);
        try {
            handlerThreads();
            shutDownBefore();
            shutDownInFlight(false);
            shutDownInFlight(true);
            callerRuns();
            rejecting();
            blockingExecute();
            discarding("DiscardPolicy", new ThreadPoolExecutor.DiscardPolicy(), false);
            discarding("DiscardOldestPolicy", new ThreadPoolExecutor.DiscardOldestPolicy(), false);
            discarding("DiscardPolicy, subclass", new ThreadPoolExecutor.DiscardPolicy(), true);
            discarding("a handler that drops", (r, executor) -> { }, false);
            virtualThreadPerTask();
        } finally {
            Files.delete(file);
        }
        System.out.println("passed");
    }

    /** A pool of the given size whose threads are named prefix-N. */
    static ExecutorService pool(int n, String prefix) {
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, prefix + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        return Executors.newFixedThreadPool(n, factory);
    }

    static long randomBlock() {
        return (long) RAND.nextInt(FILE_SIZE / BLOCK) * BLOCK;
    }

    /** Checks a completed read of a block at the position. */
    static void checkRead(int n, ByteBuffer bb, long position) {
        IoUringAsyncChannels.checkRead(n, BLOCK, bb, data, position);
    }

    static void checkThread(Thread t, String what) {
        if (t.getName().startsWith("IoUring-Reaper"))
            throw new RuntimeException(what + ": handler ran on " + t);
    }

    /**
     * The handler runs on a thread of the channel's pool, or of the default
     * executor (a daemon thread, not the initiating thread); never on a
     * reaper.
     */
    static void handlerThreads() throws Exception {
        ExecutorService pool = pool(3, "handlers");
        for (ExecutorService executor : new ExecutorService[] { pool, null }) {
            try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, Set.of(READ), executor)) {
                IoUringAsyncChannels.checkImplementation(ch);
                for (boolean virtual : new boolean[] { false, true }) {
                    for (int i = 0; i < 50; i++) {
                        boolean heap = (i % 2 == 0);
                        IoUringAsyncChannels.BlockRead[] read = new IoUringAsyncChannels.BlockRead[1];
                        Thread initiator = IoUringAsyncChannels.inThread(virtual, () -> {
                            read[0] = new IoUringAsyncChannels.BlockRead(ch, heap, randomBlock(), BLOCK);
                            return Thread.currentThread();
                        });
                        read[0].check(data);
                        Thread t = read[0].outcome.thread();
                        checkThread(t, "handler thread");
                        if (executor != null && !t.getName().startsWith("handlers-"))
                            throw new RuntimeException("handler ran on " + t + ", not the pool");
                        if (executor == null && (t == initiator || !t.isDaemon() || t.isVirtual()))
                            throw new RuntimeException("handler ran on " + t);
                    }
                }
            }
        }
        pool.shutdown();
        System.out.println("handler threads: as expected");
    }

    /**
     * An executor shut down before the call: upstream's channel submits a
     * task for the operation, which is rejected, and the call throws
     * RejectedExecutionException; a handler for a result known at once
     * (nothing to read, a closed channel) is invoked through the executor,
     * and ShutdownChannelGroupException is thrown.
     */
    static void shutDownBefore() throws Exception {
        ExecutorService pool = pool(2, "shutdown");
        AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, Set.of(READ, WRITE), pool);
        IoUringAsyncChannels.checkImplementation(ch);
        pool.shutdown();
        IoUringAsyncChannels.Outcome<Integer> o = new IoUringAsyncChannels.Outcome<>(ch);
        for (ByteBuffer bb : new ByteBuffer[] { ByteBuffer.allocate(BLOCK), ByteBuffer.allocateDirect(BLOCK) }) {
            expect(RejectedExecutionException.class, "read (handler), executor shut down",
                   () -> ch.read(bb, 0, null, o));
            expect(RejectedExecutionException.class, "read (Future), executor shut down",
                   () -> ch.read(bb, 0));
            expect(RejectedExecutionException.class, "write (handler), executor shut down",
                   () -> ch.write(bb, FILE_SIZE, null, o));
            expect(RejectedExecutionException.class, "write (Future), executor shut down",
                   () -> ch.write(bb, FILE_SIZE));
        }
        ByteBuffer full = ByteBuffer.allocate(0);
        expect(ShutdownChannelGroupException.class, "read of nothing (handler), executor shut down",
               () -> ch.read(full, 0, null, o));
        int n = IoUringAsyncChannels.get(ch.read(full, 0));
        if (n != 0)
            throw new RuntimeException("read of nothing returned " + n);
        ch.close();
        expect(ShutdownChannelGroupException.class,
               "read of a closed channel (handler), executor shut down",
               () -> ch.read(ByteBuffer.allocate(10), 0, null, o));
        Thread.sleep(100);
        if (o.calls() != 0)
            throw new RuntimeException("a handler was invoked");
        if (Files.size(file) != FILE_SIZE)
            throw new RuntimeException("a rejected write was done");
    }

    /**
     * The executor is shut down (or shut down now) while 256 reads of a cold
     * file are in flight. shutdown: every handler runs, with its bytes, as
     * upstream's tasks accepted before shutdown run. shutdownNow: the tasks
     * that have not started are dropped (upstream's, and io_uring's task that
     * was to complete operations already done), so only no handler runs
     * twice, every one that runs has its bytes, and close returns.
     */
    static void shutDownInFlight(boolean now) throws Exception {
        IoUringRings.evict(file);
        ExecutorService pool = pool(2, "inflight");
        AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, Set.of(READ), pool);
        IoUringAsyncChannels.checkImplementation(ch);
        List<IoUringAsyncChannels.BlockRead> reads = new ArrayList<>();
        for (int i = 0; i < 256; i++)
            reads.add(new IoUringAsyncChannels.BlockRead(ch, i % 2 == 0, randomBlock(), BLOCK));
        if (now) {
            pool.shutdownNow();
        } else {
            pool.shutdown();
        }
        int ran = 0;
        if (!now) {
            // every handler runs: with io_uring, also those whose task the executor rejected
            for (IoUringAsyncChannels.BlockRead read : reads) {
                read.check(data);
                checkThread(read.outcome.thread(), "executor shut down");
                ran++;
            }
        } else {
            Thread.sleep(1000);
            for (IoUringAsyncChannels.BlockRead read : reads) {
                if (read.outcome.calls() > 1)
                    throw new RuntimeException("a handler ran " + read.outcome.calls() + " times");
                if (read.outcome.isDone()) {
                    read.check(data);
                    ran++;
                }
            }
        }
        ch.close();
        System.out.println((now ? "shutdownNow" : "shutdown") + " with 256 reads in flight: "
                           + ran + " handlers ran");
    }

    /**
     * An executor that runs each task in the thread that submits it: the
     * handler runs, never on a reaper.
     */
    static void callerRuns() throws Exception {
        ExecutorService direct = new Forwarding(Runnable::run, Executors.newSingleThreadExecutor());
        IoUringRings.evict(file);
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, Set.of(READ), direct)) {
            IoUringAsyncChannels.checkImplementation(ch);
            for (int i = 0; i < 100; i++) {
                var read = new IoUringAsyncChannels.BlockRead(ch, i % 2 == 0, randomBlock(), BLOCK);
                read.check(data);
                checkThread(read.outcome.thread(), "caller-runs executor");
            }
        }
        direct.shutdown();
        System.out.println("caller-runs executor: handlers ran, not on a reaper");
    }

    /**
     * An executor that rejects every other task without being shut down:
     * upstream's read throws RejectedExecutionException when its task is
     * rejected; io_uring's needs the executor only for the completion, and
     * the default executor runs what it rejects. So for each read, either the
     * call throws and the handler never runs, or the handler runs once.
     */
    static void rejecting() throws Exception {
        ExecutorService pool = pool(2, "rejecting");
        AtomicInteger count = new AtomicInteger();
        ExecutorService rejecting = new Forwarding(r -> {
            if (count.incrementAndGet() % 2 == 0)
                throw new RejectedExecutionException("every other task");
            pool.execute(r);
        }, pool);
        int threw = 0, ran = 0;
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, Set.of(READ), rejecting)) {
            IoUringAsyncChannels.checkImplementation(ch);
            for (int i = 0; i < 100; i++) {
                ByteBuffer bb = IoUringAsyncChannels.buffer(i % 2 == 0, BLOCK);
                long position = randomBlock();
                IoUringAsyncChannels.Outcome<Integer> o = new IoUringAsyncChannels.Outcome<>(ch);
                try {
                    ch.read(bb, position, null, o);
                } catch (RejectedExecutionException e) {
                    threw++;
                    Thread.sleep(10);
                    if (o.calls() != 0)
                        throw new RuntimeException("read threw " + e + " and its handler ran");
                    continue;
                }
                checkRead(o.get(), bb, position);
                checkThread(o.thread(), "rejecting executor");
                ran++;
            }
        }
        pool.shutdown();
        System.out.println("rejecting executor: " + threw + " reads threw, " + ran + " handlers ran");
    }

    /**
     * An executor whose execute waits while one of its tasks runs, and a
     * handler of it that waits for a read of another channel: upstream's
     * initiating thread waits in execute, and the handler's read completes.
     * The read started while the handler runs completes once it returns.
     * The reads go through a ring in the always run only (in auto, a
     * channel's only outstanding read is done as upstream's), which has one
     * ring, so that both channels share it.
     */
    static void blockingExecute() throws Exception {
        ExecutorService pool = pool(1, "blocking");
        Semaphore permit = new Semaphore(1);
        ExecutorService blocking = new Forwarding(r -> {
            permit.acquireUninterruptibly();
            pool.execute(() -> {
                try {
                    r.run();
                } finally {
                    permit.release();
                }
            });
        }, pool);
        Files.readAllBytes(file);
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, Set.of(READ), blocking);
             AsynchronousFileChannel other = AsynchronousFileChannel.open(file, READ)) {
            IoUringAsyncChannels.checkImplementation(ch);
            CountDownLatch handlerStarted = new CountDownLatch(1);
            CountDownLatch secondStarting = new CountDownLatch(1);
            long otherPosition = randomBlock();
            ByteBuffer otherBuffer = ByteBuffer.allocate(BLOCK);
            CompletableFuture<Integer> otherRead = new CompletableFuture<>();
            ByteBuffer first = ByteBuffer.allocate(BLOCK);
            ch.read(first, 0, null, new CompletionHandler<Integer, Void>() {
                @Override
                public void completed(Integer n, Void v) {
                    handlerStarted.countDown();
                    try {
                        // the second read (cached) completes meanwhile, and its
                        // hand-off waits in execute until this handler returns
                        secondStarting.await();
                        Thread.sleep(200);
                        otherRead.complete(other.read(otherBuffer, otherPosition)
                                .get(IoUringAsyncChannels.TIMEOUT_SECONDS, TimeUnit.SECONDS));
                    } catch (Throwable e) {
                        otherRead.completeExceptionally(e);
                    }
                }

                @Override
                public void failed(Throwable e, Void v) {
                    otherRead.completeExceptionally(e);
                }
            });
            handlerStarted.await();
            long position = randomBlock();
            ByteBuffer second = ByteBuffer.allocate(BLOCK);
            IoUringAsyncChannels.Outcome<Integer> o = new IoUringAsyncChannels.Outcome<>(ch);
            // upstream's read waits here for the permit, so another thread starts it
            Thread starter = Thread.ofPlatform().start(() -> {
                secondStarting.countDown();
                ch.read(second, position, null, o);
            });
            checkRead(otherRead.get(), otherBuffer, otherPosition);
            checkRead(o.get(), second, position);
            starter.join();
        }
        pool.shutdown();
        System.out.println("executor blocking in execute: another channel's read completed");
    }

    /**
     * A pool of one thread and a queue of one task that drops what it has no
     * room for. While its thread is held and its queue full, reads are
     * started whose tasks it drops (upstream's task, or the hand-off of a
     * completion): their handlers may never run. Once it has room again,
     * each read started then completes, as upstream's does. With subclass,
     * the pool is of a class that the JDK does not know, whose execute
     * could do anything; the policy may be the application's own.
     */
    static void discarding(String name, RejectedExecutionHandler policy, boolean subclass)
            throws Exception
    {
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
        ThreadPoolExecutor pool = subclass
                ? new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
                        new ArrayBlockingQueue<>(1), factory, policy) { }
                : new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
                        new ArrayBlockingQueue<>(1), factory, policy);
        Files.readAllBytes(file);
        int ran = 0;
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, Set.of(READ), pool)) {
            IoUringAsyncChannels.checkImplementation(ch);
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            pool.execute(() -> {
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
            });
            held.await();
            pool.execute(() -> { });
            List<IoUringAsyncChannels.Outcome<Integer>> dropped = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                IoUringAsyncChannels.Outcome<Integer> o = new IoUringAsyncChannels.Outcome<>(ch);
                ch.read(ByteBuffer.allocate(BLOCK), randomBlock(), null, o);
                dropped.add(o);
            }
            // the reads of cached data complete, and their tasks are dropped
            Thread.sleep(500);
            release.countDown();
            // what the queue kept runs, and then one read at a time has room
            while (pool.getActiveCount() > 0 || !pool.getQueue().isEmpty())
                Thread.sleep(10);
            for (int i = 0; i < 32; i++) {
                var read = new IoUringAsyncChannels.BlockRead(ch, i % 2 == 0, randomBlock(), BLOCK);
                read.check(data);
            }
            for (IoUringAsyncChannels.Outcome<Integer> o : dropped) {
                if (o.calls() > 1)
                    throw new RuntimeException(name + ": handler invoked " + o.calls() + " times");
                ran += o.calls();
            }
        }
        pool.shutdown();
        System.out.println(name + ": reads completed once the pool had room; " + ran
                           + " of 8 started while it had none did");
    }

    /**
     * An ExecutorService whose execute does what it is given, and whose
     * life cycle is that of another.
     */
    static final class Forwarding extends AbstractExecutorService {
        private final Consumer<Runnable> execute;
        private final ExecutorService lifeCycle;

        Forwarding(Consumer<Runnable> execute, ExecutorService lifeCycle) {
            this.execute = execute;
            this.lifeCycle = lifeCycle;
        }

        @Override
        public void execute(Runnable task) {
            execute.accept(task);
        }

        @Override
        public void shutdown() {
            lifeCycle.shutdown();
        }

        @Override
        public List<Runnable> shutdownNow() {
            return lifeCycle.shutdownNow();
        }

        @Override
        public boolean isShutdown() {
            return lifeCycle.isShutdown();
        }

        @Override
        public boolean isTerminated() {
            return lifeCycle.isTerminated();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
            return lifeCycle.awaitTermination(timeout, unit);
        }
    }

    /** Handlers on virtual threads: a chain of reads, each started by the handler before. */
    static void virtualThreadPerTask() throws Exception {
        try (ExecutorService vts = Executors.newVirtualThreadPerTaskExecutor();
             AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, Set.of(READ), vts)) {
            IoUringAsyncChannels.checkImplementation(ch);
            for (int i = 0; i < 200; i++) {
                var read = new IoUringAsyncChannels.BlockRead(ch, i % 2 == 0, randomBlock(), BLOCK);
                read.check(data);
                if (!read.outcome.thread().isVirtual())
                    throw new RuntimeException("handler ran on " + read.outcome.thread());
            }
        }
        System.out.println("virtual thread per task executor: handlers on virtual threads");
    }

    static void expect(Class<? extends Throwable> expected, String what, Runnable action) {
        IoUringAsyncChannels.expect(expected, what, action);
    }
}

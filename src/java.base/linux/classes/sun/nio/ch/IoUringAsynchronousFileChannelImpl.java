/*
 * Copyright (c) 2026, nio-uring contributors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  Oracle designates this
 * particular file as subject to the "Classpath" exception as provided
 * by Oracle in the LICENSE file that accompanied this code.
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

package sun.nio.ch;

import java.io.FileDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import jdk.internal.access.JavaIOFileDescriptorAccess;
import jdk.internal.access.SharedSecrets;
import jdk.internal.misc.Unsafe;

/**
 * An AsynchronousFileChannel whose reads and writes are io_uring operations
 * on the shared rings of {@link IoUring}: queued by the initiating thread,
 * which does not wait for them, submitted by the ring's reaper, and completed
 * without a thread blocked per operation. The ring's reaper hands each
 * completion to the channel's executor, where the buffers
 * are updated and released and the Future is completed or the handler
 * invoked, as SimpleAsynchronousFileChannelImpl does in the task
 * that does its I/O. A
 * task on the executor completes the operations that are there one after
 * another, and starts another such task before it invokes a handler if more
 * wait: so a handler that blocks delays no other, while a few threads keep
 * up with completions that arrive faster than a thread could be woken for
 * each. A read of a file not opened with O_DIRECT first takes, in the
 * initiating thread, what the page cache has, with preadv2(RWF_NOWAIT), which
 * does not wait for data that is not there (it starts reading it, and waits
 * only for room in the device's queue): a read of cached data then completes
 * on the executor without the ring; any other goes to the ring whole. While
 * sixteen or more operations are in the kernel on the initiating thread's
 * ring, a read goes to the ring without that probe: most reads then wait for
 * the device, whose queue is full, and the ring reads what is cached during
 * the submission.
 * When JFR's {@code jdk.FileDispatch} event is enabled, an operation that the
 * page cache or a ring completes is recorded with the route {@code page cache}
 * or {@code io_uring}, from its start to its completion on the executor; any
 * other is done with pread/pwrite by FileDispatcherImpl, which records it.
 *
 * <p> Everything else is the superclass's: this class extends
 * SimpleAsynchronousFileChannelImpl, whose lock, tryLock, size, truncate and
 * force it keeps, and whose read and write it calls for whatever needs no
 * ring (argument checks, a closed channel, an empty buffer, a shut down
 * executor), cannot have one (the ring of the initiating thread is dead) or
 * is done sooner without one: a buffered write, and, unless
 * the mode is {@code always}, the only operation outstanding on
 * the channel (see transfer). An operation that the ring does not do (the
 * kernel cancelled it, or returned EAGAIN or EINTR) is done with
 * pread/pwrite in the executor task.
 *
 * <p> Close marks the channel closed, as the superclass's does, so that no
 * operation is submitted after it, then waits until the kernel has completed
 * every operation in flight, so that no buffer is released and the file
 * descriptor is not closed while the kernel may still use them; then it goes
 * on as the superclass's close. Reads and writes on a regular file or a block
 * device complete in the time the device takes, so close does not wait
 * longer than that. An operation that the kernel completed with a count
 * reports it, as the superclass's operation that was in pread/pwrite when close
 * was invoked; one that fails, or reads end of file, once the channel is
 * closed fails with AsynchronousCloseException, as the superclass's.
 *
 * <p> No code of the application runs on a ring's reaper: the reaper queues
 * a completed operation for the channel and, unless a runner will take it,
 * starts one on the default executor's thread, which gives it to the
 * channel's executor (for the default executor, it is the runner).
 */
final class IoUringAsynchronousFileChannelImpl extends SimpleAsynchronousFileChannelImpl {
    private static final JavaIOFileDescriptorAccess FD_ACCESS =
            SharedSecrets.getJavaIOFileDescriptorAccess();

    // for the operations a ring does not do
    private static final FileDispatcher nd = new FileDispatcherImpl();

    // the most one read(2) or pread(2) transfers: Linux MAX_RW_COUNT
    private static final int MAX_RW_COUNT =
            Integer.MAX_VALUE & ~(Unsafe.getUnsafe().pageSize() - 1);

    // the executor of channels opened without one, as the superclass has
    // its own; it also runs the completions that a channel's executor rejects
    private static class DefaultExecutorHolder {
        static final ExecutorService defaultExecutor =
            ThreadPool.createDefault().executor();
    }


    // while this many operations are in the kernel on the ring, a read skips
    // the page cache probe, which would wait for room in the device's queue
    private static final int DEEP = 16;

    // set while a thread submits a runner to a channel's executor
    private static final ThreadLocal<Boolean> STARTING = new ThreadLocal<>();

    private final int fd;

    // writes wait for the device (O_DIRECT, O_SYNC, O_DSYNC), so that the
    // ring does them sooner than a thread blocked in pwrite; a buffered
    // write only copies to the page cache, which pwrite does at once
    private final boolean ringWrites;

    // every read and write through the ring (the always mode)
    private final boolean always;

    // a read first takes what the page cache has (a buffered file, not always)
    private final boolean readsCached;

    // reads and writes that could take the ring, started and not completed
    private final AtomicInteger outstanding = new AtomicInteger();

    // operations submitted to a ring whose completion has not arrived
    private final AtomicInteger inFlight = new AtomicInteger();

    // the thread that closes the channel, set before it waits for the
    // operations in flight
    private volatile Thread closer;

    // operations whose completion has arrived, waiting for a runner: a task
    // on the executor that completes them one after another (see runner)
    private final ConcurrentLinkedQueue<Operation<?>> completed = new ConcurrentLinkedQueue<>();

    // runners that will take another operation from completed: submitted,
    // or between two operations
    private final AtomicInteger takers = new AtomicInteger();

    private final Runnable runner = this::runCompleted;

    // submits a runner from a thread of the default executor (see handOff)
    private final Runnable runnerSubmitter = this::submitRunner;

    // true if the executor may drop a task it cannot take without a word: a
    // ThreadPoolExecutor, of any class, that rejects with a policy other
    // than AbortPolicy or CallerRunsPolicy (DiscardPolicy, say). Each
    // operation is then a task of its own, as with the superclass, so
    // that a dropped task loses its own operation, not a runner that all
    // the channel's later operations would wait for
    private final boolean discards;

    private IoUringAsynchronousFileChannelImpl(FileDescriptor fdObj,
                                               String path,
                                               boolean reading,
                                               boolean writing,
                                               boolean direct,
                                               boolean sync,
                                               boolean always,
                                               ExecutorService executor)
    {
        super(fdObj, path, reading, writing, executor);
        this.fd = FD_ACCESS.get(fdObj);
        this.ringWrites = direct || sync || always;
        this.always = always;
        this.readsCached = !direct && !always;
        this.discards = executor instanceof ThreadPoolExecutor tpe
                && policy(tpe) != ThreadPoolExecutor.AbortPolicy.class
                && policy(tpe) != ThreadPoolExecutor.CallerRunsPolicy.class;
    }

    private static Class<?> policy(ThreadPoolExecutor executor) {
        return executor.getRejectedExecutionHandler().getClass();
    }

    /**
     * Returns a channel for the given file descriptor, of a regular file or a
     * block device opened with O_DIRECT if direct is true and with O_SYNC or
     * O_DSYNC if sync is, with the given thread pool or, if null, the default
     * executor; with always, every read and write goes through the ring.
     */
    static AsynchronousFileChannel create(FileDescriptor fdo,
                                          String path,
                                          boolean reading,
                                          boolean writing,
                                          boolean direct,
                                          boolean sync,
                                          boolean always,
                                          ThreadPool pool)
    {
        ExecutorService executor = (pool == null) ?
            DefaultExecutorHolder.defaultExecutor : pool.executor();
        return new IoUringAsynchronousFileChannelImpl(fdo, path, reading, writing, direct,
                                                      sync, always, executor);
    }

    /**
     * Called by close once the channel is marked closed, so that no operation
     * is submitted after this (see submit): waits, uninterruptibly, for the
     * completions of the operations in flight, as the kernel uses their
     * buffers and the file.
     */
    @Override
    void awaitOperations() {
        closer = Thread.currentThread();
        boolean interrupted = false;
        while (inFlight.get() > 0) {
            LockSupport.park(this);
            if (Thread.interrupted())
                interrupted = true;
        }
        if (interrupted)
            Thread.currentThread().interrupt();
        // what a hand-off that could not start a runner left queued
        takeQueued();
    }

    @Override
    <A> Future<Integer> implRead(ByteBuffer dst, long position, A attachment,
                                 CompletionHandler<Integer,? super A> handler) {
        return transfer(false, dst, position, attachment, handler);
    }

    @Override
    <A> Future<Integer> implWrite(ByteBuffer src, long position, A attachment,
                                  CompletionHandler<Integer,? super A> handler) {
        return transfer(true, src, position, attachment, handler);
    }

    /**
     * Reads or writes through the ring of the current thread or, if there is
     * none, the superclass's code is to take the call, or the ring would not do
     * it sooner than the superclass. The ring does not do a buffered write sooner,
     * nor, in auto, the only operation of the channel: the superclass's task blocks
     * one thread of the executor in pread/pwrite, and invokes the handler
     * there, where an operation through the ring wakes the reaper to submit
     * it, then again with its completion, then a thread of the executor.
     */
    private <A> Future<Integer> transfer(boolean write, ByteBuffer bb, long position,
                                         A attachment,
                                         CompletionHandler<Integer,? super A> handler) {
        // what a hand-off that could not start a runner left queued
        takeQueued();
        IoUring ring = ringFor(write, bb, position);
        if (ring == null || (write && !ringWrites)) {
            return pooled(write, bb, position, attachment, handler);
        }
        if (outstanding.getAndIncrement() == 0 && !always) {
            return counted(write, bb, position, attachment, handler);
        }
        return submit(ring, write, bb, position, attachment, handler);
    }

    /**
     * Reads or writes as the superclass does, as an operation that counts
     * as outstanding until it completes.
     */
    private <A> Future<Integer> counted(boolean write, ByteBuffer bb, long position,
                                        A attachment,
                                        CompletionHandler<Integer,? super A> handler) {
        PendingFuture<Integer,A> future = (handler == null) ? new PendingFuture<>(this) : null;
        try {
            pooled(write, bb, position, attachment, new Counted<>(handler, future));
        } catch (Throwable e) {
            outstanding.decrementAndGet();
            throw e;
        }
        return future;
    }

    /**
     * The handler of an operation done as the superclass does by counted: the
     * operation is no longer outstanding, then the caller's handler is
     * invoked, or its Future completed.
     */
    private final class Counted<A> implements CompletionHandler<Integer,A> {
        private final CompletionHandler<Integer,? super A> handler;
        private final PendingFuture<Integer,A> future;

        Counted(CompletionHandler<Integer,? super A> handler, PendingFuture<Integer,A> future) {
            this.handler = handler;
            this.future = future;
        }

        @Override
        public void completed(Integer n, A attachment) {
            done(n, null, attachment);
        }

        @Override
        public void failed(Throwable exc, A attachment) {
            done(null, exc, attachment);
        }

        private void done(Integer n, Throwable exc, A attachment) {
            outstanding.decrementAndGet();
            if (handler == null) {
                future.setResult(n, exc);
            } else if (exc == null) {
                handler.completed(n, attachment);
            } else {
                handler.failed(exc, attachment);
            }
        }
    }

    /**
     * Reads or writes as the superclass does: a task of the executor that
     * blocks in pread/pwrite.
     */
    private <A> Future<Integer> pooled(boolean write, ByteBuffer bb, long position,
                                         A attachment,
                                         CompletionHandler<Integer,? super A> handler) {
        return write ? super.implWrite(bb, position, attachment, handler)
                     : super.implRead(bb, position, attachment, handler);
    }

    /**
     * Returns the ring for a read or write, or null if the superclass's code is to
     * take it: it throws, completes at once, rejects, or there is no ring.
     */
    private IoUring ringFor(boolean write, ByteBuffer bb, long position) {
        if (position < 0 || !(write ? writing : reading) || (!write && bb.isReadOnly())
                || !bb.hasRemaining() || !isOpen() || executor.isShutdown())
            return null;
        return IoUring.ring();
    }

    /**
     * Submits a read or write to the ring, or does it as the superclass
     * does if the channel is closed. The channel counts the operation as in
     * flight before it looks at whether the channel is open, and close marks
     * the channel closed before it looks at the count: so either close waits
     * for the operation, or the operation sees the channel closed and is not
     * submitted.
     */
    private <A> Future<Integer> submit(IoUring ring,
                                       boolean write,
                                       ByteBuffer bb,
                                       long position,
                                       A attachment,
                                       CompletionHandler<Integer,? super A> handler)
    {
        Operation<A> op;
        try {
            op = new Operation<>(write, bb, position, attachment, handler);
        } catch (Throwable e) {
            // a buffer whose memory was closed, or no temporary buffer
            outstanding.decrementAndGet();
            throw e;
        }
        inFlight.incrementAndGet();
        if (!isOpen()) {
            if (inFlight.decrementAndGet() == 0)
                LockSupport.unpark(closer);
            op.release();
            outstanding.decrementAndGet();
            return pooled(write, bb, position, attachment, handler);
        }
        // data in the page cache is read now, and the operation completes
        // on the executor with no ring, unless DEEP operations are in the
        // kernel on the ring
        if (readsCached && !write && ring.pending() < DEEP && op.readCached()) {
            op.completed(op.result);
            return op.future;
        }
        try {
            ring.submit(write, fd, op.address, op.length, position, op);
        } catch (Throwable e) {
            // not queued (OutOfMemoryError)
            if (inFlight.decrementAndGet() == 0 && !isOpen())
                LockSupport.unpark(closer);
            op.release();
            outstanding.decrementAndGet();
            throw e;
        }
        return op.future;
    }

    /**
     * Hands a completed operation to the channel's executor: queues it, and
     * starts a runner unless one will take it. Once the executor is shut
     * down, a runner it took may never run, so each operation starts one.
     * This runs on a ring's reaper, which must neither wait nor run the
     * application's code (its executor's execute, thread factory or
     * rejection handler): the channel's executor is given the runner by a
     * thread of the default executor, or, for the default executor itself,
     * the runner runs there. For an executor that may drop tasks (see
     * discards), the runner runs on the default executor and gives it each
     * operation as a task of its own. If the default executor cannot take the
     * task (it cannot start a thread), the operation stays queued until the
     * channel's next operation starts or completes, or the channel is
     * closed, which starts a runner again (see takeQueued).
     */
    private void handOff(Operation<?> op) {
        completed.add(op);
        takeQueued();
    }

    /**
     * Starts a runner on the default executor, as handOff does, unless one
     * will take the queued operations; called with none queued, does
     * nothing.
     */
    private void takeQueued() {
        if (!completed.isEmpty() && (takers.get() == 0 || executor.isShutdown())) {
            takers.incrementAndGet();
            boolean direct = discards || executor == DefaultExecutorHolder.defaultExecutor;
            executeByDefault(direct ? runner : runnerSubmitter);
        }
    }

    /**
     * Submits the operation as a task of its own to the channel's executor,
     * which may drop tasks it cannot take, or, if it is shut down (where it
     * would drop it too) or rejects the task, to the default executor.
     */
    private void runAlone(Operation<?> op) {
        if (tryExecute(op))
            return;
        try {
            DefaultExecutorHolder.defaultExecutor.execute(op);
        } catch (RuntimeException | Error e) {
            // no thread: this runner, on the default executor, completes it
            op.run();
        }
    }

    /**
     * Submits a runner to the channel's executor or, if it is shut down or
     * rejects the runner, to the default executor: the operations were
     * accepted, and the superclass, whose tasks were accepted when they
     * started, would complete them. For an executor that may drop tasks,
     * the runner runs on the default executor (see handOff).
     */
    private void startRunner() {
        takers.incrementAndGet();
        if (discards) {
            executeByDefault(runner);
        } else {
            submitRunner();
        }
    }

    /**
     * Submits a runner, already counted in takers, as startRunner does.
     */
    private void submitRunner() {
        if (!tryExecute(runner))
            executeByDefault(runner);
    }

    /**
     * Submits the task to the channel's executor. Returns false if the
     * executor is shut down, rejects the task or cannot start a thread.
     */
    private boolean tryExecute(Runnable task) {
        if (executor.isShutdown())
            return false;
        STARTING.set(Boolean.TRUE);
        try {
            executor.execute(task);
            return true;
        } catch (RuntimeException | Error e) {
            return false;
        } finally {
            STARTING.remove();
        }
    }

    /**
     * Submits a task that is to submit or be a runner, already counted in
     * takers, to the default executor; if it cannot run (no thread), the
     * runner is no longer counted, so that the next call of takeQueued
     * starts one.
     */
    private void executeByDefault(Runnable task) {
        try {
            DefaultExecutorHolder.defaultExecutor.execute(task);
        } catch (RuntimeException | Error e) {
            takers.decrementAndGet();
        }
    }

    /**
     * A runner: completes the queued operations one after another, on a
     * thread of the executor, until there is none. Before it completes one,
     * and so invokes a handler that may block, it starts another runner if
     * more operations wait and no other runner will take them: so a handler
     * delays no other, as with the superclass's task per operation, while a few
     * threads complete operations that arrive faster than one thread could
     * be woken for each. For an executor that may drop tasks, and whose
     * execute may block, it runs on the default executor and gives each
     * operation to the channel's executor as a task of its own (see
     * handOff).
     */
    private void runCompleted() {
        // an executor that runs tasks in the thread that submits them (a
        // direct executor, CallerRunsPolicy): not in that thread, which may be
        // a reaper, where no application code runs, or a runner, which would
        // recurse once for each operation that waits
        if (STARTING.get() != null) {
            executeByDefault(runner);
            return;
        }
        for (;;) {
            Operation<?> op = completed.poll();
            if (op == null) {
                takers.decrementAndGet();
                // what was queued meanwhile counted on this runner to take it
                if (completed.isEmpty())
                    return;
                takers.incrementAndGet();
                continue;
            }
            if (takers.decrementAndGet() == 0 && !completed.isEmpty())
                startRunner();
            boolean done = false;
            try {
                if (discards) {
                    runAlone(op);
                } else {
                    op.run();
                }
                done = true;
            } finally {
                // a handler that throws ends this runner, as it would end
                // the superclass's task; the others are left to another
                if (!done && takers.get() == 0 && !completed.isEmpty())
                    startRunner();
            }
            takers.incrementAndGet();
        }
    }

    /**
     * A read or write submitted to a ring: its completion, handed off to the
     * channel's executor, and the task that completes it there.
     */
    private final class Operation<A> implements IoUring.Completion, Runnable {
        private final boolean write;
        private final ByteBuffer bb;        // the caller's buffer
        private final int pos;              // its position at the start
        private final ByteBuffer buf;       // bb if direct, else a temporary direct buffer
        final long address;
        final int length;
        private final long position;
        private final A attachment;
        private final CompletionHandler<Integer,? super A> handler;
        final PendingFuture<Integer,A> future;

        // written by completed before it hands off, read by run
        private int result;

        // the jdk.FileDispatch event's start (0: not enabled) and route; no
        // route if pread/pwrite did the operation, as FileDispatcherImpl
        // records it
        private final long start = IoUringFileIO.traceStart();
        private String route = IoUringFileIO.RING;

        /**
         * Prepares the operation: acquires the buffer's scope, as the superclass's
         * channel does, and substitutes a temporary direct buffer for a heap
         * buffer, with a copy of what is to be written.
         */
        Operation(boolean write, ByteBuffer bb, long position, A attachment,
                  CompletionHandler<Integer,? super A> handler) {
            this.write = write;
            this.bb = bb;
            this.pos = bb.position();
            this.length = Math.min(bb.remaining(), MAX_RW_COUNT);
            this.position = position;
            this.attachment = attachment;
            this.handler = handler;
            this.future = (handler == null)
                    ? new PendingFuture<>(IoUringAsynchronousFileChannelImpl.this) : null;
            IOUtil.acquireScope(bb, true);
            if (bb instanceof DirectBuffer) {
                buf = bb;
                address = IOUtil.bufferAddress(bb) + pos;
            } else {
                try {
                    buf = Util.getTemporaryDirectBuffer(length);
                    if (write)
                        buf.put(0, bb, pos, length);
                } catch (Throwable e) {
                    IOUtil.releaseScope(bb);
                    throw e;
                }
                address = IOUtil.bufferAddress(buf);
            }
        }

        /**
         * Reads what the page cache has, with preadv2(RWF_NOWAIT), as a
         * virtual thread's FileChannel read does, which reads cached data for
         * a little more than pread and does not wait for data that is not
         * cached. Returns true if the page cache had all of it, or all up to
         * the end of the file: result is then what the ring would have
         * returned (bytes read, or 0 at end of file). Otherwise the whole
         * read is left to the ring, which copies again what was cached.
         */
        boolean readCached() {
            int total = 0;
            int n;
            try {
                do {
                    n = IoUring.preadNoWait0(fdObj, address + total, length - total,
                                             position + total);
                    if (n > 0)
                        total += n;
                } while (n > 0 && total < length);
            } catch (IOException e) {
                return false;       // the ring does it, and reports it
            }
            if (total < length && n != IOStatus.EOF)
                return false;
            result = total;
            route = IoUringFileIO.PAGE_CACHE;
            return true;
        }

        /**
         * Releases the buffers. Called once the kernel is done with them, or
         * if the operation was not submitted.
         */
        void release() {
            if (buf != bb)
                Util.releaseTemporaryDirectBuffer(buf);
            IOUtil.releaseScope(bb);
        }

        /**
         * Receives the result from the ring, on its reaper: the operation is
         * no longer in flight, and is handed off to the executor.
         */
        @Override
        public void completed(int result) {
            this.result = result;
            if (inFlight.decrementAndGet() == 0 && !isOpen())
                LockSupport.unpark(closer);
            handOff(this);
        }

        /**
         * Completes the operation, on the executor: maps the result as
         * the superclass maps pread's and pwrite's, or does the
         * operation with pread/pwrite if the ring did not, updates the
         * buffer, releases it, and completes the Future or invokes the
         * handler.
         */
        @Override
        public void run() {
            int n = 0;
            Throwable exc = null;
            try {
                n = finish();
                if (route != null)
                    IoUringFileIO.trace(start, route, write, n);
                if (n < 0 && !isOpen())
                    throw new AsynchronousCloseException();
            } catch (IOException x) {
                if (!isOpen())
                    x = new AsynchronousCloseException();
                exc = x;
            } finally {
                release();
            }
            outstanding.decrementAndGet();
            if (handler == null) {
                future.setResult(n, exc);
            } else {
                Invoker.invokeUnchecked(handler, attachment, n, exc);
            }
        }

        /**
         * Returns what the superclass's pread/pwrite loop returns for this
         * operation, and updates the caller's buffer.
         */
        private int finish() throws IOException {
            int n = result;
            if (n == 0 && !write) {
                n = IOStatus.EOF;
            } else if (n < 0 && n != IoUring.FALLBACK) {
                n = IoUring.error0(n, !write);      // throws unless EINTR or EAGAIN
            }
            if (n == IoUring.FALLBACK || n == IOStatus.INTERRUPTED || n == IOStatus.UNAVAILABLE) {
                route = null;
                n = transfer();
            }
            if (n > 0) {
                // as Windows' channel: a caller that changed the buffer meanwhile
                // does not stop the completion
                try {
                    if (buf != bb && !write)
                        bb.put(pos, buf, 0, n);
                    bb.position(pos + n);
                } catch (RuntimeException e) {
                    // ignore
                }
            }
            return n;
        }

        /**
         * Reads or writes with pread/pwrite, as the superclass does.
         */
        private int transfer() throws IOException {
            try {
                begin();
                int n;
                do {
                    n = write ? nd.pwrite(fdObj, address, length, position)
                              : nd.pread(fdObj, address, length, position);
                } while ((n == IOStatus.INTERRUPTED) && isOpen());
                return n;
            } finally {
                end();
            }
        }
    }
}

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
 * @summary AsynchronousFileChannel.close() with 1,024 reads or writes of a cold file in
 *          flight, initiated by a platform or a virtual thread, with the default executor and
 *          with a pool of one thread, and from a completion handler: close returns, every
 *          operation completes exactly once, with its result or AsynchronousCloseException,
 *          no buffer changes after its operation completed or, for a direct buffer, after
 *          close returned, the bytes of every read and write that succeeded are right, and
 *          a write that failed wrote nothing; two threads closing at once both find the
 *          channel closed when close returns
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=600 IoUringAsyncClose
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=600 -Djdk.nio.file.ioUring=never IoUringAsyncClose
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=600 -Djdk.internal.nio.ioUring.mode=always IoUringAsyncClose
 */

/*
 * @test id=depth64
 * @summary The same with rings of 64 slots, so that the initiating thread waits for free
 *          slots while close runs
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=600 -Djdk.internal.nio.ioUring.depth=64 IoUringAsyncClose
 */

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;

public class IoUringAsyncClose {
    static final Random RAND = RandomFactory.getRandom();
    static final int BLOCK = 4096;
    static final int FILE_SIZE = 64 << 20;
    static final int OPERATIONS = 1024;
    static final byte SENTINEL = (byte) 0x5A;
    static final long CLOSE_LIMIT_MILLIS = 60_000;

    static byte[] data;
    static boolean uring;
    static boolean cold;

    public static void main(String[] args) throws Exception {
        data = IoUringAsyncChannels.randomBytes(RAND, FILE_SIZE);
        Path file = IoUringAsyncChannels.createFile("close", data);
        try {
            try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ)) {
                uring = IoUringAsyncChannels.checkImplementation(ch);
            }
            cold = IoUringRings.canEvict(file);
            System.out.println("io_uring channel: " + uring + ", cold reads: " + cold);
            int closedInFlight = 0;
            for (boolean write : new boolean[] { false, true }) {
                for (boolean virtual : new boolean[] { false, true }) {
                    for (boolean pool : new boolean[] { false, true }) {
                        closedInFlight += closeInFlight(file, write, virtual, pool);
                    }
                }
            }
            closeLargeReads(file);
            closeConcurrently(file);
            closeWhileInitiating(file);
            closeFromHandler(file);
            // with a ring and a cold file, close finds operations in flight
            if (uring && cold && closedInFlight == 0)
                throw new RuntimeException("no operation completed after close was invoked");
        } finally {
            Files.delete(file);
        }
        System.out.println("passed");
    }

    /** One operation: its buffer, position, outcome and buffer at completion. */
    static final class Op {
        final boolean write;
        final int size;
        final ByteBuffer bb;
        final long position;
        final AsynchronousFileChannel ch;
        final byte[] written;
        final boolean afterClose;       // initiated after close was invoked, perhaps
        IoUringAsyncChannels.Outcome<Integer> outcome;
        java.util.concurrent.Future<Integer> future;

        /** A read or write of a block, started at once. */
        Op(AsynchronousFileChannel ch, boolean write, long position, boolean useFuture,
           boolean afterClose) {
            this(ch, write, position, afterClose, BLOCK, RAND.nextBoolean());
            start(useFuture);
        }

        /** A read or write of size bytes, to be started. */
        Op(AsynchronousFileChannel ch, boolean write, long position, boolean afterClose,
           int size, boolean direct) {
            this.ch = ch;
            this.write = write;
            this.size = size;
            this.position = position;
            this.afterClose = afterClose;
            bb = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
            if (write) {
                written = IoUringAsyncChannels.randomBytes(RAND, size);
                bb.put(0, written);
            } else {
                written = null;
                byte[] sentinels = new byte[size];
                Arrays.fill(sentinels, SENTINEL);
                bb.put(0, sentinels);
            }
        }

        void start(boolean useFuture) {
            if (useFuture) {
                future = write ? ch.write(bb, position) : ch.read(bb, position);
            } else {
                outcome = new IoUringAsyncChannels.Outcome<>(ch);
                if (write) {
                    ch.write(bb, position, null, outcome);
                } else {
                    ch.read(bb, position, null, outcome);
                }
            }
        }

        /** The result, or the exception the operation failed with. */
        Object result() throws InterruptedException {
            try {
                return (future != null) ? IoUringAsyncChannels.get(future) : outcome.get();
            } catch (ExecutionException e) {
                return e.getCause();
            }
        }

        byte[] snapshot() {
            byte[] b = new byte[size];
            bb.get(0, b);
            return b;
        }
    }

    /**
     * Starts OPERATIONS reads or writes of distinct random blocks from a
     * platform or virtual thread, closes the channel as soon as they are
     * started, and checks them. Returns the number that completed with
     * AsynchronousCloseException or whose handler found the channel closed.
     */
    static int closeInFlight(Path file, boolean write, boolean virtual, boolean pool)
        throws Exception
    {
        String what = (write ? "writes" : "reads") + " from a " + (virtual ? "virtual" : "platform")
                + " thread, " + (pool ? "pool of 1" : "default executor");
        IoUringRings.evict(file);
        ExecutorService executor = pool ? Executors.newFixedThreadPool(1) : null;
        // writes that wait for the device, which the ring does in auto
        Set<StandardOpenOption> options = write ? Set.of(READ, WRITE, DSYNC) : Set.of(READ, WRITE);
        AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, options, executor);
        IoUringAsyncChannels.checkImplementation(ch);
        List<Integer> blocks = new ArrayList<>();
        for (int i = 0; i < FILE_SIZE / BLOCK; i++)
            blocks.add(i);
        Collections.shuffle(blocks, RAND);
        List<Op> ops = IoUringAsyncChannels.inThread(virtual, () -> {
            List<Op> list = new ArrayList<>();
            for (int i = 0; i < OPERATIONS; i++)
                list.add(new Op(ch, write, (long) blocks.get(i) * BLOCK, i % 2 == 0, false));
            return list;
        });
        long start = System.nanoTime();
        ch.close();
        long millis = (System.nanoTime() - start) / 1_000_000;
        int closed = check(file, ch, ops, millis, what);
        if (write) {
            // the file as it was, for the reads that follow
            try (FileChannel fc = FileChannel.open(file, WRITE)) {
                ByteBuffer bb = ByteBuffer.wrap(data);
                while (bb.hasRemaining())
                    fc.write(bb, bb.position());
                fc.force(true);
            }
        }
        if (executor != null) {
            executor.shutdown();
            if (!executor.awaitTermination(60, TimeUnit.SECONDS))
                throw new RuntimeException("executor did not terminate");
        }
        return closed;
    }

    /**
     * Checks the operations of a channel closed in close millis: each one's
     * outcome, and that no buffer changes after the operation completed, nor
     * any direct buffer after close returned. An operation reports what it
     * did, as upstream's: one that completes with a count transferred its
     * bytes, and a write that fails with AsynchronousCloseException wrote
     * nothing. Returns the number of AsynchronousCloseExceptions and of
     * handlers that found the channel closed.
     */
    static int check(Path file, AsynchronousFileChannel ch, List<Op> ops, long millis, String what)
        throws Exception
    {
        // direct buffers as close left them
        List<byte[]> atClose = new ArrayList<>();
        for (Op op : ops)
            atClose.add(op.bb.isDirect() ? op.snapshot() : null);
        if (millis > CLOSE_LIMIT_MILLIS)
            throw new RuntimeException(what + ": close took " + millis + " ms");
        List<Object> results = new ArrayList<>();
        List<byte[]> atCompletion = new ArrayList<>();
        for (Op op : ops) {
            results.add(op.result());
            atCompletion.add(op.snapshot());
        }
        Thread.sleep(200);
        int done = 0, asyncClosed = 0, closed = 0, doneClosed = 0;
        try (FileChannel fc = FileChannel.open(file, READ)) {
            for (int i = 0; i < ops.size(); i++) {
                Op op = ops.get(i);
                Object result = results.get(i);
                String where = what + ", operation " + i + " at " + op.position;
                if (!Arrays.equals(op.snapshot(), atCompletion.get(i)))
                    throw new RuntimeException(where + ": the buffer changed after completion");
                if (atClose.get(i) != null && !Arrays.equals(op.snapshot(), atClose.get(i)))
                    throw new RuntimeException(where + ": the buffer changed after close returned");
                if (op.outcome != null && op.outcome.calls() != 1)
                    throw new RuntimeException(where + ": handler invoked " + op.outcome.calls() + " times");
                if (result instanceof Integer n) {
                    if (n != op.size)
                        throw new RuntimeException(where + ": transferred " + n);
                    byte[] expected = op.write ? op.written
                            : Arrays.copyOfRange(data, (int) op.position, (int) op.position + op.size);
                    byte[] actual = op.snapshot();
                    if (op.write) {
                        ByteBuffer back = ByteBuffer.allocate(op.size);
                        fc.read(back, op.position);
                        actual = back.array();
                    }
                    if (!Arrays.equals(actual, expected))
                        throw new RuntimeException(where + ": wrong bytes");
                    if (op.bb.position() != op.size)
                        throw new RuntimeException(where + ": buffer position " + op.bb.position());
                    done++;
                    if (op.outcome != null && !op.outcome.openThen())
                        doneClosed++;
                } else if (result instanceof AsynchronousCloseException) {
                    if (op.outcome != null && op.outcome.openThen())
                        throw new RuntimeException(where + ": channel open when the handler got "
                                                   + result);
                    if (op.bb.position() != 0)
                        throw new RuntimeException(where + ": buffer position " + op.bb.position()
                                                   + " after " + result);
                    // a heap buffer is the channel's copy's to fill: not after a failure
                    if (!op.write && !op.bb.isDirect() && !allSentinel(op.snapshot()))
                        throw new RuntimeException(where + ": heap buffer filled, and " + result);
                    if (op.write) {
                        ByteBuffer back = ByteBuffer.allocate(op.size);
                        fc.read(back, op.position);
                        if (Arrays.equals(back.array(), op.written))
                            throw new RuntimeException(where + ": the bytes reached the file,"
                                                       + " and the write failed with " + result);
                    }
                    asyncClosed++;
                } else if (result instanceof ClosedChannelException && op.afterClose) {
                    closed++;
                } else {
                    throw new RuntimeException(where + ": " + result, (Throwable) result);
                }
            }
        }
        System.out.println(what + ": close took " + millis + " ms; " + done + " done ("
                + doneClosed + " with the channel closed), " + asyncClosed
                + " AsynchronousCloseException, " + closed + " ClosedChannelException");
        // a new operation
        try {
            IoUringAsyncChannels.get(ch.read(ByteBuffer.allocate(10), 0));
            throw new RuntimeException(what + ": read after close");
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof ClosedChannelException))
                throw e;
        }
        return asyncClosed + doneClosed;
    }

    /**
     * 16 reads of 4 MiB of the cold file into direct buffers, the whole file,
     * each long enough to be in flight when close is invoked right after: the
     * kernel fills no buffer after close has returned.
     */
    static void closeLargeReads(Path file) throws Exception {
        IoUringRings.evict(file);
        AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ);
        int size = 4 << 20;
        List<Op> ops = new ArrayList<>();
        for (int i = 0; i < FILE_SIZE / size; i++)
            ops.add(new Op(ch, false, (long) i * size, false, size, true));
        for (int i = 0; i < ops.size(); i++)
            ops.get(i).start(i % 2 == 0);
        long start = System.nanoTime();
        ch.close();
        long millis = (System.nanoTime() - start) / 1_000_000;
        check(file, ch, ops, millis, "16 reads of 4 MiB");
    }

    /**
     * Two threads close a channel with reads in flight at the same time, in
     * 20 trials: when either close returns, the channel is closed, as
     * upstream's close marks it closed before it waits for anything.
     */
    static void closeConcurrently(Path file) throws Exception {
        for (int trial = 0; trial < 20; trial++) {
            IoUringRings.evict(file);
            AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ);
            List<Op> ops = new ArrayList<>();
            for (int i = 0; i < 256; i++) {
                long position = (long) RAND.nextInt(FILE_SIZE / BLOCK) * BLOCK;
                ops.add(new Op(ch, false, position, i % 2 == 0, false));
            }
            CountDownLatch go = new CountDownLatch(1);
            List<String> failures = Collections.synchronizedList(new ArrayList<>());
            List<Thread> closers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                closers.add(Thread.ofPlatform().start(() -> {
                    try {
                        go.await();
                        ch.close();
                        if (ch.isOpen())
                            failures.add("isOpen() true after close() returned");
                    } catch (Exception e) {
                        failures.add(e.toString());
                    }
                }));
            }
            go.countDown();
            for (Thread t : closers)
                t.join();
            if (!failures.isEmpty())
                throw new RuntimeException("trial " + trial + ": " + failures);
            for (Op op : ops)
                op.result();
        }
        System.out.println("two threads closing at once: 20 trials");
    }

    static boolean allSentinel(byte[] b) {
        for (byte x : b) {
            if (x != SENTINEL)
                return false;
        }
        return true;
    }

    /**
     * A thread starts OPERATIONS reads, and the channel is closed when it has
     * started half of them; it starts the others, which end with
     * ClosedChannelException, or as if started before close.
     */
    static void closeWhileInitiating(Path file) throws Exception {
        IoUringRings.evict(file);
        AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ);
        CountDownLatch half = new CountDownLatch(1);
        List<Op> ops = Collections.synchronizedList(new ArrayList<>());
        Thread initiator = Thread.ofVirtual().start(() -> {
            for (int i = 0; i < OPERATIONS; i++) {
                long position = (long) RAND.nextInt(FILE_SIZE / BLOCK) * BLOCK;
                ops.add(new Op(ch, false, position, i % 2 == 0, i >= OPERATIONS / 2));
                if (i == OPERATIONS / 2)
                    half.countDown();
            }
        });
        half.await();
        long start = System.nanoTime();
        ch.close();
        long millis = (System.nanoTime() - start) / 1_000_000;
        initiator.join();
        check(file, ch, ops, millis, "close while initiating");
    }

    /**
     * A pool of one thread runs the handlers; the first handler closes the
     * channel once all reads have started, with the others in flight: close
     * does not wait for the pool, and every handler runs.
     */
    static void closeFromHandler(Path file) throws Exception {
        IoUringRings.evict(file);
        ExecutorService executor = Executors.newFixedThreadPool(1);
        AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, Set.of(READ), executor);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        List<IoUringAsyncChannels.Outcome<Integer>> closers = new ArrayList<>();
        for (int i = 0; i < 256; i++) {
            ByteBuffer bb = ByteBuffer.allocateDirect(BLOCK);
            IoUringAsyncChannels.Outcome<Integer> o = new IoUringAsyncChannels.Outcome<>(ch) {
                @Override
                public void completed(Integer n, Object a) {
                    super.completed(n, a);
                    closeOnce(ch, started, closed);
                }
                @Override
                public void failed(Throwable e, Object a) {
                    super.failed(e, a);
                    closeOnce(ch, started, closed);
                }
            };
            closers.add(o);
            ch.read(bb, (long) RAND.nextInt(FILE_SIZE / BLOCK) * BLOCK, null, o);
        }
        started.countDown();
        if (!closed.await(IoUringAsyncChannels.TIMEOUT_SECONDS, TimeUnit.SECONDS))
            throw new RuntimeException("no handler closed the channel");
        for (IoUringAsyncChannels.Outcome<Integer> o : closers) {
            try {
                int n = o.get();
                if (n != BLOCK)
                    throw new RuntimeException("read " + n);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof AsynchronousCloseException))
                    throw e;
            }
        }
        executor.shutdown();
        if (!executor.awaitTermination(60, TimeUnit.SECONDS))
            throw new RuntimeException("executor did not terminate");
        System.out.println("close from a handler: all 256 handlers ran");
    }

    static void closeOnce(AsynchronousFileChannel ch, CountDownLatch started, CountDownLatch closed) {
        if (closed.getCount() == 0)
            return;
        try {
            started.await();
            ch.close();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
        closed.countDown();
    }
}

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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the IoUringAsync* tests share: which AsynchronousFileChannel this VM
 * must open, a CompletionHandler that records its outcome, so that the
 * Future and the CompletionHandler forms are checked alike, and checks.
 */
final class IoUringAsyncChannels {
    private IoUringAsyncChannels() { }

    static final String URING = "sun.nio.ch.IoUringAsynchronousFileChannelImpl";
    static final String SIMPLE = "sun.nio.ch.SimpleAsynchronousFileChannelImpl";

    // how long an operation may take before the test calls it lost
    static final long TIMEOUT_SECONDS = 120;

    /**
     * Returns true if jdk.nio.file.ioUring is always: an io_uring channel
     * sends every read and write to the ring, also the only one outstanding
     * and a buffered write, which in auto it does as upstream does.
     */
    static boolean always() {
        return "always".equals(System.getProperty("jdk.internal.nio.ioUring.mode", System.getProperty("jdk.nio.file.ioUring")));
    }

    /**
     * Returns true if this VM opens io_uring channels: jdk.nio.file.ioUring
     * is not never, no failure is simulated, and the VM has rings. Call it
     * after a channel has been opened, which sets the rings up.
     */
    static boolean ringExpected() throws IOException {
        return !"never".equals(System.getProperty("jdk.internal.nio.ioUring.mode", System.getProperty("jdk.nio.file.ioUring")))
                && System.getProperty("jdk.internal.nio.ioUring.testUnavailable") == null
                && !IoUringRings.fds().isEmpty();
    }

    /**
     * Checks that the channel is the one this VM must open for a regular
     * file, and returns true if it is io_uring's.
     */
    static boolean checkImplementation(AsynchronousFileChannel ch) throws IOException {
        String expected = ringExpected() ? URING : SIMPLE;
        String actual = ch.getClass().getName();
        if (!actual.equals(expected))
            throw new RuntimeException("opened " + actual + ", expected " + expected);
        return expected.equals(URING);
    }

    /**
     * A CompletionHandler that records the one outcome it receives, the
     * thread that invoked it and whether the channel was open then.
     */
    static class Outcome<V> implements CompletionHandler<V, Object> {
        private final AsynchronousFileChannel ch;
        private final CountDownLatch done = new CountDownLatch(1);
        private final AtomicInteger calls = new AtomicInteger();
        private volatile V value;
        private volatile Throwable exc;
        private volatile Thread thread;
        private volatile boolean openThen;

        Outcome(AsynchronousFileChannel ch) {
            this.ch = ch;
        }

        @Override
        public void completed(V v, Object attachment) {
            record(v, null);
        }

        @Override
        public void failed(Throwable e, Object attachment) {
            record(null, e);
        }

        private void record(V v, Throwable e) {
            value = v;
            exc = e;
            thread = Thread.currentThread();
            openThen = ch.isOpen();
            calls.incrementAndGet();
            done.countDown();
        }

        /** True once the handler has been invoked. */
        boolean isDone() {
            return done.getCount() == 0;
        }

        /**
         * Waits for the outcome and returns it as Future.get would: the value,
         * or ExecutionException with the exception as its cause.
         */
        V get() throws ExecutionException, InterruptedException {
            if (!done.await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                throw new RuntimeException("handler not invoked in " + TIMEOUT_SECONDS + " s");
            if (calls.get() != 1)
                throw new RuntimeException("handler invoked " + calls.get() + " times");
            if (exc != null)
                throw new ExecutionException(exc);
            return value;
        }

        /** The number of times the handler has been invoked. */
        int calls() {
            return calls.get();
        }

        /** The thread that invoked the handler. */
        Thread thread() {
            return thread;
        }

        /** Whether the channel was open when the handler was invoked. */
        boolean openThen() {
            return openThen;
        }
    }

    /**
     * Waits for a Future with the test's timeout.
     */
    static <V> V get(Future<V> f) throws ExecutionException, InterruptedException {
        try {
            return f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new RuntimeException("Future not done in " + TIMEOUT_SECONDS + " s");
        }
    }

    /**
     * Runs the task in a new platform or virtual thread and returns what it
     * returns, or throws what it throws.
     */
    static <V> V inThread(boolean virtual, Callable<V> task) throws Exception {
        FutureTask<V> f = new FutureTask<>(task);
        (virtual ? Thread.ofVirtual() : Thread.ofPlatform()).start(f).join();
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception x)
                throw x;
            throw e;
        }
    }

    /**
     * Reads or writes through the channel, in the Future or the
     * CompletionHandler form, and returns as Future.get does.
     */
    static int transfer(AsynchronousFileChannel ch, boolean write, ByteBuffer bb, long position,
                        boolean future) throws ExecutionException, InterruptedException {
        if (future)
            return get(write ? ch.write(bb, position) : ch.read(bb, position));
        Outcome<Integer> o = new Outcome<>(ch);
        if (write) {
            ch.write(bb, position, null, o);
        } else {
            ch.read(bb, position, null, o);
        }
        return o.get();
    }

    /**
     * Checks that a read at the given position returned expected, and that
     * the first bytes of the buffer are those of data there.
     */
    static void checkRead(int n, int expected, ByteBuffer bb, byte[] data, long position) {
        if (n != expected)
            throw new RuntimeException("read " + n + " at " + position + ", expected " + expected);
        for (int i = 0; i < n; i++) {
            if (bb.get(i) != data[(int) position + i])
                throw new RuntimeException("wrong byte at " + (position + i));
        }
    }

    /** Expects the action to throw exactly the given exception class. */
    static void expect(Class<? extends Throwable> expected, String what, Runnable action) {
        try {
            action.run();
        } catch (Throwable e) {
            if (e.getClass() != expected)
                throw new RuntimeException(what + ": threw " + e + ", expected " + expected, e);
            System.out.println(what + ": " + e);
            return;
        }
        throw new RuntimeException(what + ": did not throw " + expected);
    }

    /**
     * Creates a file in the current directory with the given bytes, written
     * to the device, so that evicting it from the page cache makes it cold.
     */
    static Path createFile(String prefix, byte[] data) throws IOException {
        Path file = Files.createTempFile(Path.of("."), prefix, ".dat");
        Files.write(file, data);
        try (FileChannel fc = FileChannel.open(file, StandardOpenOption.WRITE)) {
            fc.force(true);
        }
        return file;
    }

    /** Returns n random bytes. */
    static byte[] randomBytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** Returns a new heap buffer if heap, else a new direct buffer, of the given size. */
    static ByteBuffer buffer(boolean heap, int size) {
        return heap ? ByteBuffer.allocate(size) : ByteBuffer.allocateDirect(size);
    }

    /**
     * A read of size bytes at a position into a new heap or direct buffer,
     * started with an Outcome as its handler.
     */
    static final class BlockRead {
        final ByteBuffer bb;
        final long position;
        final Outcome<Integer> outcome;

        BlockRead(AsynchronousFileChannel ch, boolean heap, long position, int size) {
            this.bb = buffer(heap, size);
            this.position = position;
            this.outcome = new Outcome<>(ch);
            ch.read(bb, position, null, outcome);
        }

        /** Waits for the read and checks that it read the bytes data has there. */
        void check(byte[] data) throws ExecutionException, InterruptedException {
            checkRead(outcome.get(), bb.capacity(), bb, data, position);
        }
    }
}

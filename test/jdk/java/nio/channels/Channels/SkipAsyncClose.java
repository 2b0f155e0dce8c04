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
 */

/*
 * @test
 * @bug 8337974
 * @summary Asynchronous close and interrupt of a thread blocked in, or about
 *     to enter, InputStream.skip on channel and socket streams, after partial
 *     progress, on platform and virtual threads: the exceptions of read
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory SkipSource
 * @run junit/timeout=480 SkipAsyncClose
 */

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import jdk.test.lib.RandomFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.*;

public class SkipAsyncClose {
    private static final Random RAND = RandomFactory.getRandom();
    private static final int ITERATIONS = 40;

    enum Action { CLOSE, INTERRUPT }

    static Stream<Arguments> cases() {
        return SkipSource.Kind.available().stream()
                .filter(SkipSource.Kind::isStream)
                .flatMap(k -> Stream.of(false, true).flatMap(v -> Stream.of(Action.values())
                        .filter(a -> supported(k, v, a))
                        .map(a -> Arguments.of(k, v, a))));
    }

    /**
     * The combinations where read itself can be released: a FileChannel read
     * on a FIFO is released by close on a platform thread only (interrupt
     * leaves it blocked, and a virtual thread cannot be signalled), and a
     * Socket read on a platform thread is not interruptible.
     */
    static boolean supported(SkipSource.Kind kind, boolean virtual, Action action) {
        if (kind == SkipSource.Kind.FIFO && (virtual || action == Action.INTERRUPT))
            return false;
        if (kind == SkipSource.Kind.SOCKET && !virtual && action == Action.INTERRUPT)
            return false;
        return true;
    }

    @ParameterizedTest
    @MethodSource("cases")
    void test(SkipSource.Kind kind, boolean virtual, Action action) throws Exception {
        for (int i = 0; i < ITERATIONS; i++) {
            // partial progress: some bytes are there, more are asked for
            int pre = RAND.nextInt(4) == 0 ? 0 : RAND.nextInt(30_000);
            long n = pre + 1 + RAND.nextInt(100_000);
            // no delay (the action races the start of skip), short, or long enough to block
            int delay = switch (RAND.nextInt(3)) {
                case 0 -> 0;
                case 1 -> RAND.nextInt(1000);
                default -> 5000 + RAND.nextInt(20_000);
            };
            iteration(kind, virtual, action, pre, n, delay);
        }
    }

    void iteration(SkipSource.Kind kind, boolean virtual, Action action, int pre, long n, int delayMicros)
        throws Exception
    {
        try (SkipSource src = SkipSource.open(kind, 0)) {
            src.writePattern(0, pre);
            CompletableFuture<Throwable> result = new CompletableFuture<>();
            CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
            InputStream in = src.in;
            Runnable task = () -> {
                try {
                    long r = in.skip(n);
                    result.completeExceptionally(new AssertionError("skip(" + n + ") returned " + r));
                } catch (Throwable e) {
                    interrupted.complete(Thread.currentThread().isInterrupted());
                    result.complete(e);
                }
            };
            Thread t = virtual ? Thread.ofVirtual().start(task) : Thread.ofPlatform().start(task);
            if (delayMicros > 0)
                TimeUnit.MICROSECONDS.sleep(delayMicros);
            if (action == Action.CLOSE) {
                src.closeInput();
            } else {
                t.interrupt();
            }
            Throwable e = result.get(60, TimeUnit.SECONDS);
            t.join();
            String what = kind + (virtual ? " virtual " : " platform ") + action
                    + " pre=" + pre + " n=" + n + " delay=" + delayMicros + "us: " + e;
            if (kind == SkipSource.Kind.SOCKET) {
                assertEquals(SocketException.class, e.getClass(), what);
                if (action == Action.INTERRUPT) {
                    assertEquals("Closed by interrupt", e.getMessage(), what);
                    assertTrue(interrupted.get(), what);
                }
            } else if (action == Action.CLOSE) {
                assertTrue(e.getClass() == AsynchronousCloseException.class
                        || e.getClass() == ClosedChannelException.class, what);
            } else {
                assertEquals(ClosedByInterruptException.class, e.getClass(), what);
                assertTrue(interrupted.get(), what);
            }
            // the stream is closed: skip fails as read does
            Class<?> readEx = exceptionOf(() -> in.read());
            assertNotNull(readEx, what);
            assertEquals(readEx, exceptionOf(() -> in.skip(1)), what);
        }
    }

    interface IOAction { void run() throws IOException; }

    static Class<?> exceptionOf(IOAction action) {
        try {
            action.run();
            return null;
        } catch (Exception e) {
            return e.getClass();
        }
    }
}

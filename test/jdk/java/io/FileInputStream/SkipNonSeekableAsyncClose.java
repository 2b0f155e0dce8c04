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
 * @summary Close of a FileInputStream by another thread, and interrupt of the
 *     thread, while skip is blocked on an empty FIFO or child process pipe, on
 *     platform and virtual threads: as with read, the skip stays blocked until
 *     data or end of stream arrives. After a close, a skip that still has
 *     bytes to skip then throws IOException("Stream Closed"), one that has
 *     skipped them all returns the count, and one that meets end of stream
 *     returns what it skipped. After an interrupt, the skip returns the count
 *     with the interrupt status set, and the stream stays open.
 * @requires os.family != "windows"
 * @build NonSeekable
 * @run junit/othervm/timeout=300 SkipNonSeekableAsyncClose
 */

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.*;

public class SkipNonSeekableAsyncClose {

    /** The skip that blocks. */
    static final int COUNT = 100;

    /** Where the stream comes from. */
    enum Source {
        FIFO,       // FileInputStream on a FIFO, written by this JVM
        PROCESS     // Process.getInputStream() of cat(1), fed by this JVM
    }

    /** What happens after the close, to release the blocked skip. */
    enum Then {
        WRITE_LESS,     // fewer bytes than the skip wants: "Stream Closed"
        WRITE_ENOUGH,   // all of them in one write: the skip returns COUNT
        CLOSE_WRITER    // end of stream: the skip returns 0
    }

    static Stream<Arguments> cases() {
        return Stream.of(Source.values()).flatMap(s -> Stream.of(false, true)
                .flatMap(v -> Stream.of(Then.values()).map(t -> Arguments.of(s, v, t))));
    }

    static Path dir;

    @BeforeAll
    static void makeDir() throws IOException {
        dir = NonSeekable.tempDir();
    }

    @AfterAll
    static void removeDir() throws IOException {
        NonSeekable.deleteDir(dir);
    }

    /** A stream under test and the output that feeds it. */
    interface Ends extends AutoCloseable {
        InputStream in();
        OutputStream out();
    }

    static Ends open(Source source, String name) throws Exception {
        switch (source) {
            case FIFO -> {
                NonSeekable.FifoEnds ends = NonSeekable.openFifo(NonSeekable.mkfifo(dir, name));
                return new Ends() {
                    public InputStream in() { return ends.in(); }
                    public OutputStream out() { return ends.out(); }
                    public void close() throws IOException { ends.close(); }
                };
            }
            case PROCESS -> {
                Process p = new ProcessBuilder("cat")
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
                return new Ends() {
                    public InputStream in() { return p.getInputStream(); }
                    public OutputStream out() { return p.getOutputStream(); }
                    public void close() throws Exception {
                        try (InputStream in = p.getInputStream();
                             OutputStream out = p.getOutputStream()) {
                        }
                        assertEquals(0, NonSeekable.waitFor(p), "exit value of cat");
                    }
                };
            }
            default -> throw new AssertionError();
        }
    }

    /** Whether a thread is blocked in a native method called by skip. */
    static boolean blockedInSkip(Thread t) {
        StackTraceElement[] stack = t.getStackTrace();
        if (stack.length == 0 || !stack[0].isNativeMethod())
            return false;
        for (StackTraceElement e : stack) {
            if (e.getMethodName().equals("skip"))
                return true;
        }
        return false;
    }

    @ParameterizedTest
    @MethodSource("cases")
    void test(Source source, boolean virtual, Then then) throws Exception {
        String name = source + "-" + (virtual ? "virtual" : "platform") + "-" + then;
        try (Ends ends = open(source, "fifo-" + name)) {
            InputStream in = ends.in();
            FutureTask<Long> skip = new FutureTask<>(() -> in.skip(COUNT));
            Thread t = virtual ? Thread.ofVirtual().start(skip) : Thread.ofPlatform().start(skip);

            // wait for the skip to block, then close the stream
            awaitBlocked(t, skip, name);
            in.close();

            // as read, the skip stays blocked
            Thread.sleep(200);
            assertFalse(skip.isDone(), name + ": skip blocked on an empty stream returned "
                    + "when the stream was closed, before data arrived: " + result(skip));

            byte[] data = new byte[COUNT];
            NonSeekable.fillPattern(data, 0, data.length, 0);
            switch (then) {
                case WRITE_LESS -> {
                    ends.out().write(data, 0, 10);
                    ends.out().flush();
                }
                case WRITE_ENOUGH -> {
                    ends.out().write(data);
                    ends.out().flush();
                }
                case CLOSE_WRITER -> ends.out().close();
            }

            Object outcome;
            try {
                outcome = skip.get(60, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                outcome = e.getCause();
            } catch (TimeoutException e) {
                ends.out().close();   // release it
                throw new AssertionError(name + ": skip still blocked after " + then + ": "
                        + List.of(t.getStackTrace()));
            }
            t.join();
            System.err.println(name + ": " + outcome);
            switch (then) {
                case WRITE_LESS -> {
                    if (!(outcome instanceof IOException e) || !"Stream Closed".equals(e.getMessage()))
                        fail(name + ": expected IOException(\"Stream Closed\"), got " + outcome);
                }
                case WRITE_ENOUGH -> assertEquals(Long.valueOf(COUNT), outcome, name);
                case CLOSE_WRITER -> assertEquals(Long.valueOf(0), outcome, name);
            }

            // closed: skip and read fail alike (the process stream's buffer is gone)
            IOException readEx = assertThrows(IOException.class, () -> in.read(new byte[1]));
            IOException skipEx = assertThrows(IOException.class, () -> in.skip(1));
            assertEquals(readEx.getMessage(), skipEx.getMessage(), name);
        }
    }

    /**
     * Waits until a thread is blocked in skip, then a little more so that it
     * is in the system call.
     */
    static void awaitBlocked(Thread t, FutureTask<?> skip, String name) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!blockedInSkip(t)) {
            if (skip.isDone())
                fail(name + ": skip(" + COUNT + ") returned " + result(skip) + " on an empty stream");
            if (System.nanoTime() > deadline)
                fail(name + ": skip not blocked: " + List.of(t.getStackTrace()));
            Thread.sleep(10);
        }
        Thread.sleep(100);
    }

    /** What a skip that was interrupted returned, and whether the interrupt status was set. */
    record Outcome(long skipped, boolean interrupted) { }

    static Stream<Arguments> interruptCases() {
        return Stream.of(Source.values()).flatMap(s -> Stream.of(false, true)
                .map(v -> Arguments.of(s, v)));
    }

    /**
     * Interrupt of a thread blocked in skip: as read, FileInputStream.skip is
     * not interruptible; it returns once the bytes arrive, with the interrupt
     * status still set, and the stream stays open.
     */
    @ParameterizedTest
    @MethodSource("interruptCases")
    void testInterrupt(Source source, boolean virtual) throws Exception {
        String name = source + "-" + (virtual ? "virtual" : "platform") + "-INTERRUPT";
        try (Ends ends = open(source, "fifo-" + name)) {
            InputStream in = ends.in();
            FutureTask<Outcome> skip = new FutureTask<>(() -> {
                long n = in.skip(COUNT);
                return new Outcome(n, Thread.interrupted());
            });
            Thread t = virtual ? Thread.ofVirtual().start(skip) : Thread.ofPlatform().start(skip);
            awaitBlocked(t, skip, name);
            t.interrupt();
            Thread.sleep(200);
            assertFalse(skip.isDone(), name + ": skip blocked on an empty stream returned "
                    + "when its thread was interrupted, before data arrived: " + result(skip));

            byte[] data = new byte[COUNT + 10];
            NonSeekable.fillPattern(data, 0, data.length, 0);
            ends.out().write(data, 0, COUNT);
            ends.out().flush();
            Outcome outcome;
            try {
                outcome = skip.get(60, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                ends.out().close();   // release it
                throw new AssertionError(name + ": skip still blocked after the data came: "
                        + List.of(t.getStackTrace()));
            }
            t.join();
            System.err.println(name + ": " + outcome);
            assertEquals(new Outcome(COUNT, true), outcome, name);

            // still open
            ends.out().write(data, COUNT, 10);
            ends.out().flush();
            byte[] b = in.readNBytes(10);
            assertArrayEquals(Arrays.copyOfRange(data, COUNT, COUNT + 10), b, name);
        }
    }

    static String result(FutureTask<?> f) {
        try {
            return String.valueOf(f.get(0, TimeUnit.SECONDS));
        } catch (ExecutionException e) {
            return e.getCause().toString();
        } catch (Exception e) {
            return e.toString();
        }
    }
}

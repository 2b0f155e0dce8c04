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
 * @summary FileInputStream.skip on files that are not regular files: the
 *     stdout pipe of a child process (Process.getInputStream), System.in of a
 *     child JVM, a FIFO, character devices, and TCP and Unix domain socket
 *     file descriptors, on platform and virtual threads. skip returns the
 *     bytes skipped, stopping early only at end of stream, and the next read
 *     returns the byte that follows.
 * @requires os.family != "windows"
 * @modules java.base/java.io:+open java.base/sun.nio.ch:+open
 * @build NonSeekable
 * @run junit/othervm/timeout=300 SkipNonSeekable
 */

import java.io.BufferedReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

public class SkipNonSeekable {

    /**
     * The skip counts, in order: less than, equal to and more than a page,
     * more than a pipe's buffer (64 KiB) and than a BufferedInputStream's,
     * non-positive counts that skip nothing, and several MiB.
     */
    static final long[] COUNTS = {
        1, 511, 4096, 65536 + 1, 1 << 20, 0, -1, Long.MIN_VALUE, 3, (3 << 20) + 17
    };

    /** The bytes left at the end of a pattern stream after COUNTS, more than a pipe holds. */
    static final long REST = 777_777;

    /** Bytes read by {@link #skipAndCheck}: one after each skip, then 100. */
    static final int READ = COUNTS.length + 100;

    /** The length of a pattern stream for {@link #skipAndCheck}. */
    static long total() {
        long sum = READ + REST;
        for (long n : COUNTS)
            sum += Math.max(n, 0);
        return sum;
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

    /**
     * Skips COUNTS on a FileInputStream that holds {@link #total()} bytes of
     * the pattern: every skip(n) must return n (0 for n <= 0) in one call, and
     * the byte read after it must be the one at the new offset. Then skips
     * more than what is left, which returns what was left.
     */
    static void skipAndCheck(InputStream in, long total) throws IOException {
        long off = 0;
        for (long n : COUNTS) {
            long expected = Math.max(n, 0);
            assertEquals(expected, in.skip(n), "skip(" + n + ") at offset " + off);
            off += expected;
            assertEquals(NonSeekable.pattern(off) & 0xff, in.read(),
                    "byte read after skip(" + n + ") to offset " + off);
            off++;
        }
        checkPattern(in.readNBytes(100), off);
        off += 100;
        long rest = total - off;
        assertEquals(rest, in.skip(rest + 12345), "skip(" + (rest + 12345) + ") at offset "
                + off + ", " + rest + " bytes before end of stream");
        assertEquals(0, in.skip(1), "skip(1) at end of stream");
        assertEquals(0, in.skip(Long.MAX_VALUE), "skip(Long.MAX_VALUE) at end of stream");
        assertEquals(-1, in.read(), "read at end of stream");
    }

    static void checkPattern(byte[] b, long off) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] != NonSeekable.pattern(off + i))
                fail("byte at offset " + (off + i) + ": " + b[i] + ", expected "
                        + NonSeekable.pattern(off + i));
        }
    }

    /**
     * Calls skip until n bytes are skipped or skip returns 0 (end of stream),
     * on a BufferedInputStream over a FileInputStream: the first call skips
     * what the buffer holds, if anything, the second delegates to the
     * FileInputStream, which skips all the rest up to end of stream; so at
     * most two calls return more than 0. Returns the bytes skipped.
     */
    static long skipBuffered(InputStream in, long n, long off) throws IOException {
        long skipped = 0;
        int calls = 0;
        do {
            long r = in.skip(n - skipped);
            assertTrue(r >= 0 && r <= Math.max(n - skipped, 0),
                    "skip(" + (n - skipped) + ") at offset " + (off + skipped) + " returned " + r);
            if (r == 0)
                break;
            calls++;
            skipped += r;
        } while (skipped < n);
        assertTrue(calls <= 2, calls + " calls to skip " + n + " bytes at offset " + off
                + " (one for the buffer and one for the FileInputStream expected)");
        return skipped;
    }

    /**
     * As {@link #skipAndCheck}, on Process.getInputStream() (a BufferedInputStream):
     * the first skip, on an empty buffer, goes to the FileInputStream in one call.
     */
    static void skipAndCheckBuffered(InputStream in, long total) throws IOException {
        long first = 1 << 20;
        assertEquals(first, in.skip(first), "first skip, on an empty buffer");
        long off = first;
        assertEquals(NonSeekable.pattern(off) & 0xff, in.read(), "byte read at offset " + off);
        off++;
        for (long n : COUNTS) {
            long expected = Math.max(n, 0);
            assertEquals(expected, skipBuffered(in, n, off), "skip(" + n + ") at offset " + off);
            off += expected;
            assertEquals(NonSeekable.pattern(off) & 0xff, in.read(),
                    "byte read after skip(" + n + ") to offset " + off);
            off++;
        }
        checkPattern(in.readNBytes(100), off);
        off += 100;
        long rest = total - off;
        assertEquals(rest, skipBuffered(in, rest + 12345, off), "skip(" + (rest + 12345)
                + ") at offset " + off + ", " + rest + " bytes before end of stream");
        assertEquals(0, in.skip(1), "skip(1) at end of stream");
        assertEquals(-1, in.read(), "read at end of stream");
    }

    // -- child processes --

    /**
     * Process.getInputStream() of a child JVM that writes the pattern in
     * pieces, with pauses.
     */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void testProcessPipe(boolean virtual) throws Exception {
        long total = total() + (1 << 20) + 1;
        Process p = NonSeekable.javaChild(NonSeekable.PatternWriter.class, Long.toString(total))
                .start();
        try (InputStream in = p.getInputStream()) {
            NonSeekable.runIn(virtual, () -> {
                skipAndCheckBuffered(in, total);
                return null;
            });
        } catch (Throwable e) {
            p.destroyForcibly();
            throw e;
        }
        assertEquals(0, NonSeekable.waitFor(p), "exit value of the pattern writer");
    }

    /**
     * Process.getInputStream() of head(1): skip(Long.MAX_VALUE) and skip of
     * more than what there is, on an empty buffer, skip to end of stream in
     * one call.
     */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void testProcessPipeToEnd(boolean virtual) throws Exception {
        for (long n : new long[] { Long.MAX_VALUE, 300_001 }) {
            Process p = new ProcessBuilder("sh", "-c", "head -c 300000 /dev/zero")
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            try (InputStream in = p.getInputStream()) {
                NonSeekable.runIn(virtual, () -> {
                    assertEquals(300_000, in.skip(n), "skip(" + n + ") of 300000 bytes");
                    assertEquals(0, in.skip(n), "skip(" + n + ") at end of stream");
                    assertEquals(-1, in.read(), "read at end of stream");
                    return null;
                });
            } catch (Throwable e) {
                p.destroyForcibly();
                throw e;
            }
            assertEquals(0, NonSeekable.waitFor(p), "exit value of head");
        }
    }

    /**
     * Runs StdinSkipper in a child JVM with the given counts and checks its
     * report against a stream of {@code total} bytes whose byte at offset i is
     * {@code byteAt(i)}.
     */
    static void checkStdinReport(List<String> lines, long[] counts, long total,
                                 LongUnaryOperator byteAt)
    {
        assertEquals(counts.length, lines.size(), "lines reported by the child: " + lines);
        long off = 0;
        for (int i = 0; i < counts.length; i++) {
            long n = counts[i];
            String[] f = lines.get(i).split(" ");
            long skipped = Long.parseLong(f[1]);
            int calls = Integer.parseInt(f[2]);
            int next = Integer.parseInt(f[3]);
            long expected = (n > 0) ? Math.min(n, total - off) : 0;
            String what = "System.in.skip(" + n + ") at offset " + off;
            assertEquals(n, Long.parseLong(f[0]), what + ": count reported");
            assertEquals(expected, skipped, what + ": bytes skipped");
            if (i == 0) {
                assertEquals(1, calls, what + ": calls that skipped, on an empty buffer");
            } else {
                assertTrue(calls <= 2 && (calls > 0) == (skipped > 0),
                        what + ": " + calls + " calls that skipped " + skipped + " bytes");
            }
            off += skipped;
            if (off < total) {
                assertEquals(byteAt.applyAsLong(off), next, what + ": byte read next");
                off++;
            } else {
                assertEquals(-1, next, what + ": read at end of stream");
            }
        }
    }

    static String[] args(String first, long[] counts) {
        String[] args = new String[counts.length + 1];
        args[0] = first;
        for (int i = 0; i < counts.length; i++)
            args[i + 1] = Long.toString(counts[i]);
        return args;
    }

    static List<String> lines(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
        String line;
        while ((line = reader.readLine()) != null)
            lines.add(line);
        return lines;
    }

    /**
     * System.in of a child JVM fed through a pipe, in pieces, by this JVM; the
     * child skips on a platform or virtual thread.
     */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void testStdinPipe(boolean virtual) throws Exception {
        long[] counts = {
            1 << 20, 1, 511, 4096, 65536 + 1, 1 << 20, 0, -1, Long.MIN_VALUE, 3,
            (3 << 20) + 17, 5_000_000, 1
        };
        long total = (6 << 20) + 1_000_000;
        Process p = NonSeekable.javaChild(NonSeekable.StdinSkipper.class,
                args(virtual ? "virtual" : "platform", counts)).start();
        NonSeekable.Feeder feeder = new NonSeekable.Feeder(p.getOutputStream(), total);
        List<String> lines;
        try (InputStream out = p.getInputStream()) {
            lines = lines(out);
        }
        feeder.await();
        assertEquals(0, NonSeekable.waitFor(p), "exit value of the child");
        checkStdinReport(lines, counts, total, i -> NonSeekable.pattern(i) & 0xff);
    }

    /**
     * System.in of a child JVM redirected from /dev/zero.
     */
    @Test
    void testStdinDevZero() throws Exception {
        long[] counts = { 10 << 20, 1, 8192, 0, -1, (10 << 20) + 1 };
        Process p = NonSeekable.javaChild(NonSeekable.StdinSkipper.class,
                args("platform", counts))
                .redirectInput(new File("/dev/zero"))
                .start();
        List<String> lines;
        try (InputStream out = p.getInputStream()) {
            lines = lines(out);
        }
        assertEquals(0, NonSeekable.waitFor(p), "exit value of the child");
        checkStdinReport(lines, counts, Long.MAX_VALUE, i -> 0);
    }

    // -- FIFO --

    /**
     * A FIFO written by another thread, in pieces.
     */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void testFifo(boolean virtual) throws Exception {
        Path fifo = NonSeekable.mkfifo(dir, "fifo-" + virtual);
        long total = total();
        try (NonSeekable.FifoEnds ends = NonSeekable.openFifo(fifo)) {
            NonSeekable.Feeder feeder = new NonSeekable.Feeder(ends.out(), total);
            NonSeekable.runIn(virtual, () -> {
                skipAndCheck(ends.in(), total);
                return null;
            });
            feeder.await();
        }
    }

    // -- character devices --

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void testDevZero(boolean virtual) throws Exception {
        try (FileInputStream in = new FileInputStream("/dev/zero")) {
            NonSeekable.runIn(virtual, () -> {
                for (long n : new long[] { 1, 8192, 10 << 20, 0, -1, Long.MIN_VALUE, 12345 }) {
                    assertEquals(Math.max(n, 0), in.skip(n), "skip(" + n + ") on /dev/zero");
                    assertEquals(0, in.read(), "read after skip(" + n + ") on /dev/zero");
                }
                byte[] b = in.readNBytes(1000);
                assertArrayEquals(new byte[1000], b, "bytes read from /dev/zero");
                return null;
            });
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void testDevUrandom(boolean virtual) throws Exception {
        try (FileInputStream in = new FileInputStream("/dev/urandom")) {
            NonSeekable.runIn(virtual, () -> {
                for (long n : new long[] { 1, 8192, 10 << 20, 0, -1 }) {
                    assertEquals(Math.max(n, 0), in.skip(n), "skip(" + n + ") on /dev/urandom");
                    assertEquals(16, in.readNBytes(16).length);
                }
                return null;
            });
        }
    }

    /** /dev/null: at end of stream from the start. */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void testDevNull(boolean virtual) throws Exception {
        try (FileInputStream in = new FileInputStream("/dev/null")) {
            NonSeekable.runIn(virtual, () -> {
                assertEquals(0, in.skip(100), "skip(100) on /dev/null");
                assertEquals(0, in.skip(Long.MAX_VALUE), "skip(Long.MAX_VALUE) on /dev/null");
                assertEquals(0, in.skip(-1), "skip(-1) on /dev/null");
                assertEquals(-1, in.read(), "read on /dev/null");
                return null;
            });
        }
    }

    // -- sockets --

    /** A connected pair of socket channels: the reader and the writer. */
    record SocketPair(SocketChannel reader, SocketChannel writer) implements AutoCloseable {
        static SocketPair tcp() throws IOException {
            try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
                ssc.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
                return new SocketPair(sc, ssc.accept());
            }
        }

        static SocketPair unix(Path path) throws IOException {
            try (ServerSocketChannel ssc = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
                ssc.bind(UnixDomainSocketAddress.of(path));
                SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
                return new SocketPair(sc, ssc.accept());
            } finally {
                Files.deleteIfExists(path);
            }
        }

        @Override
        public void close() throws IOException {
            try (reader; writer) { }
        }
    }

    /**
     * A FileInputStream over a socket's file descriptor; the peer writes the
     * pattern in pieces, then closes (end of stream).
     */
    static void testSocket(SocketPair pair, boolean virtual) throws Exception {
        try (pair) {
            // opened on this platform thread: the socket stays in blocking mode
            FileInputStream in = NonSeekable.fileInputStream(pair.reader());
            long total = total();
            NonSeekable.Feeder feeder = new NonSeekable.Feeder(
                    Channels.newOutputStream(pair.writer()), total);
            NonSeekable.runIn(virtual, () -> {
                skipAndCheck(in, total);
                return null;
            });
            feeder.await();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void testTcpSocket(boolean virtual) throws Exception {
        testSocket(SocketPair.tcp(), virtual);
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void testUnixSocket(boolean virtual) throws Exception {
        testSocket(SocketPair.unix(dir.resolve("sock-" + virtual)), virtual);
    }

    // -- non-positive counts, closed streams --

    /**
     * skip(n) for n <= 0 returns 0 at once, even when nothing is available,
     * and consumes nothing.
     */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void testNonPositive(boolean virtual) throws Exception {
        Path fifo = NonSeekable.mkfifo(dir, "fifo-nonpositive-" + virtual);
        try (NonSeekable.FifoEnds ends = NonSeekable.openFifo(fifo);
             SocketPair pair = SocketPair.tcp()) {
            FileInputStream socketIn = NonSeekable.fileInputStream(pair.reader());
            for (FileInputStream in : List.of(ends.in(), socketIn)) {
                NonSeekable.runIn(virtual, 60, () -> {
                    for (long n : new long[] { 0, -1, -4096, Long.MIN_VALUE })
                        assertEquals(0, in.skip(n), "skip(" + n + ") with nothing available");
                    return null;
                });
            }
            byte[] data = new byte[10];
            NonSeekable.fillPattern(data, 0, data.length, 0);
            ends.out().write(data);
            pair.writer().write(ByteBuffer.wrap(data));
            for (FileInputStream in : List.of(ends.in(), socketIn)) {
                NonSeekable.runIn(virtual, 60, () -> {
                    for (long n : new long[] { 0, -1, Long.MIN_VALUE })
                        assertEquals(0, in.skip(n), "skip(" + n + ") with 10 bytes available");
                    byte[] b = new byte[10];
                    assertEquals(10, in.readNBytes(b, 0, 10));
                    assertArrayEquals(data, b, "bytes after non-positive skips");
                    return null;
                });
            }
        }
    }

    /**
     * A closed stream: skip throws what read throws ("Stream Closed") once
     * the stream is known not to be a regular file, and returns 0 for n <= 0;
     * before that, skip(1) fails too as it cannot find out the file type.
     */
    @Test
    void testClosed() throws Exception {
        Path fifo = NonSeekable.mkfifo(dir, "fifo-closed");
        for (String name : new String[] { "/dev/zero", "/dev/null", fifo.toString() }) {
            // skip(1) made before the close: the file type is known
            try (NonSeekable.FifoEnds ends = name.equals(fifo.toString())
                    ? NonSeekable.openFifo(fifo) : null;
                 FileInputStream in = (ends != null) ? ends.in() : new FileInputStream(name)) {
                if (ends != null)
                    ends.out().write(new byte[100]);
                assertEquals(name.equals("/dev/null") ? 0 : 1, in.skip(1));
                in.close();
                IOException readEx = assertThrows(IOException.class, () -> in.read(new byte[1]));
                IOException skipEx = assertThrows(IOException.class, () -> in.skip(1),
                        "skip(1) on closed " + name);
                assertEquals(readEx.getMessage(), skipEx.getMessage(), "skip(1) on closed " + name);
                assertEquals("Stream Closed", skipEx.getMessage());
                assertThrows(IOException.class, () -> in.skip(Long.MAX_VALUE));
                assertEquals(0, in.skip(0), "skip(0) on closed " + name);
                assertEquals(0, in.skip(-1), "skip(-1) on closed " + name);
            }
            // closed before any skip: the file type is not known
            try (NonSeekable.FifoEnds ends = name.equals(fifo.toString())
                    ? NonSeekable.openFifo(fifo) : null;
                 FileInputStream in = (ends != null) ? ends.in() : new FileInputStream(name)) {
                in.close();
                assertThrows(IOException.class, () -> in.skip(1), "skip(1) on closed " + name);
            }
        }
    }
}

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
 * @summary InputStream.skip on the streams of channels and sockets: pipes,
 *     FIFOs, files, TCP and Unix domain socket channels, Socket streams and a
 *     custom channel, on platform and virtual threads, with random mixes of
 *     skip, read and available, checking every byte that follows a skip
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory SkipSource
 * @run junit/timeout=480 SkipStreams
 */

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.Pipe;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;

import jdk.test.lib.RandomFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.*;

public class SkipStreams {
    private static final Random RAND = RandomFactory.getRandom();

    static Stream<Arguments> sources() {
        return SkipSource.Kind.available().stream()
                .flatMap(k -> Stream.of(Arguments.of(k, false), Arguments.of(k, true)));
    }

    static Stream<Arguments> streamSources() {
        return SkipSource.Kind.available().stream()
                .filter(SkipSource.Kind::isStream)
                .flatMap(k -> Stream.of(Arguments.of(k, false), Arguments.of(k, true)));
    }

    /** A skip count: non-positive sometimes, small often, up to 1 MiB. */
    static long randomCount(Random rand) {
        int c = rand.nextInt(20);
        if (c == 0)
            return -rand.nextInt(3) * (long) rand.nextInt(1 << 20);  // <= 0
        if (c == 1)
            return Long.MAX_VALUE;
        return 1 + rand.nextInt(1 << rand.nextInt(21));
    }

    /**
     * Random mix of skip, read(byte[]), read() and available() on a source
     * fed by a producer thread, to end of stream. Every skip must return
     * min(n, remaining) (0 for n <= 0) and leave the stream at the byte a
     * read-and-discard would have left.
     */
    @ParameterizedTest
    @MethodSource("sources")
    void testRandomMix(SkipSource.Kind kind, boolean virtual) throws Exception {
        long seed = RAND.nextLong();
        Random rand = new Random(seed);
        long total = 1 + rand.nextInt(4 << 20);
        System.err.format("%s %s total=%d seed=%d%n", kind, virtual ? "virtual" : "platform", total, seed);
        try (SkipSource src = SkipSource.open(kind, total)) {
            Thread producer = null;
            if (kind.isStream()) {
                producer = Thread.ofPlatform().start(() -> {
                    Random r = new Random(seed + 1);
                    try {
                        long pos = 0;
                        while (pos < total) {
                            int len = (int) Math.min(total - pos, 1 + r.nextInt(1 << r.nextInt(18)));
                            src.writePattern(pos, len);
                            pos += len;
                        }
                        src.closeOutput();
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                });
            }
            long read = SkipSource.runIn(virtual, () -> consume(src.in, total, rand, !kind.isStream()));
            assertEquals(total, read);
            if (producer != null)
                producer.join();
        }
    }

    /**
     * Consumes the stream with a random mix of operations; returns the bytes
     * consumed. A seekable file skips backwards for n < 0.
     */
    static long consume(InputStream in, long total, Random rand, boolean seekable)
        throws IOException
    {
        long off = 0;
        byte[] buf = new byte[1 << 16];
        while (true) {
            int op = rand.nextInt(10);
            if (op < 5) {
                long n = randomCount(rand);
                long expected = (n > 0) ? Math.min(n, total - off)
                        : seekable ? Math.max(n, -off) : 0;
                long skipped = in.skip(n);
                assertEquals(expected, skipped, "skip(" + n + ") at " + off);
                off += skipped;
                // check the byte that follows
                int b = in.read();
                if (off == total) {
                    assertEquals(-1, b, "read after skip to end");
                    break;
                }
                assertEquals(SkipSource.pattern(off) & 0xff, b, "byte at " + off + " after skip(" + n + ")");
                off++;
            } else if (op < 8) {
                int len = 1 + rand.nextInt(buf.length);
                int n = in.read(buf, 0, len);
                if (n < 0) {
                    assertEquals(total, off, "EOF at " + off);
                    break;
                }
                for (int i = 0; i < n; i++) {
                    if (buf[i] != SkipSource.pattern(off + i))
                        fail("byte at " + (off + i) + " after read");
                }
                off += n;
            } else if (op == 8) {
                int a = in.available();
                assertTrue(a >= 0 && a <= total - off, "available " + a + " at " + off);
            } else {
                int b = in.read();
                if (b < 0) {
                    assertEquals(total, off, "EOF at " + off);
                    break;
                }
                assertEquals(SkipSource.pattern(off) & 0xff, b, "byte at " + off);
                off++;
            }
        }
        // at end of stream
        assertEquals(0, in.skip(1));
        assertEquals(0, in.skip(Long.MAX_VALUE));
        assertEquals(-1, in.read());
        return off;
    }

    /**
     * skip(n) of exactly what is there, then more than what is there.
     */
    @ParameterizedTest
    @MethodSource("streamSources")
    void testPartialThenEOF(SkipSource.Kind kind, boolean virtual) throws Exception {
        try (SkipSource src = SkipSource.open(kind, 0)) {
            int size = 100_000 + RAND.nextInt(100_000);
            Thread producer = Thread.ofPlatform().start(() -> {
                try {
                    src.writePattern(0, size);
                    src.closeOutput();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            SkipSource.runIn(virtual, () -> {
                assertEquals(0, src.in.skip(0));
                assertEquals(0, src.in.skip(-1));
                assertEquals(0, src.in.skip(Long.MIN_VALUE));
                assertEquals(1000, src.in.skip(1000));
                assertEquals(SkipSource.pattern(1000) & 0xff, src.in.read());
                assertEquals(size - 1001 - 10, src.in.skip(size - 1001 - 10));
                assertEquals(SkipSource.pattern(size - 10) & 0xff, src.in.read());
                // 9 bytes left
                assertEquals(9, src.in.skip(1_000_000));
                assertEquals(0, src.in.skip(1));
                assertEquals(-1, src.in.read());
                return null;
            });
            producer.join();
        }
    }

    /**
     * skip on a closed stream throws what read throws; skip(n <= 0) returns 0.
     */
    @ParameterizedTest
    @MethodSource("sources")
    void testClosed(SkipSource.Kind kind, boolean virtual) throws Exception {
        try (SkipSource src = SkipSource.open(kind, 1000)) {
            if (kind.isStream())
                src.writePattern(0, 1000);
            src.in.close();
            SkipSource.runIn(virtual, () -> {
                Class<?> readEx = exceptionOf(() -> src.in.read(new byte[10]));
                Class<?> skipEx = exceptionOf(() -> src.in.skip(10));
                assertNotNull(readEx, "read on closed stream");
                assertEquals(readEx, skipEx);
                if (kind == SkipSource.Kind.FIFO) {
                    // whether the file is seekable is not known yet, and cannot be found out
                    assertThrows(ClosedChannelException.class, () -> src.in.skip(0));
                } else if (kind.isStream()) {
                    assertEquals(0, src.in.skip(0));
                    assertEquals(0, src.in.skip(-1));
                }
                return null;
            });
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

    /**
     * A non-blocking selectable channel: IllegalBlockingModeException, as read.
     */
    @Test
    void testNonBlockingPipe() throws Exception {
        Pipe p = Pipe.open();
        try (Pipe.SinkChannel sink = p.sink(); Pipe.SourceChannel source = p.source()) {
            source.configureBlocking(false);
            InputStream in = Channels.newInputStream(source);
            assertThrows(IllegalBlockingModeException.class, () -> in.read());
            assertThrows(IllegalBlockingModeException.class, () -> in.skip(1));
            assertEquals(0, in.skip(0));
            source.configureBlocking(true);
            sink.write(java.nio.ByteBuffer.wrap(new byte[100]));
            assertEquals(60, in.skip(60));
            sink.close();
            assertEquals(40, in.skip(100));
        }
    }

    @Test
    void testNonBlockingSocketChannel() throws Exception {
        try (SkipSource src = SkipSource.open(SkipSource.Kind.TCP_CHANNEL, 0)) {
            SocketChannel sc = ((SkipSource.SocketChannelSource) src).sc;
            sc.configureBlocking(false);
            assertThrows(IllegalBlockingModeException.class, () -> src.in.read());
            assertThrows(IllegalBlockingModeException.class, () -> src.in.skip(1));
            assertEquals(0, src.in.skip(0));
        }
    }

    /**
     * Input shut down: end of stream, as read.
     */
    @ParameterizedTest
    @MethodSource("streamSources")
    void testShutdownInput(SkipSource.Kind kind, boolean virtual) throws Exception {
        try (SkipSource src = SkipSource.open(kind, 0)) {
            src.writePattern(0, 5000);
            if (src instanceof SkipSource.SocketChannelSource s) {
                s.sc.shutdownInput();
            } else if (src instanceof SkipSource.SocketSource s) {
                s.s.shutdownInput();
            } else {
                return;
            }
            SkipSource.runIn(virtual, () -> {
                assertEquals(0, src.in.skip(10));
                assertEquals(-1, src.in.read());
                return null;
            });
        }
    }

    /**
     * Character devices, where Linux's splice refuses and skip reads instead.
     */
    @Test
    void testCharacterDevices() throws Exception {
        Path zero = Path.of("/dev/zero");
        if (!Files.exists(zero))
            return;
        try (InputStream in = Files.newInputStream(zero)) {
            for (int i = 0; i < 20; i++) {
                long n = 1 + RAND.nextInt(1 << RAND.nextInt(22));
                assertEquals(n, in.skip(n));
                byte[] b = in.readNBytes(100);
                assertEquals(100, b.length);
                for (byte x : b)
                    assertEquals(0, x);
            }
            assertEquals(0, in.skip(0));
        }
        Path urandom = Path.of("/dev/urandom");
        if (Files.exists(urandom)) {
            try (InputStream in = Files.newInputStream(urandom)) {
                assertEquals(1_000_000, in.skip(1_000_000));
                assertEquals(10, in.readNBytes(10).length);
            }
        }
    }
}

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
 * @summary FileInputStream.skip of more than 2 GiB on /dev/zero, on the
 *     stdout pipe of a child process (Process.getInputStream) and on a TCP
 *     socket file descriptor: the count returned does not overflow an int,
 *     and the bytes that follow are there
 * @requires os.family != "windows"
 * @requires sun.arch.data.model == "64"
 * @modules java.base/java.io:+open java.base/sun.nio.ch:+open
 * @build NonSeekable
 * @run junit/othervm/timeout=900 SkipNonSeekableLarge
 */

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

public class SkipNonSeekableLarge {

    /** More than 2 GiB, not a multiple of any buffer size. */
    static final long LARGE = (1L << 31) + 12345;

    @Test
    void testDevZero() throws Exception {
        try (FileInputStream in = new FileInputStream("/dev/zero")) {
            long start = System.nanoTime();
            assertEquals(LARGE, in.skip(LARGE), "skip(" + LARGE + ") on /dev/zero");
            System.err.format("/dev/zero: skipped %d bytes in %d ms%n", LARGE,
                    (System.nanoTime() - start) / 1_000_000);
            assertEquals(0, in.read());
        }
    }

    /**
     * A child writes LARGE zeros, then three bytes 1, 2, 3; skip(LARGE) on
     * an empty buffer reaches the FileInputStream in one call.
     */
    @Test
    void testPipe() throws Exception {
        Process p = new ProcessBuilder("sh", "-c",
                "head -c " + LARGE + " /dev/zero && printf '\\001\\002\\003'")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try (InputStream in = p.getInputStream()) {
            long start = System.nanoTime();
            assertEquals(LARGE, in.skip(LARGE), "skip(" + LARGE + ") of the pipe");
            System.err.format("pipe: skipped %d bytes in %d ms%n", LARGE,
                    (System.nanoTime() - start) / 1_000_000);
            assertEquals(1, in.read(), "byte after skip(" + LARGE + ")");
            assertEquals(2, in.read());
            assertEquals(3, in.read());
            assertEquals(0, in.skip(10), "skip at end of stream");
            assertEquals(-1, in.read(), "read at end of stream");
        } catch (Throwable e) {
            p.destroyForcibly();
            throw e;
        }
        assertEquals(0, NonSeekable.waitFor(p), "exit value of sh");
    }

    /**
     * skip(Long.MAX_VALUE) of a pipe that carries more than 2 GiB returns at
     * end of stream with the exact count.
     */
    @Test
    void testPipeToEnd() throws Exception {
        long total = (1L << 31) + 1;
        Process p = new ProcessBuilder("head", "-c", Long.toString(total), "/dev/zero")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try (InputStream in = p.getInputStream()) {
            long start = System.nanoTime();
            assertEquals(total, in.skip(Long.MAX_VALUE), "skip(Long.MAX_VALUE) of " + total + " bytes");
            System.err.format("pipe: skipped %d bytes to end of stream in %d ms%n", total,
                    (System.nanoTime() - start) / 1_000_000);
            assertEquals(-1, in.read(), "read at end of stream");
        } catch (Throwable e) {
            p.destroyForcibly();
            throw e;
        }
        assertEquals(0, NonSeekable.waitFor(p), "exit value of head");
    }

    /**
     * The peer of a TCP socket writes LARGE zeros, then 1, 2, 3, then closes.
     */
    @Test
    void testTcpSocket() throws Exception {
        try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
            ssc.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
                 SocketChannel peer = ssc.accept()) {
                // never closed: the channel owns the file descriptor
                FileInputStream in = NonSeekable.fileInputStream(sc);
                Thread writer = Thread.ofPlatform().start(() -> {
                    ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
                    try (peer) {
                        long remaining = LARGE;
                        while (remaining > 0) {
                            zeros.clear().limit((int) Math.min(zeros.capacity(), remaining));
                            remaining -= peer.write(zeros);
                        }
                        ByteBuffer tail = ByteBuffer.wrap(new byte[] { 1, 2, 3 });
                        while (tail.hasRemaining())
                            peer.write(tail);
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                });
                long start = System.nanoTime();
                assertEquals(LARGE, in.skip(LARGE), "skip(" + LARGE + ") of a TCP socket");
                System.err.format("TCP socket: skipped %d bytes in %d ms%n", LARGE,
                        (System.nanoTime() - start) / 1_000_000);
                assertEquals(1, in.read(), "byte after skip(" + LARGE + ")");
                assertEquals(2, in.read());
                assertEquals(3, in.read());
                assertEquals(0, in.skip(10), "skip at end of stream");
                assertEquals(-1, in.read(), "read at end of stream");
                writer.join();
            }
        }
    }
}

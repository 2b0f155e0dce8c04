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
 * @summary InputStream.skip on Socket streams with a read timeout: times out
 *     as read does (SocketTimeoutException, socket still usable), with the
 *     timeout applying to each wait for bytes, not to the whole skip
 * @run junit/timeout=240 SkipTimeout
 */

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.*;

public class SkipTimeout {

    interface Body { void run(Socket s, OutputStream peer) throws Exception; }

    static Stream<Arguments> cases() {
        // Socket.getInputStream() of a Socket, or of a SocketChannel's adaptor
        return Stream.of(false, true).flatMap(adaptor ->
                Stream.of(false, true).map(virtual -> Arguments.of(adaptor, virtual)));
    }

    static void withConnection(boolean adaptor, boolean virtual, Body body) throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
            InetSocketAddress sa = (InetSocketAddress) ss.getLocalSocketAddress();
            try (Socket s = adaptor ? SocketChannel.open(sa).socket() : new Socket(sa.getAddress(), sa.getPort());
                 Socket peer = ss.accept()) {
                CompletableFuture<Void> done = new CompletableFuture<>();
                Runnable task = () -> {
                    try {
                        body.run(s, peer.getOutputStream());
                        done.complete(null);
                    } catch (Throwable e) {
                        done.completeExceptionally(e);
                    }
                };
                Thread t = virtual ? Thread.ofVirtual().start(task) : Thread.ofPlatform().start(task);
                try {
                    done.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Exception x)
                        throw x;
                    throw (Error) e.getCause();
                } finally {
                    t.join();
                }
            }
        }
    }

    static byte[] bytes(int from, int len) {
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++)
            b[i] = (byte) (from + i);
        return b;
    }

    /**
     * Nothing to skip: SocketTimeoutException after the timeout; the socket
     * stays open and skip then works.
     */
    @ParameterizedTest
    @MethodSource("cases")
    void testTimeout(boolean adaptor, boolean virtual) throws Exception {
        withConnection(adaptor, virtual, (s, peer) -> {
            s.setSoTimeout(300);
            InputStream in = s.getInputStream();
            long start = System.nanoTime();
            assertThrows(SocketTimeoutException.class, () -> in.skip(10));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis >= 250, "timed out after " + millis + "ms");
            assertFalse(s.isClosed());
            peer.write(bytes(0, 100));
            assertEquals(60, in.skip(60));
            assertEquals(60, in.read());
        });
    }

    /**
     * Some bytes, then none: as a loop of reads, the bytes are consumed and
     * the skip times out; the next bytes are the ones written after.
     */
    @ParameterizedTest
    @MethodSource("cases")
    void testTimeoutAfterProgress(boolean adaptor, boolean virtual) throws Exception {
        withConnection(adaptor, virtual, (s, peer) -> {
            s.setSoTimeout(300);
            InputStream in = s.getInputStream();
            peer.write(bytes(0, 50));
            assertThrows(SocketTimeoutException.class, () -> in.skip(100));
            peer.write(bytes(50, 10));
            assertEquals(50, in.read());
            assertEquals(5, in.skip(5));
            assertEquals(56, in.read());
        });
    }

    /**
     * Bytes that trickle in, each batch within the timeout but the whole
     * skip taking longer: the timeout is per wait, so skip completes.
     */
    @ParameterizedTest
    @MethodSource("cases")
    void testTrickle(boolean adaptor, boolean virtual) throws Exception {
        withConnection(adaptor, virtual, (s, peer) -> {
            s.setSoTimeout(1000);
            InputStream in = s.getInputStream();
            Thread writer = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < 10; i++) {
                        Thread.sleep(200);
                        peer.write(bytes(i * 10, 10));
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            long start = System.nanoTime();
            assertEquals(95, in.skip(95));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis >= 1500, "skip took " + millis + "ms");
            assertEquals(95, in.read());
            writer.join();
        });
    }
}

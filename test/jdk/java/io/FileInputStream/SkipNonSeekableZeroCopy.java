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
 * @summary On Linux, FileInputStream.skip on a file that is not a regular file
 *     discards the bytes without reading them into the Java heap: skip(1 MiB)
 *     on /dev/zero, a FIFO, Process.getInputStream() and TCP and Unix domain
 *     socket file descriptors allocates (almost) nothing, where reading into a
 *     skip buffer (InputStream.skip) allocates a 2 KiB array per call
 * @requires os.family == "linux"
 * @modules java.base/java.io:+open java.base/sun.nio.ch:+open jdk.management
 * @build NonSeekable
 * @run junit/othervm SkipNonSeekableZeroCopy
 */

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

public class SkipNonSeekableZeroCopy {

    /** The count of each skip. */
    static final long N = 1 << 20;

    /** Skips before the measured ones, to load and link what skip uses. */
    static final int WARMUP = 64;

    /** Measured skips. */
    static final int CALLS = 32;

    /** The most a measured skip may allocate on the heap, on average. */
    static final long LIMIT = 1024;

    static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    static Path dir;

    @BeforeAll
    static void setup() throws IOException {
        assertTrue(THREADS.isThreadAllocatedMemorySupported());
        THREADS.setThreadAllocatedMemoryEnabled(true);
        dir = NonSeekable.tempDir();
    }

    @AfterAll
    static void removeDir() throws IOException {
        NonSeekable.deleteDir(dir);
    }

    /**
     * Skips N bytes WARMUP times, then measures the heap allocated by the
     * current (platform) thread over CALLS skips of N bytes.
     */
    static void checkNoAllocation(String what, InputStream in) throws IOException {
        for (int i = 0; i < WARMUP; i++)
            assertEquals(N, in.skip(N), what + ": skip(" + N + ")");

        // what measuring itself costs
        long t0 = THREADS.getCurrentThreadAllocatedBytes();
        long t1 = THREADS.getCurrentThreadAllocatedBytes();
        long overhead = t1 - t0;

        long before = THREADS.getCurrentThreadAllocatedBytes();
        int wrong = 0;
        for (int i = 0; i < CALLS; i++) {
            if (in.skip(N) != N)
                wrong++;
        }
        long after = THREADS.getCurrentThreadAllocatedBytes();
        assertEquals(0, wrong, what + ": skip(" + N + ") returned less");

        long perCall = (after - before - overhead) / CALLS;
        System.err.println(what + ": " + perCall + " bytes allocated per skip(" + N + ")");
        assertTrue(perCall < LIMIT, what + ": skip(" + N + ") allocated " + perCall
                + " bytes per call on the Java heap, expected less than " + LIMIT
                + ": the skip read the bytes into a heap buffer (InputStream.skip allocates"
                + " a 2048-byte array per call) instead of discarding them natively");
    }

    /** A platform thread that writes zeros to a stream until it fails (closed reader). */
    static Thread startWriter(IOAction write) {
        return Thread.ofPlatform().daemon().name("writer").start(() -> {
            try {
                while (true)
                    write.run();
            } catch (IOException e) {
                // reader closed
            }
        });
    }

    interface IOAction { void run() throws IOException; }

    @Test
    void testDevZero() throws Exception {
        try (FileInputStream in = new FileInputStream("/dev/zero")) {
            checkNoAllocation("/dev/zero", in);
        }
    }

    @Test
    void testFifo() throws Exception {
        Path fifo = NonSeekable.mkfifo(dir, "fifo");
        NonSeekable.FifoEnds ends = NonSeekable.openFifo(fifo);
        byte[] zeros = new byte[1 << 16];
        Thread writer = startWriter(() -> ends.out().write(zeros));
        try (ends) {
            checkNoAllocation("FIFO", ends.in());
        }
        writer.join();
    }

    @Test
    void testProcessPipe() throws Exception {
        Process p = new ProcessBuilder("cat", "/dev/zero")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try (InputStream in = p.getInputStream()) {
            checkNoAllocation("Process.getInputStream()", in);
        } finally {
            p.destroy();
            NonSeekable.waitFor(p);
        }
    }

    static void testSocket(String what, SocketChannel reader, SocketChannel writer)
        throws Exception
    {
        try (reader; writer) {
            // never closed: the channel owns the file descriptor
            FileInputStream in = NonSeekable.fileInputStream(reader);
            ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 16);
            Thread t = startWriter(() -> writer.write(zeros.clear()));
            try {
                checkNoAllocation(what, in);
            } finally {
                reader.close();
                writer.close();
                t.join();
            }
        }
    }

    @Test
    void testTcpSocket() throws Exception {
        try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
            ssc.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
            testSocket("TCP socket", sc, ssc.accept());
        }
    }

    @Test
    void testUnixSocket() throws Exception {
        Path path = dir.resolve("sock");
        try (ServerSocketChannel ssc = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            ssc.bind(UnixDomainSocketAddress.of(path));
            SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
            SocketChannel peer = ssc.accept();
            Files.delete(path);
            testSocket("Unix domain socket", sc, peer);
        }
    }
}

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
package org.openjdk.bench.java.nio;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.*;

/**
 * The consumer's cost of InputStream.skip on channel and socket streams,
 * against reading the same bytes into a buffer and discarding them.
 *
 * <p> Buffered: the bytes are already in the pipe or socket receive buffer
 * when the measured skip (or read) starts. They are written by the
 * benchmark thread in a {@code Level.Invocation} setup, outside the measured
 * region; for sockets the setup also waits until {@code available()} sees
 * all of them, so the measured operation never waits for the network stack.
 * A pipe holds 64 KiB, hence no 1 MiB pipe case. The per-invocation timing
 * adds the same small overhead (two timestamps) on every JDK and method.
 *
 * <p> Streaming: a producer thread keeps the pipe or socket full, writing
 * with FileChannel.transferTo from a file in the page cache (sendfile: no
 * copy through user space), so that it outruns the consumer; each measured
 * operation skips (or reads) size bytes, waiting for them if needed.
 *
 * <p> {@code pipeCSplice} is the floor for pipes: splice(2) of the buffered
 * bytes into /dev/null called directly (through the FFM API) on a pipe made
 * with pipe(2), measured in the same run and the same way as the others.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = { "-Xms512m", "-Xmx512m", "--enable-native-access=ALL-UNNAMED" })
public class ChannelInputStreamSkip {

    private static final int READ_BUFFER = 8192;

    /** Reads n bytes into a buffer that is thrown away: what skip does by default. */
    static long readDiscard(InputStream in, byte[] buf, long n) throws IOException {
        long remaining = n;
        while (remaining > 0) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, remaining));
            if (r < 0)
                break;
            remaining -= r;
        }
        return n - remaining;
    }

    static void writeFully(WritableByteChannel ch, ByteBuffer bb) throws IOException {
        while (bb.hasRemaining())
            ch.write(bb);
    }

    // -- Buffered: pipe --

    @State(Scope.Thread)
    public static class BufferedPipe {
        @Param({"512", "8192", "65536"})
        int size;

        Pipe.SinkChannel sink;
        InputStream in;
        ByteBuffer data;
        byte[] buf = new byte[READ_BUFFER];

        @Setup(Level.Trial)
        public void open() throws IOException {
            Pipe p = Pipe.open();
            sink = p.sink();
            in = Channels.newInputStream(p.source());
            data = ByteBuffer.allocateDirect(size);
        }

        @Setup(Level.Invocation)
        public void fill() throws IOException {
            writeFully(sink, data.clear());
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            sink.close();
            in.close();
        }
    }

    @Benchmark
    public long pipeSkip(BufferedPipe s) throws IOException {
        return s.in.skip(s.size);
    }

    @Benchmark
    public long pipeRead(BufferedPipe s) throws IOException {
        return readDiscard(s.in, s.buf, s.size);
    }

    // -- Buffered: pipe, C floor --

    @State(Scope.Thread)
    public static class BufferedCPipe {
        @Param({"512", "8192", "65536"})
        int size;

        MethodHandle write, splice, close;
        int rfd, wfd, devNull;
        MemorySegment data;
        Arena arena;

        @Setup(Level.Trial)
        public void open() throws Throwable {
            Linker linker = Linker.nativeLinker();
            var libc = linker.defaultLookup();
            var I = ValueLayout.JAVA_INT;
            var L = ValueLayout.JAVA_LONG;
            var A = ValueLayout.ADDRESS;
            MethodHandle pipe = linker.downcallHandle(libc.find("pipe").orElseThrow(),
                    FunctionDescriptor.of(I, A));
            MethodHandle open = linker.downcallHandle(libc.find("open").orElseThrow(),
                    FunctionDescriptor.of(I, A, I), Linker.Option.firstVariadicArg(2));
            write = linker.downcallHandle(libc.find("write").orElseThrow(),
                    FunctionDescriptor.of(L, I, A, L));
            splice = linker.downcallHandle(libc.find("splice").orElseThrow(),
                    FunctionDescriptor.of(L, I, A, I, A, L, I));
            close = linker.downcallHandle(libc.find("close").orElseThrow(),
                    FunctionDescriptor.of(I, I));
            arena = Arena.ofConfined();
            MemorySegment fds = arena.allocate(I, 2);
            if ((int) pipe.invokeExact(fds) != 0)
                throw new IOException("pipe");
            rfd = fds.getAtIndex(I, 0);
            wfd = fds.getAtIndex(I, 1);
            devNull = (int) open.invokeExact(arena.allocateFrom("/dev/null"), 1 /* O_WRONLY */);
            if (devNull < 0)
                throw new IOException("open /dev/null");
            data = arena.allocate(size);
        }

        @Setup(Level.Invocation)
        public void fill() throws Throwable {
            if ((long) write.invokeExact(wfd, data, (long) size) != size)
                throw new IOException("write");
        }

        @TearDown(Level.Trial)
        public void close() throws Throwable {
            int r = (int) close.invokeExact(rfd);
            r = (int) close.invokeExact(wfd);
            r = (int) close.invokeExact(devNull);
            arena.close();
        }
    }

    @Benchmark
    public long pipeCSplice(BufferedCPipe s) throws Throwable {
        long n = (long) s.splice.invokeExact(s.rfd, MemorySegment.NULL, s.devNull,
                MemorySegment.NULL, (long) s.size, 0);
        if (n != s.size)
            throw new IOException("splice " + n);
        return n;
    }

    // -- Buffered: sockets --

    @State(Scope.Thread)
    public static class BufferedSocket {
        /**
         * tcp: Channels.newInputStream(SocketChannel); socket: Socket.getInputStream();
         * unix: Channels.newInputStream(SocketChannel) of a Unix domain socket.
         */
        @Param({"tcp", "socket", "unix"})
        String source;

        @Param({"512", "8192", "65536", "1048576"})
        int size;

        Path dir;
        AutoCloseable[] closeables;
        WritableByteChannel out;
        OutputStream outStream;
        InputStream in;
        ByteBuffer data;
        byte[] bytes;
        byte[] buf = new byte[READ_BUFFER];

        @Setup(Level.Trial)
        public void open() throws IOException {
            data = ByteBuffer.allocateDirect(size);
            bytes = new byte[size];
            switch (source) {
                case "tcp" -> {
                    try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
                        ssc.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
                        ssc.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                        SocketChannel sc = SocketChannel.open();
                        sc.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
                        sc.connect(ssc.getLocalAddress());
                        SocketChannel peer = ssc.accept();
                        peer.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
                        out = peer;
                        in = Channels.newInputStream(sc);
                        closeables = new AutoCloseable[] { sc, peer };
                    }
                }
                case "socket" -> {
                    try (ServerSocket ss = new ServerSocket()) {
                        ss.setReceiveBufferSize(4 << 20);
                        ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                        Socket s = new Socket();
                        s.setReceiveBufferSize(4 << 20);
                        s.connect(ss.getLocalSocketAddress());
                        Socket peer = ss.accept();
                        peer.setSendBufferSize(4 << 20);
                        outStream = peer.getOutputStream();
                        in = s.getInputStream();
                        closeables = new AutoCloseable[] { s, peer };
                    }
                }
                case "unix" -> {
                    dir = Files.createTempDirectory("skipbench");
                    try (ServerSocketChannel ssc = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
                        ssc.bind(UnixDomainSocketAddress.of(dir.resolve("sock")));
                        SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
                        SocketChannel peer = ssc.accept();
                        peer.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
                        out = peer;
                        in = Channels.newInputStream(sc);
                        closeables = new AutoCloseable[] { sc, peer };
                    }
                }
                default -> throw new IllegalArgumentException(source);
            }
        }

        @Setup(Level.Invocation)
        public void fill() throws IOException, InterruptedException {
            if (out != null) {
                writeFully(out, data.clear());
            } else {
                outStream.write(bytes);
            }
            // wait until all of it is in the receive buffer
            while (in.available() < size)
                Thread.onSpinWait();
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            for (AutoCloseable c : closeables)
                c.close();
            if (dir != null) {
                Files.deleteIfExists(dir.resolve("sock"));
                Files.delete(dir);
            }
        }
    }

    @Benchmark
    public long socketSkip(BufferedSocket s) throws IOException {
        return s.in.skip(s.size);
    }

    @Benchmark
    public long socketRead(BufferedSocket s) throws IOException {
        return readDiscard(s.in, s.buf, s.size);
    }

    // -- Streaming --

    @State(Scope.Thread)
    public static class Streaming {
        /** pipe: Channels.newInputStream(Pipe.SourceChannel); tcp: of a SocketChannel. */
        @Param({"pipe", "tcp"})
        String source;

        @Param({"512", "8192", "65536", "1048576"})
        int size;

        Path file;
        FileChannel fc;
        WritableByteChannel out;
        AutoCloseable[] closeables;
        InputStream in;
        Thread producer;
        volatile boolean done;
        byte[] buf = new byte[READ_BUFFER];

        @Setup(Level.Trial)
        public void open() throws IOException {
            file = Files.createTempFile("skipbench", ".dat");
            Files.write(file, new byte[16 << 20]);
            fc = FileChannel.open(file, StandardOpenOption.READ);
            if (source.equals("pipe")) {
                Pipe p = Pipe.open();
                out = p.sink();
                in = Channels.newInputStream(p.source());
                closeables = new AutoCloseable[] { p.sink(), p.source() };
            } else {
                try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
                    ssc.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                    SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
                    SocketChannel peer = ssc.accept();
                    out = peer;
                    in = Channels.newInputStream(sc);
                    closeables = new AutoCloseable[] { sc, peer };
                }
            }
            producer = Thread.ofPlatform().daemon().start(() -> {
                try {
                    long pos = 0;
                    long size = fc.size();
                    while (!done) {
                        pos += fc.transferTo(pos, size - pos, out);
                        if (pos == size)
                            pos = 0;
                    }
                } catch (IOException e) {
                    if (!done)
                        throw new RuntimeException(e);
                }
            });
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            done = true;
            for (AutoCloseable c : closeables)
                c.close();
            producer.join();
            fc.close();
            Files.delete(file);
        }
    }

    @Benchmark
    public long streamSkip(Streaming s) throws IOException {
        return s.in.skip(s.size);
    }

    @Benchmark
    public long streamRead(Streaming s) throws IOException {
        return readDiscard(s.in, s.buf, s.size);
    }
}

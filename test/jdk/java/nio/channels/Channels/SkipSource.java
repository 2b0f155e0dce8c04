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

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Sources of bytes for the skip tests: an input stream under test, connected
 * to a producer that writes to it. Every source carries the same content, a
 * function of the offset ({@link #pattern}), so a reader can check any byte
 * after any mix of reads and skips.
 */
abstract class SkipSource implements AutoCloseable {

    /** The kinds of source. */
    enum Kind {
        PIPE,           // Channels.newInputStream(Pipe.SourceChannel)
        FIFO,           // Files.newInputStream(FIFO), Unix
        FILE,           // Files.newInputStream(regular file), seekable
        TCP_CHANNEL,    // Channels.newInputStream(SocketChannel), TCP
        UNIX_CHANNEL,   // Channels.newInputStream(SocketChannel), Unix domain
        SOCKET,         // Socket.getInputStream()
        ADAPTOR,        // SocketChannel.socket().getInputStream()
        CUSTOM;         // Channels.newInputStream(a ReadableByteChannel of the test)

        /** The kinds that exist on this platform. */
        static List<Kind> available() {
            List<Kind> kinds = new ArrayList<>(List.of(values()));
            if (System.getProperty("os.name").startsWith("Windows"))
                kinds.remove(FIFO);
            return kinds;
        }

        /** Whether this kind blocks for more input (not a regular file). */
        boolean isStream() {
            return this != FILE;
        }
    }

    /** The byte at the given offset of every source. */
    static byte pattern(long offset) {
        return (byte) ((offset * 0x9E3779B97F4A7C15L) >>> 56);
    }

    /** Fills b[off..off+len) with the pattern, starting at offset pos. */
    static void fill(byte[] b, int off, int len, long pos) {
        for (int i = 0; i < len; i++)
            b[off + i] = pattern(pos + i);
    }

    final Kind kind;
    final InputStream in;

    SkipSource(Kind kind, InputStream in) {
        this.kind = kind;
        this.in = in;
    }

    /** Writes bytes to the source; a regular file is written before it is opened. */
    abstract void write(byte[] b, int off, int len) throws IOException;

    /** Closes the writing side: the stream then reads to end of stream. */
    abstract void closeOutput() throws IOException;

    /** Closes the reading side, as an asynchronous close of the stream's channel or socket. */
    void closeInput() throws IOException {
        in.close();
    }

    @Override
    public void close() throws IOException {
        try {
            closeOutput();
        } finally {
            in.close();
        }
    }

    @Override
    public String toString() {
        return kind.toString();
    }

    /** Writes the pattern [from, from+len) to the source. */
    void writePattern(long from, int len) throws IOException {
        byte[] b = new byte[len];
        fill(b, 0, len, from);
        write(b, 0, len);
    }

    /**
     * Opens a source of the given kind. A FILE is created with content bytes
     * of the pattern (and no writer); other kinds are empty until written.
     */
    static SkipSource open(Kind kind, long content) throws Exception {
        return switch (kind) {
            case PIPE -> {
                Pipe p = Pipe.open();
                yield new ChannelSource(kind, p.sink(), Channels.newInputStream(p.source()));
            }
            case CUSTOM -> {
                Pipe p = Pipe.open();
                ReadableByteChannel src = p.source();
                ReadableByteChannel custom = new ReadableByteChannel() {
                    public int read(ByteBuffer dst) throws IOException { return src.read(dst); }
                    public boolean isOpen() { return src.isOpen(); }
                    public void close() throws IOException { src.close(); }
                };
                yield new ChannelSource(kind, p.sink(), Channels.newInputStream(custom));
            }
            case FIFO -> {
                Path dir = Files.createTempDirectory(Path.of("."), "fifo");
                Path fifo = dir.resolve("fifo");
                Process p = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
                if (p.waitFor() != 0)
                    throw new IOException("mkfifo failed");
                // opening either end blocks until the other is opened
                CompletableFuture<FileChannel> writer = CompletableFuture.supplyAsync(() -> {
                    try {
                        return FileChannel.open(fifo, StandardOpenOption.WRITE);
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                });
                InputStream in = Files.newInputStream(fifo);
                FileChannel out = writer.get(30, TimeUnit.SECONDS);
                Files.delete(fifo);
                Files.delete(dir);
                yield new ChannelSource(kind, out, in);
            }
            case FILE -> {
                Path file = Files.createTempFile(Path.of("."), "skip", ".dat");
                try (OutputStream out = Files.newOutputStream(file)) {
                    byte[] b = new byte[65536];
                    for (long pos = 0; pos < content; pos += b.length) {
                        int len = (int) Math.min(b.length, content - pos);
                        fill(b, 0, len, pos);
                        out.write(b, 0, len);
                    }
                }
                InputStream in = Files.newInputStream(file);
                Files.delete(file);
                yield new ChannelSource(kind, null, in);
            }
            case TCP_CHANNEL, ADAPTOR -> {
                try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
                    ssc.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                    SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
                    SocketChannel peer = ssc.accept();
                    InputStream in = (kind == Kind.ADAPTOR)
                            ? sc.socket().getInputStream()
                            : Channels.newInputStream(sc);
                    yield new SocketChannelSource(kind, peer, sc, in);
                }
            }
            case UNIX_CHANNEL -> {
                Path dir = Files.createTempDirectory(Path.of("."), "uds");
                Path path = dir.resolve("sock");
                try (ServerSocketChannel ssc = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
                    ssc.bind(UnixDomainSocketAddress.of(path));
                    SocketChannel sc = SocketChannel.open(ssc.getLocalAddress());
                    SocketChannel peer = ssc.accept();
                    yield new SocketChannelSource(kind, peer, sc, Channels.newInputStream(sc));
                } finally {
                    Files.deleteIfExists(path);
                    Files.delete(dir);
                }
            }
            case SOCKET -> {
                try (ServerSocket ss = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
                    Socket s = new Socket(ss.getInetAddress(), ss.getLocalPort());
                    Socket peer = ss.accept();
                    yield new SocketSource(kind, s, peer);
                }
            }
        };
    }

    /** A source whose writing side is a channel (pipe sink, FIFO, socket). */
    static class ChannelSource extends SkipSource {
        final WritableByteChannel out;
        ChannelSource(Kind kind, WritableByteChannel out, InputStream in) {
            super(kind, in);
            this.out = out;
        }
        @Override
        void write(byte[] b, int off, int len) throws IOException {
            ByteBuffer bb = ByteBuffer.wrap(b, off, len);
            while (bb.hasRemaining())
                out.write(bb);
        }
        @Override
        void closeOutput() throws IOException {
            if (out != null)
                out.close();
        }
    }

    /** A source on a SocketChannel: the reading channel can be shut down. */
    static class SocketChannelSource extends ChannelSource {
        final SocketChannel sc;
        SocketChannelSource(Kind kind, SocketChannel peer, SocketChannel sc, InputStream in) {
            super(kind, peer, in);
            this.sc = sc;
        }
        @Override
        public void close() throws IOException {
            try {
                super.close();
            } finally {
                sc.close();
            }
        }
    }

    /** A source on a Socket, written by the accepted peer socket. */
    static class SocketSource extends SkipSource {
        final Socket s;
        final Socket peer;
        final OutputStream out;
        SocketSource(Kind kind, Socket s, Socket peer) throws IOException {
            super(kind, s.getInputStream());
            this.s = s;
            this.peer = peer;
            this.out = peer.getOutputStream();
        }
        @Override
        void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }
        @Override
        void closeOutput() throws IOException {
            peer.close();
        }
        @Override
        public void close() throws IOException {
            try {
                super.close();
            } finally {
                s.close();
            }
        }
    }

    /** Runs the task in a new platform or virtual thread and waits for its result. */
    static <T> T runIn(boolean virtual, Callable<T> task) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Runnable r = () -> {
            try {
                result.complete(task.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        };
        Thread t = virtual ? Thread.ofVirtual().start(r) : Thread.ofPlatform().start(r);
        try {
            return result.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception x)
                throw x;
            throw (Error) cause;
        } finally {
            t.join();
        }
    }
}

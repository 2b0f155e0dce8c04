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

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the FileInputStream skip tests share: a byte pattern that is a
 * function of the stream offset, a thread and a child JVM that write it, FIFOs,
 * a FileInputStream over the file descriptor of a socket channel, and a runner
 * for platform and virtual threads.
 */
final class NonSeekable {
    private NonSeekable() { }

    /** The byte at offset {@code pos} of every pattern stream. */
    /**
     * Creates a temporary directory for the FIFOs and Unix domain socket
     * files of a test (in the default temporary directory, /tmp: a Unix
     * domain socket path must be short).
     */
    static Path tempDir() throws IOException {
        return Files.createTempDirectory("fisskip");
    }

    /** Deletes a directory made by tempDir and the files in it. */
    static void deleteDir(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            for (Path p : s.toList())
                Files.delete(p);
        }
        Files.delete(dir);
    }

    static byte pattern(long pos) {
        return (byte) (pos ^ (pos >>> 8) * 31 ^ (pos >>> 16) * 131 ^ (pos >>> 24) * 59);
    }

    /** Fills {@code b[off, off + len)} with the pattern from stream offset {@code pos}. */
    static void fillPattern(byte[] b, int off, int len, long pos) {
        for (int i = 0; i < len; i++)
            b[off + i] = pattern(pos + i);
    }

    /** The sizes of the successive writes of a pattern writer, repeated. */
    private static final int[] PIECES = { 1, 7, 1000, 4096, 65536, 100_000, 1 << 20 };

    /**
     * Writes {@code total} bytes of the pattern to {@code out} in pieces of
     * varying size, pausing now and then so that a reader sees the data
     * arrive in parts.
     */
    static void writePattern(OutputStream out, long total) throws IOException {
        byte[] buf = new byte[1 << 20];
        long pos = 0;
        int piece = 0;
        while (pos < total) {
            int len = (int) Math.min(total - pos, PIECES[piece % PIECES.length]);
            fillPattern(buf, 0, len, pos);
            out.write(buf, 0, len);
            out.flush();
            pos += len;
            if (++piece % 3 == 0) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }
        }
    }

    /**
     * A platform thread that writes the pattern to an output stream, then
     * closes it (end of stream for the reader).
     */
    static final class Feeder {
        private final Thread thread;
        private volatile Throwable failure;

        Feeder(OutputStream out, long total) {
            thread = Thread.ofPlatform().name("feeder").start(() -> {
                try (out) {
                    writePattern(out, total);
                } catch (Throwable e) {
                    failure = e;
                }
            });
        }

        /** Waits for the writer to finish; throws what it failed with. */
        void await() throws Exception {
            thread.join();
            Throwable e = failure;
            if (e instanceof Exception x)
                throw x;
            if (e != null)
                throw (Error) e;
        }

        /** Waits for the writer to finish, ignoring its failure (a reader that gave up). */
        void join() throws InterruptedException {
            thread.join();
        }
    }

    // -- child processes --

    /** The java launcher of the JDK under test. */
    static String javaLauncher() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * A builder for a child JVM that runs {@code main} with {@code args},
     * with the test classes on its class path and its error stream merged
     * into this JVM's (the test log).
     */
    static ProcessBuilder javaChild(Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaLauncher());
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-cp");
        cmd.add(System.getProperty("test.classes"));
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT);
    }

    /** Waits for a child process to exit, at most 2 minutes, and returns its exit value. */
    static int waitFor(Process p) throws InterruptedException {
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("child " + p.pid() + " did not exit");
        }
        return p.exitValue();
    }

    /**
     * Child main: writes {@code args[0]} bytes of the pattern to standard
     * output, in pieces, then exits.
     */
    static final class PatternWriter {
        public static void main(String[] args) throws IOException {
            long total = Long.parseLong(args[0]);
            writePattern(new FileOutputStream(FileDescriptor.out), total);
        }
    }

    /**
     * Child main: skips from System.in, on a platform ({@code args[0]} is
     * "platform") or virtual thread ("virtual"), the counts given in the
     * other arguments. For each count n it calls skip until n bytes are
     * skipped or skip returns 0, then reads one byte, and prints a line
     * "n skipped calls next" (calls: the number of skip calls that returned
     * more than 0, next: the byte read, or -1).
     */
    static final class StdinSkipper {
        public static void main(String[] args) throws Exception {
            boolean virtual = args[0].equals("virtual");
            long[] counts = new long[args.length - 1];
            for (int i = 1; i < args.length; i++)
                counts[i - 1] = Long.parseLong(args[i]);
            StringBuilder sb = new StringBuilder();
            runIn(virtual, () -> {
                if (Thread.currentThread().isVirtual() != virtual)
                    throw new AssertionError("wrong kind of thread");
                InputStream in = System.in;
                for (long n : counts) {
                    long skipped = 0;
                    int calls = 0;
                    do {
                        long r = in.skip(n - skipped);
                        if (r < 0 || r > Math.max(n - skipped, 0))
                            throw new AssertionError("skip(" + (n - skipped) + ") returned " + r);
                        if (r == 0)
                            break;
                        calls++;
                        skipped += r;
                    } while (skipped < n);
                    int next = in.read();
                    sb.append(n).append(' ').append(skipped).append(' ')
                      .append(calls).append(' ').append(next).append('\n');
                }
                return null;
            });
            PrintStream out = System.out;
            out.print(sb);
            out.flush();
        }
    }

    // -- FIFOs --

    /** Makes a FIFO named {@code name} in {@code dir} with mkfifo(1). */
    static Path mkfifo(Path dir, String name) throws IOException, InterruptedException {
        Path fifo = dir.resolve(name);
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        if (waitFor(p) != 0)
            throw new IOException("mkfifo " + fifo + " failed");
        return fifo;
    }

    /** Both ends of an open FIFO. */
    record FifoEnds(FileInputStream in, FileOutputStream out) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try (in; out) { }
        }
    }

    /**
     * Opens both ends of a FIFO: the writing end in another thread, as
     * opening either end alone blocks until the other end is opened.
     */
    static FifoEnds openFifo(Path fifo) throws Exception {
        FutureTask<FileOutputStream> writer = new FutureTask<>(
                () -> new FileOutputStream(fifo.toFile()));
        Thread.ofPlatform().name("fifo-open").start(writer);
        FileInputStream in = new FileInputStream(fifo.toFile());
        return new FifoEnds(in, writer.get(1, TimeUnit.MINUTES));
    }

    // -- sockets --

    /**
     * A FileInputStream over the file descriptor of a socket channel, as
     * FileInputStream cannot open a socket by name. The stream must never be
     * closed: the channel owns the file descriptor and closes it. The channel
     * must stay in blocking mode and must not be used by a virtual thread
     * (which would switch its file descriptor to non-blocking mode).
     */
    static FileInputStream fileInputStream(SocketChannel sc)
        throws ReflectiveOperationException
    {
        Method getFDVal = Class.forName("sun.nio.ch.SelChImpl").getMethod("getFDVal");
        getFDVal.setAccessible(true);
        int fdVal = (int) getFDVal.invoke(sc);
        FileDescriptor fd = new FileDescriptor();
        Field field = FileDescriptor.class.getDeclaredField("fd");
        field.setAccessible(true);
        field.setInt(fd, fdVal);
        return new FileInputStream(fd);
    }

    // -- threads --

    /**
     * Runs a task in a new platform or virtual thread and returns its result,
     * or throws what it threw.
     */
    static <T> T runIn(boolean virtual, Callable<T> task) throws Exception {
        return runIn(virtual, 0, task);
    }

    /**
     * As {@link #runIn(boolean, Callable)}, failing if the task takes more
     * than {@code timeoutSeconds} (0: no limit); the task is left running.
     */
    static <T> T runIn(boolean virtual, long timeoutSeconds, Callable<T> task) throws Exception {
        FutureTask<T> future = new FutureTask<>(task);
        Thread t = virtual ? Thread.ofVirtual().start(future) : Thread.ofPlatform().start(future);
        try {
            T result = (timeoutSeconds > 0) ? future.get(timeoutSeconds, TimeUnit.SECONDS) : future.get();
            t.join();
            return result;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception x)
                throw x;
            throw (Error) cause;
        } catch (TimeoutException e) {
            throw new AssertionError("still running after " + timeoutSeconds + " s: " + t
                    + " at " + List.of(t.getStackTrace()), e);
        }
    }
}

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
package org.openjdk.bench.java.io;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.*;

/**
 * The consumer's cost of FileInputStream.skip on files that are not regular
 * files, against reading the same bytes into a heap buffer and discarding
 * them (what InputStream.skip does).
 *
 * <p> FIFO: a FileInputStream on a FIFO that this JVM writes. The bytes are
 * in the FIFO when the measured skip (or read) starts: a
 * {@code Level.Invocation} setup writes them, outside the measured region. A
 * pipe holds 64 KiB, hence no larger size. {@code cSplice} is the floor:
 * splice(2) of the same bytes from a pipe(2) into /dev/null, called directly
 * through the FFM API, measured the same way.
 *
 * <p> Process: Process.getInputStream() of a long-running cat(1), which
 * copies what this JVM writes to its standard input. The setup writes the
 * bytes and waits until all of them are in the pipe from cat
 * ({@code available()}), so the measured skip (or read) does not wait for
 * cat. Skip goes through BufferedInputStream, whose buffer stays empty, to
 * the FileInputStream underneath.
 *
 * <p> Large: Process.getInputStream() of
 * {@code dd if=/dev/zero bs=1M count=1024}, skipped (or read into an 8 KiB
 * buffer) to end of stream; the time of one operation is the time per GiB,
 * including waiting for dd (1 MiB writes: it fills the pipe faster than
 * head -c, whose small writes would make the child the limit).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = { "-Xms512m", "-Xmx512m", "--enable-native-access=ALL-UNNAMED" })
public class FileInputStreamSkip {

    private static final int READ_BUFFER = 8192;

    private static final long GIB = 1L << 30;

    /** Reads n bytes into a buffer that is thrown away: what InputStream.skip does. */
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

    /** Skips n bytes, with as many calls as it takes; fails at end of stream. */
    static long skipFully(InputStream in, long n) throws IOException {
        long remaining = n;
        while (remaining > 0) {
            long r = in.skip(remaining);
            if (r <= 0)
                throw new IOException("skip returned " + r + " with " + remaining + " to go");
            remaining -= r;
        }
        return n;
    }

    // -- FIFO --

    @State(Scope.Thread)
    public static class Fifo {
        @Param({"512", "8192", "65536"})
        int size;

        Path dir;
        FileInputStream in;
        FileOutputStream out;
        byte[] data;
        byte[] buf = new byte[READ_BUFFER];

        @Setup(Level.Trial)
        public void open() throws Exception {
            dir = Files.createTempDirectory("fisskip");
            Path fifo = dir.resolve("fifo");
            Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
            if (mkfifo.waitFor() != 0)
                throw new IOException("mkfifo " + fifo + " failed");
            // opening one end blocks until the other end is opened
            FutureTask<FileOutputStream> writer = new FutureTask<>(
                    () -> new FileOutputStream(fifo.toFile()));
            Thread.ofPlatform().start(writer);
            in = new FileInputStream(fifo.toFile());
            out = writer.get(1, TimeUnit.MINUTES);
            data = new byte[size];
        }

        @Setup(Level.Invocation)
        public void fill() throws IOException {
            out.write(data);
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            out.close();
            in.close();
            Files.delete(dir.resolve("fifo"));
            Files.delete(dir);
        }
    }

    @Benchmark
    public long fifoSkip(Fifo s) throws IOException {
        long n = s.in.skip(s.size);
        if (n != s.size)
            throw new IOException("skip returned " + n);
        return n;
    }

    @Benchmark
    public long fifoRead(Fifo s) throws IOException {
        return readDiscard(s.in, s.buf, s.size);
    }

    // -- pipe, C floor --

    @State(Scope.Thread)
    public static class CPipe {
        @Param({"512", "8192", "65536"})
        int size;

        MethodHandle write, splice, close;
        int readFd, writeFd, devNull;
        MemorySegment data;
        Arena arena;

        @Setup(Level.Trial)
        public void open() throws Throwable {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            ValueLayout.OfInt i32 = ValueLayout.JAVA_INT;
            ValueLayout.OfLong i64 = ValueLayout.JAVA_LONG;
            var ptr = ValueLayout.ADDRESS;
            MethodHandle pipe = linker.downcallHandle(libc.find("pipe").orElseThrow(),
                    FunctionDescriptor.of(i32, ptr));
            MethodHandle open = linker.downcallHandle(libc.find("open").orElseThrow(),
                    FunctionDescriptor.of(i32, ptr, i32), Linker.Option.firstVariadicArg(2));
            write = linker.downcallHandle(libc.find("write").orElseThrow(),
                    FunctionDescriptor.of(i64, i32, ptr, i64));
            // ssize_t splice(int fd_in, off_t *off_in, int fd_out, off_t *off_out, size_t len, unsigned flags)
            splice = linker.downcallHandle(libc.find("splice").orElseThrow(),
                    FunctionDescriptor.of(i64, i32, ptr, i32, ptr, i64, i32));
            close = linker.downcallHandle(libc.find("close").orElseThrow(),
                    FunctionDescriptor.of(i32, i32));
            arena = Arena.ofConfined();
            MemorySegment fds = arena.allocate(i32, 2);
            if ((int) pipe.invokeExact(fds) != 0)
                throw new IOException("pipe failed");
            readFd = fds.getAtIndex(i32, 0);
            writeFd = fds.getAtIndex(i32, 1);
            devNull = (int) open.invokeExact(arena.allocateFrom("/dev/null"), 1 /* O_WRONLY */);
            if (devNull < 0)
                throw new IOException("open /dev/null failed");
            data = arena.allocate(size);
        }

        @Setup(Level.Invocation)
        public void fill() throws Throwable {
            long n = (long) write.invokeExact(writeFd, data, (long) size);
            if (n != size)
                throw new IOException("write returned " + n);
        }

        @TearDown(Level.Trial)
        public void close() throws Throwable {
            for (int fd : new int[] { readFd, writeFd, devNull }) {
                int r = (int) close.invokeExact(fd);
            }
            arena.close();
        }
    }

    @Benchmark
    public long cSplice(CPipe s) throws Throwable {
        long n = (long) s.splice.invokeExact(s.readFd, MemorySegment.NULL, s.devNull,
                MemorySegment.NULL, (long) s.size, 0);
        if (n != s.size)
            throw new IOException("splice returned " + n);
        return n;
    }

    // -- Process.getInputStream() of cat --

    @State(Scope.Thread)
    public static class Cat {
        @Param({"512", "8192", "65536"})
        int size;

        Process process;
        OutputStream stdin;
        InputStream stdout;
        byte[] data;
        byte[] buf = new byte[READ_BUFFER];

        @Setup(Level.Trial)
        public void start() throws IOException {
            process = new ProcessBuilder("cat")
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            stdin = process.getOutputStream();
            stdout = process.getInputStream();
            data = new byte[size];
        }

        @Setup(Level.Invocation)
        public void fill() throws IOException {
            stdin.write(data);
            stdin.flush();
            // wait until cat has copied all of it into the pipe we read
            while (stdout.available() < size) {
                if (!process.isAlive())
                    throw new IOException("cat exited: " + process.exitValue());
                Thread.onSpinWait();
            }
        }

        @TearDown(Level.Trial)
        public void stop() throws Exception {
            stdin.close();
            stdout.close();
            process.waitFor(10, TimeUnit.SECONDS);
            process.destroyForcibly();
        }
    }

    @Benchmark
    public long processSkip(Cat s) throws IOException {
        return skipFully(s.stdout, s.size);
    }

    @Benchmark
    public long processRead(Cat s) throws IOException {
        return readDiscard(s.stdout, s.buf, s.size);
    }

    // -- Process.getInputStream() of dd, 1 GiB to end of stream --

    @State(Scope.Thread)
    public static class LargeChild {
        Process process;
        InputStream stdout;
        byte[] buf = new byte[READ_BUFFER];

        @Setup(Level.Iteration)
        public void start() throws IOException {
            process = new ProcessBuilder("dd", "if=/dev/zero", "bs=1M",
                                         "count=" + (GIB >> 20), "status=none")
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            stdout = process.getInputStream();
        }

        @TearDown(Level.Iteration)
        public void stop() throws Exception {
            stdout.close();
            if (!process.waitFor(1, TimeUnit.MINUTES) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IOException("dd did not exit normally");
            }
        }

        void check(long total) throws IOException {
            if (total != GIB)
                throw new IOException(total + " bytes, expected " + GIB);
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 2)
    @Measurement(iterations = 5)
    public long processSkipLarge(LargeChild s) throws IOException {
        long total = 0;
        long n;
        while ((n = s.stdout.skip(Long.MAX_VALUE)) > 0)
            total += n;
        s.check(total);
        return total;
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 2)
    @Measurement(iterations = 5)
    public long processReadLarge(LargeChild s) throws IOException {
        long total = 0;
        int n;
        while ((n = s.stdout.read(s.buf)) > 0)
            total += n;
        s.check(total);
        return total;
    }
}

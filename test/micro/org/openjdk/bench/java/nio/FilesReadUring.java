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
 *
 * Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
 * or visit www.oracle.com if you need additional information or have any
 * questions.
 */
package org.openjdk.bench.java.nio;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import static java.nio.file.StandardOpenOption.*;

import org.openjdk.jmh.annotations.*;

/**
 * Whole-file and streaming reads through the relative FileChannel reads
 * under {@code Files.readAllBytes} and {@code Files.newInputStream}, by
 * platform or virtual threads ({@code threads}: P1, P2, V1 ... V1024), with a
 * hot, cold or half-cached page cache. The io_uring policy is chosen on the
 * command line, e.g. {@code -jvmArgsAppend -Djdk.internal.nio.ioUring.mode=always};
 * the baseline JDK ignores it.
 *
 * <ul>
 * <li> {@code readAllBytes}: in each operation the threads together read each
 *      of {@code files} files of {@code fileSize} bytes once, every file by
 *      one thread, with {@code Files.readAllBytes}. The score is operations
 *      (sweeps of the directory) per second; the secondary result "files"
 *      is files per second.
 * <li> {@code streamLarge}: in each operation the threads stream one file of
 *      {@code largeSize} bytes, each thread its own slice of it through its
 *      own {@code Files.newInputStream}: {@code skip} to the slice's start,
 *      then {@code read(byte[chunk])} to its end. The secondary result
 *      "mebibytes" is MiB per second.
 * </ul>
 *
 * <p> The files are created once under {@code root} (by default
 * {@code /var/tmp/nio-uring-files}, about 320 MiB for the small files of
 * both sizes and 1 GiB for the large one) and written back to the device,
 * as the page cache keeps dirty pages. Cold: the files are evicted from the
 * page cache before each operation by {@code posix_fadvise(DONTNEED)},
 * called through the FFM API on each file ({@code dd iflag=nocache}, one
 * process per file as {@link FileChannelUring} evicts its one file, would
 * take seconds for thousands of files). Half: evicted, then every other
 * small file, or every other 8 MiB of the large one, read back. Hot: all
 * read before each iteration. Only file data is cold: directory entries and
 * inodes stay cached. The threads are started for each operation, which
 * takes a few microseconds for a virtual thread against tens of milliseconds
 * or more for an operation. Native access for the FFM calls is enabled by
 * {@code jvmArgsPrepend}, so that {@code -jvmArgsAppend} on the command line
 * (the io_uring policy) does not replace it.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsPrepend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 2, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
public class FilesReadUring {

    @Param({"V1", "V64", "V256", "P1"})
    public String threads;           // P<n> platform, V<n> virtual threads

    /** The small files of readAllBytes. */
    @State(Scope.Benchmark)
    public static class SmallFiles {
        @Param({"4000"})
        public int files;

        @Param({"16384", "65536"})
        public int fileSize;

        @Param({"cold"})
        public String cache;         // hot | cold | half

        @Param({"/var/tmp/nio-uring-files"})
        public String root;

        Path[] paths;

        @Setup(Level.Trial)
        public void create() throws IOException {
            Path dir = Files.createDirectories(Path.of(root, "small-" + fileSize));
            paths = new Path[files];
            byte[] data = new byte[fileSize];
            for (int i = 0; i < files; i++) {
                paths[i] = dir.resolve(String.format("f%06d", i));
                if (Files.isRegularFile(paths[i]) && Files.size(paths[i]) == fileSize)
                    continue;
                fillRandom(data, i);
                Files.write(paths[i], data);
            }
            PageCache.sync();
        }

        @Setup(Level.Iteration)
        public void warm() throws IOException {
            if (cache.equals("hot")) {
                for (Path p : paths)
                    Files.readAllBytes(p);
            }
        }

        @Setup(Level.Invocation)
        public void evict() throws IOException {
            if (cache.equals("hot"))
                return;
            for (Path p : paths)
                PageCache.evict(p);
            if (cache.equals("half")) {
                for (int i = 0; i < paths.length; i += 2)
                    Files.readAllBytes(paths[i]);
            }
        }
    }

    /** The large file of streamLarge. */
    @State(Scope.Benchmark)
    public static class LargeFile {
        @Param({"1073741824"})
        public long largeSize;

        @Param({"65536"})
        public int chunk;

        @Param({"cold"})
        public String cache;         // hot | cold | half

        @Param({"/var/tmp/nio-uring-files"})
        public String root;

        Path path;

        @Setup(Level.Trial)
        public void create() throws IOException {
            Files.createDirectories(Path.of(root));
            path = Path.of(root, "large-" + largeSize + ".dat");
            if (Files.isRegularFile(path) && Files.size(path) == largeSize)
                return;
            try (FileChannel out = FileChannel.open(path, CREATE, WRITE, TRUNCATE_EXISTING)) {
                byte[] data = new byte[1 << 20];
                for (long pos = 0; pos < largeSize; pos += data.length) {
                    fillRandom(data, pos);
                    int len = (int) Math.min(data.length, largeSize - pos);
                    ByteBuffer bb = ByteBuffer.wrap(data, 0, len);
                    while (bb.hasRemaining())
                        out.write(bb);
                }
            }
            PageCache.sync();
        }

        @Setup(Level.Iteration)
        public void warm() throws IOException {
            if (cache.equals("hot"))
                readRange(path, 0, largeSize, new byte[1 << 20]);
        }

        @Setup(Level.Invocation)
        public void evict() throws IOException {
            if (cache.equals("hot"))
                return;
            PageCache.evict(path);
            if (cache.equals("half")) {
                byte[] buf = new byte[1 << 20];
                long part = 8 << 20;
                for (long pos = 0; pos < largeSize; pos += 2 * part)
                    readRange(path, pos, Math.min(pos + part, largeSize), buf);
            }
        }
    }

    /** Files read, reported per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class FileCount {
        public long files;

        @Setup(Level.Iteration)
        public void reset() {
            files = 0;
        }
    }

    /** MiB read, reported per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class MiBCount {
        public long mebibytes;

        @Setup(Level.Iteration)
        public void reset() {
            mebibytes = 0;
        }
    }

    @Benchmark
    public long readAllBytes(SmallFiles s, FileCount count) throws Exception {
        Path[] paths = s.paths;
        AtomicInteger next = new AtomicInteger();
        long total = runThreads(id -> {
            long bytes = 0;
            int i;
            while ((i = next.getAndIncrement()) < paths.length)
                bytes += Files.readAllBytes(paths[i]).length;
            return bytes;
        });
        if (total != (long) paths.length * s.fileSize)
            throw new IllegalStateException("read " + total + " bytes");
        count.files += paths.length;
        return total;
    }

    @Benchmark
    public long streamLarge(LargeFile l, MiBCount count) throws Exception {
        int n = threadCount();
        long size = l.largeSize;
        long total = runThreads(id -> {
            long start = size * id / n;
            long end = size * (id + 1) / n;
            try (InputStream in = Files.newInputStream(l.path)) {
                long skipped = 0;
                while (skipped < start) {
                    long k = in.skip(start - skipped);
                    if (k <= 0)
                        throw new EOFException("skip to " + start + " stopped at " + skipped);
                    skipped += k;
                }
                byte[] buf = new byte[l.chunk];
                long left = end - start;
                while (left > 0) {
                    int k = in.read(buf, 0, (int) Math.min(buf.length, left));
                    if (k < 0)
                        throw new EOFException("EOF " + left + " bytes before the end of a slice");
                    left -= k;
                }
                return end - start;
            }
        });
        if (total != size)
            throw new IllegalStateException("read " + total + " bytes");
        count.mebibytes += size >> 20;
        return total;
    }

    interface Work {
        long run(int id) throws Exception;
    }

    private int threadCount() {
        return Integer.parseInt(threads.substring(1));
    }

    /**
     * Runs the work on threadCount() new platform or virtual threads, waits
     * for all of them, and returns the sum of their results.
     */
    private long runThreads(Work work) throws Exception {
        boolean virtual = threads.startsWith("V");
        int n = threadCount();
        LongAdder sum = new LongAdder();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> started = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int id = i;
            Runnable task = () -> {
                try {
                    sum.add(work.run(id));
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            };
            started.add(virtual ? Thread.ofVirtual().start(task) : Thread.ofPlatform().start(task));
        }
        for (Thread t : started)
            t.join();
        if (failure.get() != null)
            throw new IllegalStateException(failure.get());
        return sum.sum();
    }

    static void fillRandom(byte[] data, long seed) {
        SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 17);
        for (int i = 0; i + 8 <= data.length; i += 8) {
            long v = r.nextLong();
            for (int k = 0; k < 8; k++)
                data[i + k] = (byte) (v >>> (8 * k));
        }
        for (int i = data.length & ~7; i < data.length; i++)
            data[i] = (byte) r.nextInt();
    }

    static void readRange(Path path, long from, long to, byte[] buf) throws IOException {
        try (FileChannel fc = FileChannel.open(path, READ)) {
            ByteBuffer bb = ByteBuffer.wrap(buf);
            for (long pos = from; pos < to; ) {
                int n = fc.read(bb.clear().limit((int) Math.min(buf.length, to - pos)), pos);
                if (n < 0)
                    break;
                pos += n;
            }
        }
    }

    /**
     * posix_fadvise(POSIX_FADV_DONTNEED) and sync(2) through the FFM API:
     * drops a file's clean pages from the page cache without starting a
     * process.
     */
    static final class PageCache {
        private static final int O_RDONLY = 0;
        private static final int POSIX_FADV_DONTNEED = 4;   // Linux, all but s390
        private static final MethodHandle OPEN;
        private static final MethodHandle FADVISE;
        private static final MethodHandle CLOSE;
        private static final MethodHandle SYNC;

        static {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            ValueLayout.OfInt i32 = ValueLayout.JAVA_INT;
            ValueLayout.OfLong i64 = ValueLayout.JAVA_LONG;
            OPEN = linker.downcallHandle(libc.find("open").orElseThrow(),
                    FunctionDescriptor.of(i32, ValueLayout.ADDRESS, i32),
                    Linker.Option.firstVariadicArg(2));
            FADVISE = linker.downcallHandle(libc.find("posix_fadvise").orElseThrow(),
                    FunctionDescriptor.of(i32, i32, i64, i64, i32));
            CLOSE = linker.downcallHandle(libc.find("close").orElseThrow(),
                    FunctionDescriptor.of(i32, i32));
            SYNC = linker.downcallHandle(libc.find("sync").orElseThrow(),
                    FunctionDescriptor.ofVoid());
        }

        private PageCache() { }

        static void evict(Path p) throws IOException {
            try (Arena arena = Arena.ofConfined()) {
                int fd = (int) OPEN.invokeExact(arena.allocateFrom(p.toString()), O_RDONLY);
                if (fd < 0)
                    throw new IOException("cannot open " + p);
                int rc = (int) FADVISE.invokeExact(fd, 0L, 0L, POSIX_FADV_DONTNEED);
                int unused = (int) CLOSE.invokeExact(fd);
                if (rc != 0)
                    throw new IOException("posix_fadvise " + p + ": error " + rc);
            } catch (IOException | RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IOException(e);
            }
        }

        static void sync() throws IOException {
            try {
                SYNC.invokeExact();
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IOException(e);
            }
        }
    }
}

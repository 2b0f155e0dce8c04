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

/*
 * @test id=auto
 * @summary Positional FileChannel read/write on platform and virtual threads with the
 *          io_uring policy jdk.nio.file.ioUring=auto: bytes, return values, exceptions
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @run main/othervm/timeout=300 -Djdk.nio.file.ioUring=auto IoUringPositional
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @run main/othervm/timeout=300 -Djdk.internal.nio.ioUring.mode=always IoUringPositional
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @run main/othervm/timeout=300 -Djdk.nio.file.ioUring=never IoUringPositional
 */

/*
 * @test id=always-unavailable
 * @summary io_uring "unavailable" (test-only switch): every op falls back to pread/pwrite
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @run main/othervm/timeout=300 -Djdk.internal.nio.ioUring.mode=always
 *      -Djdk.internal.nio.ioUring.testUnavailable=test IoUringPositional
 */

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;

public class IoUringPositional {
    static final Random RAND = RandomFactory.getRandom();
    static final int FILE_SIZE = 8 << 20;
    static final Path DIR = Path.of(".").toAbsolutePath();

    static byte[] reference;
    static Path file;

    public static void main(String[] args) throws Exception {
        System.out.println("jdk.nio.file.ioUring=" + System.getProperty("jdk.internal.nio.ioUring.mode", System.getProperty("jdk.nio.file.ioUring")));
        file = Files.createTempFile(DIR, "uring", ".dat");
        reference = new byte[FILE_SIZE];
        RAND.nextBytes(reference);
        Files.write(file, reference);
        try {
            for (boolean virtual : new boolean[] { false, true }) {
                ThreadFactory factory = virtual
                        ? Thread.ofVirtual().factory()
                        : Thread.ofPlatform().factory();
                String kind = virtual ? "virtual" : "platform";
                System.out.println("-- " + kind + " threads --");
                run(factory, IoUringPositional::randomReads);
                run(factory, IoUringPositional::randomReadsColdCache);
                run(factory, IoUringPositional::eofAndEdgeCases);
                run(factory, IoUringPositional::exceptions);
                run(factory, IoUringPositional::randomWrites);
                run(factory, IoUringPositional::appendMode);
                run(factory, IoUringPositional::dsyncWrites);
                run(factory, () -> concurrentReadersWriters(factory));
                run(factory, () -> manyReaders(factory, virtual ? 500 : 16));
            }
        } finally {
            Files.deleteIfExists(file);
        }
        System.out.println("passed");
    }

    interface Task {
        void run() throws Exception;
    }

    static void run(ThreadFactory factory, Task task) throws Exception {
        long start = System.nanoTime();
        try (ExecutorService ex = Executors.newThreadPerTaskExecutor(factory)) {
            ex.submit(() -> { task.run(); return null; }).get();
        }
        System.out.println(task + ": " + (System.nanoTime() - start) / 1_000_000 + " ms");
    }

    static ByteBuffer newBuffer(int size, int kind) {
        return switch (kind) {
            case 0 -> ByteBuffer.allocate(size);
            case 1 -> ByteBuffer.allocateDirect(size);
            default -> {
                // a buffer with position and limit not at its edges
                ByteBuffer bb = (RAND.nextBoolean() ? ByteBuffer.allocate(size + 20)
                                                   : ByteBuffer.allocateDirect(size + 20));
                bb.position(7).limit(7 + size);
                yield bb;
            }
        };
    }

    static void checkRead(ByteBuffer bb, int start, long position, int n) {
        if (bb.position() != start + n)
            throw new RuntimeException("position " + bb.position() + ", expected " + (start + n));
        for (int i = 0; i < n; i++) {
            if (bb.get(start + i) != reference[(int) position + i])
                throw new RuntimeException("byte " + i + " of read at " + position + " differs");
        }
    }

    /**
     * Random positions and sizes, heap/direct/sliced buffers, checked against the
     * reference, including reads that span the end of the file.
     */
    static void randomReads() throws IOException {
        try (FileChannel fc = FileChannel.open(file, READ)) {
            for (int i = 0; i < 2000; i++) {
                int size = switch (RAND.nextInt(4)) {
                    case 0 -> 1 + RAND.nextInt(512);
                    case 1 -> 4096;
                    case 2 -> 1 + RAND.nextInt(70000);
                    default -> 1 + RAND.nextInt(8192);
                };
                long position = RAND.nextInt(FILE_SIZE + 100);
                ByteBuffer bb = newBuffer(size, RAND.nextInt(3));
                int start = bb.position();
                int n = fc.read(bb, position);
                int expected = (position >= FILE_SIZE) ? -1
                        : (int) Math.min(size, FILE_SIZE - position);
                if (n != expected)
                    throw new RuntimeException("read(" + size + ", " + position + ") returned "
                            + n + ", expected " + expected);
                if (n > 0)
                    checkRead(bb, start, position, n);
                if (fc.position() != 0)
                    throw new RuntimeException("position changed");
            }
        }
    }

    /**
     * Evicts the file from the page cache (when dd can) so that virtual threads
     * in auto mode take the io_uring path, then reads at random positions.
     */
    static void randomReadsColdCache() throws Exception {
        evict(file);
        try (FileChannel fc = FileChannel.open(file, READ)) {
            for (int i = 0; i < 300; i++) {
                int size = (i % 2 == 0) ? 4096 : 1 + RAND.nextInt(100000);
                long position = RAND.nextInt(FILE_SIZE);
                ByteBuffer bb = newBuffer(size, i % 3);
                int start = bb.position();
                int n = fc.read(bb, position);
                int expected = (int) Math.min(size, FILE_SIZE - position);
                if (n != expected)
                    throw new RuntimeException("cold read returned " + n + ", expected " + expected);
                checkRead(bb, start, position, n);
                if (i % 50 == 49)
                    evict(file);
            }
        }
    }

    static void evict(Path f) throws Exception {
        try {
            Process p = new ProcessBuilder("dd", "if=" + f, "iflag=nocache", "count=0")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            p.waitFor();
        } catch (IOException e) {
            // no dd: the reads are hot, still correct
        }
    }

    static void eofAndEdgeCases() throws IOException {
        try (FileChannel fc = FileChannel.open(file, READ)) {
            ByteBuffer bb = ByteBuffer.allocate(100);
            expect(fc.read(bb, FILE_SIZE), -1, "read at EOF");
            expect(fc.read(bb, FILE_SIZE + 1000L), -1, "read past EOF");
            // pread fails with EINVAL when position + size overflows
            try {
                fc.read(ByteBuffer.allocate(100), Long.MAX_VALUE - 10);
                throw new RuntimeException("read near Long.MAX_VALUE did not throw");
            } catch (IOException e) {
                if (!"Invalid argument".equals(e.getMessage()))
                    throw new RuntimeException("unexpected " + e, e);
            }
            expect(fc.read(bb, FILE_SIZE - 10), 10, "read across EOF");
            expect(bb.position(), 10, "position after short read");
            ByteBuffer direct = ByteBuffer.allocateDirect(100);
            expect(fc.read(direct, FILE_SIZE - 1), 1, "direct read across EOF");
            expect(fc.read(ByteBuffer.allocate(0), 0), 0, "0-length heap read");
            expect(fc.read(ByteBuffer.allocateDirect(0), FILE_SIZE + 5), 0, "0-length read past EOF");
            ByteBuffer full = ByteBuffer.allocate(10);
            full.position(10);
            expect(fc.read(full, 0), 0, "read into full buffer");
        }
        // empty file
        Path empty = Files.createTempFile(DIR, "empty", ".dat");
        try (FileChannel fc = FileChannel.open(empty, READ, WRITE)) {
            expect(fc.read(ByteBuffer.allocate(10), 0), -1, "read of empty file");
            expect(fc.write(ByteBuffer.allocate(0), 100), 0, "0-length write");
            expect(fc.size(), 0L, "size after 0-length write");
            // write past the end leaves a hole of zeros
            expect(fc.write(ByteBuffer.wrap(new byte[] { 1, 2, 3 }), 5000), 3, "write past end");
            expect(fc.size(), 5003L, "size after write past end");
            ByteBuffer bb = ByteBuffer.allocate(5003);
            expect(fc.read(bb, 0), 5003, "read with hole");
            for (int i = 0; i < 5000; i++)
                if (bb.get(i) != 0) throw new RuntimeException("hole not zero");
            expect(bb.get(5002), (byte) 3, "last byte");
        } finally {
            Files.delete(empty);
        }
    }

    static void exceptions() throws IOException {
        try (FileChannel fc = FileChannel.open(file, READ)) {
            expectThrows(IllegalArgumentException.class,
                    () -> fc.read(ByteBuffer.allocate(10), -1));
            expectThrows(IllegalArgumentException.class,
                    () -> fc.read(ByteBuffer.allocate(10).asReadOnlyBuffer(), 0));
            expectThrows(IllegalArgumentException.class,
                    () -> fc.read(ByteBuffer.allocateDirect(10).asReadOnlyBuffer(), 0));
            expectThrows(NonWritableChannelException.class,
                    () -> fc.write(ByteBuffer.allocate(10), 0));
            expectThrows(NullPointerException.class, () -> fc.read(null, 0));
        }
        Path tmp = Files.createTempFile(DIR, "wo", ".dat");
        try (FileChannel fc = FileChannel.open(tmp, WRITE)) {
            expectThrows(NonReadableChannelException.class,
                    () -> fc.read(ByteBuffer.allocate(10), 0));
            expectThrows(IllegalArgumentException.class,
                    () -> fc.write(ByteBuffer.allocate(10), -1));
            // a read-only buffer is fine as a write source
            expect(fc.write(ByteBuffer.wrap(new byte[] { 9, 8, 7 }).asReadOnlyBuffer(), 0), 3,
                    "write from read-only buffer");
        } finally {
            Files.delete(tmp);
        }
        FileChannel closed = FileChannel.open(file, READ);
        closed.close();
        expectThrows(ClosedChannelException.class, () -> closed.read(ByteBuffer.allocate(10), 0));
        // RandomAccessFile's channel
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            FileChannel fc = raf.getChannel();
            ByteBuffer bb = ByteBuffer.allocate(4096);
            expect(fc.read(bb, 12345), 4096, "RandomAccessFile channel read");
            checkRead(bb, 0, 12345, 4096);
        }
    }

    /**
     * Random positional writes from heap, direct and read-only buffers, then the
     * file is compared with a reference copy.
     */
    static void randomWrites() throws IOException {
        Path f = Files.createTempFile(DIR, "w", ".dat");
        try (FileChannel fc = FileChannel.open(f, READ, WRITE)) {
            byte[] expected = new byte[1 << 20];
            for (int i = 0; i < 1000; i++) {
                int size = 1 + RAND.nextInt(i % 10 == 0 ? 65536 : 4096);
                int position = RAND.nextInt(expected.length - size);
                byte[] data = new byte[size];
                RAND.nextBytes(data);
                ByteBuffer bb = switch (i % 3) {
                    case 0 -> ByteBuffer.wrap(data);
                    case 1 -> ByteBuffer.allocateDirect(size).put(data).flip();
                    default -> ByteBuffer.wrap(data).asReadOnlyBuffer();
                };
                int n = fc.write(bb, position);
                expect(n, size, "write count");
                expect(bb.remaining(), 0, "remaining after write");
                System.arraycopy(data, 0, expected, position, size);
            }
            long size = fc.size();
            byte[] actual = Files.readAllBytes(f);
            if (!Arrays.equals(actual, 0, (int) size, expected, 0, (int) size))
                throw new RuntimeException("file content differs after random writes");
        } finally {
            Files.delete(f);
        }
    }

    /**
     * With APPEND, Linux pwrite appends whatever the position: this is what
     * upstream gives and what every mode must give.
     */
    static void appendMode() throws IOException {
        Path f = Files.createTempFile(DIR, "a", ".dat");
        try {
            Files.write(f, new byte[] { 1, 2, 3, 4 });
            try (FileChannel fc = FileChannel.open(f, WRITE, APPEND)) {
                expect(fc.write(ByteBuffer.wrap(new byte[] { 5, 6 }), 0), 2, "append write");
                expect(fc.write(ByteBuffer.allocateDirect(1).put((byte) 7).flip(), 1), 1,
                        "append write direct");
            }
            byte[] actual = Files.readAllBytes(f);
            if (!Arrays.equals(actual, new byte[] { 1, 2, 3, 4, 5, 6, 7 }))
                throw new RuntimeException("append: " + Arrays.toString(actual));
        } finally {
            Files.delete(f);
        }
    }

    static void dsyncWrites() throws IOException {
        Path f = Files.createTempFile(DIR, "d", ".dat");
        try (FileChannel fc = FileChannel.open(f, READ, WRITE, DSYNC)) {
            byte[] expected = new byte[64 * 4096];
            for (int i = 0; i < 64; i++) {
                byte[] data = new byte[4096];
                RAND.nextBytes(data);
                int position = RAND.nextInt(64) * 4096;
                expect(fc.write(ByteBuffer.wrap(data), position), 4096, "dsync write");
                System.arraycopy(data, 0, expected, position, 4096);
            }
            byte[] actual = new byte[(int) fc.size()];
            ByteBuffer bb = ByteBuffer.wrap(actual);
            while (bb.hasRemaining() && fc.read(bb, bb.position()) > 0) { }
            if (!Arrays.equals(actual, 0, actual.length, expected, 0, actual.length))
                throw new RuntimeException("dsync content differs");
        } finally {
            Files.delete(f);
        }
    }

    /**
     * Readers and writers on one channel: writers own disjoint 4K blocks of the
     * second half and write a block's index pattern; readers check the unchanging
     * first half and that every block of the second half is whole.
     */
    static void concurrentReadersWriters(ThreadFactory factory) throws Exception {
        Path f = Files.createTempFile(DIR, "c", ".dat");
        int blocks = 256;
        try (FileChannel fc = FileChannel.open(f, READ, WRITE)) {
            fc.write(ByteBuffer.wrap(reference, 0, blocks * 4096), 0);
            fc.write(ByteBuffer.allocate(blocks * 4096), blocks * 4096L);
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int writer = t;
                tasks.add(() -> {
                    Random r = new Random(writer);
                    ByteBuffer bb = (writer % 2 == 0) ? ByteBuffer.allocate(4096)
                                                      : ByteBuffer.allocateDirect(4096);
                    for (int i = 0; i < 300; i++) {
                        int block = (r.nextInt(blocks / 8) * 8) + writer;
                        byte v = (byte) ((i % 100) + 1);
                        bb.clear();
                        while (bb.hasRemaining()) bb.put(v);
                        bb.flip();
                        expect(fc.write(bb, (blocks + block) * 4096L), 4096, "concurrent write");
                    }
                    return null;
                });
                int reader = t;
                tasks.add(() -> {
                    Random r = new Random(reader + 100);
                    ByteBuffer bb = (reader % 2 == 0) ? ByteBuffer.allocateDirect(4096)
                                                      : ByteBuffer.allocate(4096);
                    for (int i = 0; i < 300; i++) {
                        int block = r.nextInt(blocks);
                        bb.clear();
                        expect(fc.read(bb, block * 4096L), 4096, "concurrent read");
                        checkRead(bb, 0, block * 4096L, 4096);
                        bb.clear();
                        expect(fc.read(bb, (blocks + block) * 4096L), 4096, "concurrent read 2");
                        // a block written by one pwrite holds one value (a torn read of
                        // a concurrent write is allowed, a value never written is not)
                        for (int k = 0; k < 4096; k++) {
                            byte b = bb.get(k);
                            if (b < 0 || b > 100)
                                throw new RuntimeException("unexpected byte " + b);
                        }
                    }
                    return null;
                });
            }
            try (ExecutorService ex = Executors.newThreadPerTaskExecutor(factory)) {
                for (Future<Void> fut : ex.invokeAll(tasks))
                    fut.get();
            }
        } finally {
            Files.delete(f);
        }
    }

    /**
     * Many threads reading 4K blocks of the (evicted) file at once.
     */
    static void manyReaders(ThreadFactory factory, int threads) throws Exception {
        evict(file);
        try (FileChannel fc = FileChannel.open(file, READ)) {
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                tasks.add(() -> {
                    Random r = new Random(id);
                    ByteBuffer bb = (id % 2 == 0) ? ByteBuffer.allocate(4096)
                                                  : ByteBuffer.allocateDirect(4096);
                    for (int i = 0; i < 20; i++) {
                        long position = (long) r.nextInt(FILE_SIZE / 4096) * 4096;
                        bb.clear();
                        expect(fc.read(bb, position), 4096, "many readers");
                        checkRead(bb, 0, position, 4096);
                    }
                    return null;
                });
            }
            try (ExecutorService ex = Executors.newThreadPerTaskExecutor(factory)) {
                for (Future<Void> fut : ex.invokeAll(tasks))
                    fut.get();
            }
        }
    }

    static void expect(long actual, long expected, String what) {
        if (actual != expected)
            throw new RuntimeException(what + ": " + actual + ", expected " + expected);
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    static void expectThrows(Class<? extends Throwable> type, ThrowingRunnable r) {
        try {
            r.run();
        } catch (Throwable e) {
            if (type.isInstance(e))
                return;
            throw new RuntimeException("expected " + type.getName() + ", got " + e, e);
        }
        throw new RuntimeException("expected " + type.getName());
    }
}

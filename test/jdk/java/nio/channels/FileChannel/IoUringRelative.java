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
 * @summary Relative FileChannel reads (read(ByteBuffer) at the file position, and the
 *          streams and Files methods built on them) on platform and virtual threads,
 *          cold and hot, with each io_uring policy: bytes, return values and the file
 *          position after every read, also when the fd is shared with a FileInputStream
 *          or a RandomAccessFile; EOF, interrupts, asynchronous close and bad input as
 *          upstream; in always every relative read of a regular file uses a ring, in
 *          never no ring exists
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings
 * @run main/othervm/timeout=300 -Djdk.nio.file.ioUring=auto IoUringRelative
 */

/*
 * @test id=auto-scarce
 * @summary As auto, with one carrier: virtual threads that read while others wait for
 *          the carrier take preadv2(RWF_NOWAIT) and the ring
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings
 * @run main/othervm/timeout=300 -Djdk.nio.file.ioUring=auto
 *      -Djdk.virtualThreadScheduler.parallelism=1 IoUringRelative
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings
 * @run main/othervm/timeout=300 -Djdk.internal.nio.ioUring.mode=always IoUringRelative
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings
 * @run main/othervm/timeout=300 -Djdk.nio.file.ioUring=never IoUringRelative
 */

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.Channels;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonReadableChannelException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import com.sun.nio.file.ExtendedOpenOption;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;

public class IoUringRelative {
    static final Random RAND = RandomFactory.getRandom();
    static final String MODE = System.getProperty("jdk.internal.nio.ioUring.mode", System.getProperty("jdk.nio.file.ioUring", "auto"));
    static final Path DIR = Path.of(".").toAbsolutePath();

    // not a multiple of any buffer size, so that the last read is short
    static final int FILE_SIZE = (6 << 20) + 4321;
    static final int WORDS = 512 * 1024;            // longs in the words file (4 MiB)
    static final long WORDS_KEY = 0x5DEECE66DL << 20;
    static final int SMALL_FILES = 96;
    static final byte FILL = (byte) 0xa5;
    static final byte[] FILLED = new byte[(1 << 20) + 64];

    static byte[] reference;
    static Path file;
    static Path words;

    public static void main(String[] args) throws Exception {
        System.out.println("jdk.nio.file.ioUring=" + MODE + ", parallelism "
                + System.getProperty("jdk.virtualThreadScheduler.parallelism", "default"));
        Arrays.fill(FILLED, FILL);
        file = Files.createTempFile(DIR, "relative", ".dat");
        words = Files.createTempFile(DIR, "words", ".dat");
        Path small = Files.createTempDirectory(DIR, "small");
        try {
            reference = new byte[FILE_SIZE];
            RAND.nextBytes(reference);
            writeSynced(file, reference);
            ByteBuffer w = ByteBuffer.allocate(WORDS * 8);
            for (int i = 0; i < WORDS; i++)
                w.putLong(i ^ WORDS_KEY);
            writeSynced(words, w.array());
            List<TestFile> files = createFiles(small);

            for (boolean virtual : new boolean[] { false, true }) {
                ThreadFactory factory = virtual ? Thread.ofVirtual().factory()
                                                : Thread.ofPlatform().factory();
                System.out.println("-- " + (virtual ? "virtual" : "platform") + " threads --");
                run(factory, "sequences, hot", () -> sequences(false));
                run(factory, "sequences, cold", () -> sequences(true));
                timed("concurrent channels, cold",
                        () -> concurrentChannels(factory, virtual ? 32 : 4));
                run(factory, "EOF and beyond", IoUringRelative::endOfFile);
                run(factory, "growing and shrinking file", IoUringRelative::growAndShrink);
                for (boolean cold : new boolean[] { false, true }) {
                    String c = cold ? ", cold" : ", hot";
                    run(factory, "shared with FileInputStream" + c,
                            () -> sharedWithFileInputStream(cold));
                    run(factory, "shared with RandomAccessFile" + c,
                            () -> sharedWithRandomAccessFile(cold));
                }
                run(factory, "read and write, RandomAccessFile rw", () -> readWrite(true));
                run(factory, "read and write, FileChannel", () -> readWrite(false));
                run(factory, "APPEND", IoUringRelative::append);
                run(factory, "bad input", IoUringRelative::badInput);
                run(factory, "interrupt status set", IoUringRelative::interruptStatusSet);
                // from this platform thread: virtual readers of cached data may
                // hold every carrier
                timed("interrupt in flight", () -> interruptInFlight(factory));
                timed("concurrent reads and async close",
                        () -> concurrentReadsAndClose(factory, virtual ? 32 : 8));
            }
            filesApis(files, true, true, 64, "64 virtual threads, cold");
            filesApis(files, true, false, 64, "64 virtual threads, hot");
            filesApis(files, false, true, 8, "8 platform threads, cold");
            ringUse(files);
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(words);
            try (Stream<Path> s = Files.list(small)) {
                for (Path p : s.toList())
                    Files.delete(p);
            }
            Files.delete(small);
        }
        System.out.println("passed");
    }

    /**
     * Writes a file and waits until it is on the device, so that evicting it
     * from the page cache (which keeps dirty pages) makes it cold.
     */
    static void writeSynced(Path p, byte[] bytes) throws IOException {
        try (FileChannel fc = FileChannel.open(p, WRITE, CREATE, TRUNCATE_EXISTING)) {
            ByteBuffer bb = ByteBuffer.wrap(bytes);
            while (bb.hasRemaining())
                fc.write(bb);
            fc.force(true);
        }
    }

    interface Task {
        void run() throws Exception;
    }

    /** Runs the task on a thread of the factory. */
    static void run(ThreadFactory factory, String name, Task task) throws Exception {
        timed(name, () -> {
            try (ExecutorService ex = Executors.newThreadPerTaskExecutor(factory)) {
                ex.submit(() -> { task.run(); return null; }).get();
            }
        });
    }

    static void timed(String name, Task task) throws Exception {
        long start = System.nanoTime();
        task.run();
        System.out.println(name + ": " + (System.nanoTime() - start) / 1_000_000 + " ms");
    }

    // -- buffers and checks --

    /** 1 byte to 1 MiB, small and page-sized sizes more often. */
    static int randomSize(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> 1 + r.nextInt(16);
            case 1 -> 1 + r.nextInt(8192);
            case 2 -> 4096 << r.nextInt(5);
            case 3 -> 1 + r.nextInt(256 << 10);
            default -> 1 + r.nextInt(1 << 20);
        };
    }

    /**
     * A buffer with len bytes remaining inside a larger heap or direct buffer
     * filled with FILL: a read must store its bytes at the buffer's position
     * and leave every other byte of the larger buffer alone.
     */
    static final class Window {
        final ByteBuffer whole;
        final ByteBuffer bb;
        final int start;       // bb.position() before the read
        final int base;        // index in whole of bb's index 0

        Window(int len, Random r) {
            int kind = r.nextInt(6);
            int before = (kind >= 2) ? 1 + r.nextInt(15) : 0;
            int cap = before + len + 16;
            whole = (kind % 2 == 0) ? ByteBuffer.allocate(cap) : ByteBuffer.allocateDirect(cap);
            whole.put(0, FILLED, 0, cap);
            ByteBuffer b = whole.duplicate().position(before).limit(before + len);
            if (kind >= 4) {
                bb = b.slice();
                start = 0;
                base = before;
            } else {
                bb = b;
                start = before;
                base = 0;
            }
        }

        /** Checks a read that returned n of the bytes of ref at filePos. */
        void check(int n, byte[] ref, long filePos, String what) {
            int got = Math.max(n, 0);
            expect(bb.position(), start + got, what + ": buffer position");
            if (got > 0) {
                int m = bb.slice(start, got).mismatch(ByteBuffer.wrap(ref, (int) filePos, got));
                if (m >= 0)
                    throw new RuntimeException(what + ": byte " + m + " of " + got
                            + " read at " + filePos + " differs");
            }
            int from = base + start;
            if (whole.slice(0, from).mismatch(ByteBuffer.wrap(FILLED, 0, from)) >= 0)
                throw new RuntimeException(what + ": bytes before the buffer's position changed");
            int after = from + got;
            int rest = whole.capacity() - after;
            if (whole.slice(after, rest).mismatch(ByteBuffer.wrap(FILLED, 0, rest)) >= 0)
                throw new RuntimeException(what + ": bytes after the " + got + " read changed");
        }
    }

    static void checkBytes(byte[] actual, int off, int n, byte[] ref, long filePos, String what) {
        int m = Arrays.mismatch(actual, off, off + n, ref, (int) filePos, (int) filePos + n);
        if (m >= 0)
            throw new RuntimeException(what + ": byte " + m + " of " + n + " read at "
                    + filePos + " differs");
    }

    static int expectedCount(long pos, int len, long size) {
        return (pos >= size) ? -1 : (int) Math.min(len, size - pos);
    }

    static void expect(long actual, long expected, String what) {
        if (actual != expected)
            throw new RuntimeException(what + ": " + actual + ", expected " + expected);
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    static Throwable expectThrows(Class<? extends Throwable> type, ThrowingRunnable r) {
        try {
            r.run();
        } catch (Throwable e) {
            if (type.isInstance(e))
                return e;
            throw new RuntimeException("expected " + type.getName() + ", got " + e, e);
        }
        throw new RuntimeException("expected " + type.getName());
    }

    /**
     * One relative read of a random size into a new Window at the channel's
     * position pos (the model), checked against ref of the file's size.
     * Returns the new position.
     */
    static long readOne(FileChannel fc, long pos, byte[] ref, long size, Random r, String what)
        throws IOException
    {
        int len = randomSize(r);
        Window w = new Window(len, r);
        int n = fc.read(w.bb);
        String op = what + ": read(" + len + ") at " + pos;
        expect(n, expectedCount(pos, len, size), op);
        w.check(n, ref, pos, op);
        if (n > 0)
            pos += n;
        expect(fc.position(), pos, op + ": position after");
        return pos;
    }

    /**
     * Relative reads from pos to EOF, then reads at EOF: -1, the position
     * left, the buffer untouched; an empty buffer reads 0.
     */
    static void readToEnd(FileChannel fc, long pos, byte[] ref, Random r, String what)
        throws IOException
    {
        long size = ref.length;
        while (pos < size)
            pos = readOne(fc, pos, ref, size, r, what);
        for (int i = 0; i < 3; i++)
            expect(readOne(fc, pos, ref, size, r, what + " at EOF"), pos,
                    what + ": position at EOF");
        expect(fc.read(ByteBuffer.allocate(0)), 0, what + ": empty heap buffer at EOF");
        expect(fc.read(ByteBuffer.allocateDirect(10).position(10)), 0,
                what + ": full direct buffer at EOF");
        expect(fc.position(), pos, what + ": position after empty reads");
    }

    // -- single channel --

    /**
     * Relative reads of random sizes into heap and direct buffers from 0, a
     * random position and near the end, with random repositioning, to EOF.
     */
    static void sequences(boolean cold) throws Exception {
        Random r = new Random(RAND.nextLong());
        for (int pass = 0; pass < 12; pass++) {
            if (cold)
                IoUringRings.evict(file);
            try (FileChannel fc = FileChannel.open(file, READ)) {
                long pos = switch (pass % 3) {
                    case 0 -> 0;
                    case 1 -> r.nextInt(FILE_SIZE);
                    default -> FILE_SIZE - r.nextInt(2 << 20);
                };
                if (pos != 0)
                    fc.position(pos);
                String what = "pass " + pass;
                // a few random jumps, then on to the end
                for (int i = 0; i < 40; i++) {
                    pos = readOne(fc, pos, reference, FILE_SIZE, r, what);
                    if (r.nextInt(10) == 0) {
                        pos = r.nextInt(FILE_SIZE + 100);
                        fc.position(pos);
                    }
                }
                readToEnd(fc, pos, reference, r, what);
            }
        }
    }

    /**
     * Threads reading the cold file at once, each through its own channel
     * (FileChannel.open, FileInputStream's, RandomAccessFile's) from a random
     * position to EOF: with virtual threads in auto, reads that find a carrier
     * wanted take preadv2(RWF_NOWAIT) and the ring at the file position.
     */
    static void concurrentChannels(ThreadFactory factory, int threads) throws Exception {
        for (int round = 0; round < 3; round++) {
            IoUringRings.evict(file);
            long before = IoUringRings.completions();
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                long seed = RAND.nextLong();
                tasks.add(() -> {
                    Random r = new Random(seed);
                    long start = r.nextInt(FILE_SIZE);
                    String what = "reader " + id + " from " + start;
                    switch (id % 3) {
                        case 0 -> {
                            try (FileChannel fc = FileChannel.open(file, READ)) {
                                fc.position(start);
                                readToEnd(fc, start, reference, r, what);
                            }
                        }
                        case 1 -> {
                            try (FileInputStream fis = new FileInputStream(file.toFile())) {
                                expect(fis.skip(start), start, what + ": skip");
                                readToEnd(fis.getChannel(), start, reference, r, what);
                                expect(fis.read(), -1, what + ": fis.read() at EOF");
                            }
                        }
                        default -> {
                            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
                                raf.seek(start);
                                readToEnd(raf.getChannel(), start, reference, r, what);
                                expect(raf.getFilePointer(), FILE_SIZE, what + ": file pointer");
                            }
                        }
                    }
                    return null;
                });
            }
            try (ExecutorService ex = Executors.newThreadPerTaskExecutor(factory)) {
                for (Future<Void> fut : ex.invokeAll(tasks))
                    fut.get();
            }
            System.out.println("  round " + round + ": ring completions "
                    + (IoUringRings.completions() - before));
        }
    }

    /** Reads at EOF, past it, into empty buffers, of an empty file. */
    static void endOfFile() throws Exception {
        Random r = new Random(RAND.nextLong());
        try (FileChannel fc = FileChannel.open(file, READ)) {
            // (lseek fails beyond the file system's largest file: ext4 16 TiB)
            for (long p : new long[] { FILE_SIZE, FILE_SIZE + 1L, FILE_SIZE + 123456L, 1L << 40 }) {
                fc.position(p);
                for (int i = 0; i < 3; i++) {
                    ByteBuffer bb = (i % 2 == 0) ? ByteBuffer.allocate(100)
                                                 : ByteBuffer.allocateDirect(100);
                    expect(fc.read(bb), -1, "read at " + p);
                    expect(bb.position(), 0, "buffer position after read at " + p);
                    expect(fc.position(), p, "position after read at " + p);
                }
            }
            // across EOF: short read, then -1
            fc.position(FILE_SIZE - 10);
            ByteBuffer bb = ByteBuffer.allocateDirect(100);
            expect(fc.read(bb), 10, "read across EOF");
            expect(fc.position(), FILE_SIZE, "position after read across EOF");
            expect(fc.read(bb), -1, "read after read across EOF");
            // empty buffers read 0 wherever the position is
            for (long p : new long[] { 0, 5, FILE_SIZE, FILE_SIZE + 5L }) {
                fc.position(p);
                expect(fc.read(ByteBuffer.allocate(0)), 0, "empty buffer at " + p);
                expect(fc.read(ByteBuffer.allocateDirect(0)), 0, "empty direct buffer at " + p);
                expect(fc.position(), p, "position after empty read at " + p);
            }
            // back from EOF to the start
            fc.position(0);
            readOne(fc, 0, reference, FILE_SIZE, r, "read from 0 after EOF");
        }
        Path empty = Files.createTempFile(DIR, "empty", ".dat");
        try (FileChannel fc = FileChannel.open(empty, READ)) {
            expect(fc.read(ByteBuffer.allocate(10)), -1, "empty file");
            expect(fc.read(ByteBuffer.allocateDirect(10)), -1, "empty file, direct buffer");
            expect(fc.position(), 0, "position in empty file");
            expect(Files.readAllBytes(empty).length, 0, "readAllBytes of empty file");
            try (InputStream in = Files.newInputStream(empty)) {
                expect(in.read(), -1, "stream of empty file");
                expect(in.available(), 0, "available of empty file");
            }
        } finally {
            Files.delete(empty);
        }
    }

    /**
     * A reader at EOF while another channel appends, truncates below its
     * position and writes beyond it: read(2)'s results, the position moving
     * only by the bytes read.
     */
    static void growAndShrink() throws Exception {
        Random r = new Random(RAND.nextLong());
        Path f = Files.createTempFile(DIR, "grow", ".dat");
        try (FileChannel writer = FileChannel.open(f, WRITE, APPEND);
             FileChannel reader = FileChannel.open(f, READ)) {
            byte[] model = new byte[0];
            long pos = 0;
            for (int step = 0; step < 200; step++) {
                switch (r.nextInt(5)) {
                    case 0, 1 -> {
                        // append
                        byte[] b = new byte[1 + r.nextInt(20000)];
                        r.nextBytes(b);
                        expect(writer.write(ByteBuffer.wrap(b)), b.length, "append");
                        int old = model.length;
                        model = Arrays.copyOf(model, old + b.length);
                        System.arraycopy(b, 0, model, old, b.length);
                        expect(writer.position(), model.length, "APPEND writer position");
                    }
                    case 2 -> {
                        // truncate, sometimes below the reader's position
                        if (model.length > 0 && r.nextInt(3) == 0) {
                            int size = r.nextInt(model.length);
                            writer.truncate(size);
                            model = Arrays.copyOf(model, size);
                        }
                    }
                    default -> {
                        pos = readOne(reader, pos, model, model.length, r, "step " + step);
                        if (r.nextInt(8) == 0) {
                            pos = r.nextInt(model.length + 50);
                            reader.position(pos);
                        }
                    }
                }
                expect(reader.size(), model.length, "size");
            }
        } finally {
            Files.delete(f);
        }
    }

    // -- fd shared with a stream or RandomAccessFile --

    /**
     * FileInputStream reads, skips (also past EOF and back) and available()
     * interleaved with relative reads, position() and position(long) of its
     * channel: they share the fd, so each continues where the other left.
     */
    static void sharedWithFileInputStream(boolean cold) throws Exception {
        Random r = new Random(RAND.nextLong());
        if (cold)
            IoUringRings.evict(file);
        try (FileInputStream fis = new FileInputStream(file.toFile())) {
            FileChannel fc = fis.getChannel();
            long pos = 0;
            for (int step = 0; step < 400 && !(step > 60 && pos >= FILE_SIZE); step++) {
                String what = "step " + step + " at " + pos;
                switch (r.nextInt(9)) {
                    case 0, 1 -> {
                        int len = randomSize(r);
                        int off = r.nextInt(8);
                        byte[] b = new byte[off + len + 8];
                        int n = fis.read(b, off, len);
                        expect(n, expectedCount(pos, len, FILE_SIZE),
                                what + ": fis.read(" + len + ")");
                        if (n > 0) {
                            checkBytes(b, off, n, reference, pos, what + ": fis.read");
                            pos += n;
                        }
                    }
                    case 2 -> {
                        int c = fis.read();
                        expect(c, pos < FILE_SIZE ? reference[(int) pos] & 0xff : -1,
                                what + ": fis.read()");
                        if (c >= 0)
                            pos++;
                    }
                    case 3 -> {
                        // FileInputStream.skip is lseek: it may go past EOF, or back
                        long k = r.nextBoolean() ? r.nextInt(300000)
                                                 : -r.nextInt((int) Math.min(pos, 200000) + 1);
                        expect(fis.skip(k), k, what + ": fis.skip(" + k + ")");
                        pos += k;
                    }
                    case 4 -> expect(fis.available(), Math.max(0, FILE_SIZE - pos),
                                     what + ": fis.available()");
                    case 5 -> {
                        if (r.nextInt(4) == 0) {
                            pos = r.nextInt(FILE_SIZE + 10);
                            fc.position(pos);
                        }
                        expect(fc.position(), pos, what + ": channel position");
                    }
                    default -> pos = readOne(fc, pos, reference, FILE_SIZE, r, what + ": channel");
                }
                expect(fc.position(), pos, what + ": channel position after step");
            }
            if (pos < FILE_SIZE) {
                fc.position(FILE_SIZE - 1000);
                pos = FILE_SIZE - 1000;
            }
            readToEnd(fc, pos, reference, r, "FileInputStream's channel");
            expect(fis.read(), -1, "fis.read() at EOF");
            expect(fis.read(new byte[10]), -1, "fis.read(byte[]) at EOF");
            expect(fis.available(), 0, "fis.available() at EOF");
            // readAllBytes and readNBytes of the stream after channel reads
            fc.position(FILE_SIZE - 70000);
            ByteBuffer bb = ByteBuffer.allocate(30000);
            expect(fc.read(bb), 30000, "channel read before fis.readNBytes");
            byte[] rest = fis.readNBytes(20000);
            checkBytes(rest, 0, 20000, reference, FILE_SIZE - 40000, "fis.readNBytes");
            rest = fis.readAllBytes();
            expect(rest.length, 20000, "fis.readAllBytes length");
            checkBytes(rest, 0, 20000, reference, FILE_SIZE - 20000, "fis.readAllBytes");
            expect(fc.position(), FILE_SIZE, "channel position after fis.readAllBytes");
        }
    }

    /**
     * RandomAccessFile seek, getFilePointer, read, readFully and skipBytes
     * interleaved with relative reads of its channel.
     */
    static void sharedWithRandomAccessFile(boolean cold) throws Exception {
        Random r = new Random(RAND.nextLong());
        if (cold)
            IoUringRings.evict(file);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            FileChannel fc = raf.getChannel();
            long pos = 0;
            for (int step = 0; step < 300; step++) {
                String what = "step " + step + " at " + pos;
                switch (r.nextInt(8)) {
                    case 0 -> {
                        pos = (r.nextInt(10) == 0) ? FILE_SIZE + r.nextInt(1000)
                                                   : r.nextInt(FILE_SIZE);
                        raf.seek(pos);
                    }
                    case 1 -> {
                        int len = randomSize(r);
                        byte[] b = new byte[len + 3];
                        int n = raf.read(b, 3, len);
                        expect(n, expectedCount(pos, len, FILE_SIZE),
                                what + ": raf.read(" + len + ")");
                        if (n > 0) {
                            checkBytes(b, 3, n, reference, pos, what + ": raf.read");
                            pos += n;
                        }
                    }
                    case 2 -> {
                        int len = 1 + r.nextInt(5000);
                        if (pos + len <= FILE_SIZE) {
                            byte[] b = new byte[len];
                            raf.readFully(b);
                            checkBytes(b, 0, len, reference, pos, what + ": raf.readFully");
                            pos += len;
                        }
                    }
                    case 3 -> {
                        // skipBytes seeks to min(position + k, length), back from
                        // beyond EOF
                        int k = r.nextInt(100000);
                        long newPos = (k > 0) ? Math.min(pos + k, FILE_SIZE) : pos;
                        expect(raf.skipBytes(k), newPos - pos, what + ": raf.skipBytes(" + k + ")");
                        pos = newPos;
                    }
                    case 4 -> {
                        int c = raf.read();
                        expect(c, pos < FILE_SIZE ? reference[(int) pos] & 0xff : -1,
                                what + ": raf.read()");
                        if (c >= 0)
                            pos++;
                    }
                    default -> pos = readOne(fc, pos, reference, FILE_SIZE, r, what + ": channel");
                }
                expect(raf.getFilePointer(), pos, what + ": getFilePointer");
                expect(fc.position(), pos, what + ": channel position");
            }
            raf.seek(FILE_SIZE - 5000);
            readToEnd(fc, FILE_SIZE - 5000, reference, r, "RandomAccessFile's channel");
            expect(raf.getFilePointer(), FILE_SIZE, "getFilePointer at EOF");
            expect(raf.read(), -1, "raf.read() at EOF");
        }
    }

    /**
     * A file read and written through one fd, "rw" RandomAccessFile or
     * READ+WRITE FileChannel: relative writes and reads, setLength, truncate
     * and repositioning checked against a model of the file.
     */
    static void readWrite(boolean useRaf) throws Exception {
        Random r = new Random(RAND.nextLong());
        Path f = Files.createTempFile(DIR, "rw", ".dat");
        try (RandomAccessFile raf = useRaf ? new RandomAccessFile(f.toFile(), "rw") : null;
             FileChannel fc = useRaf ? raf.getChannel() : FileChannel.open(f, READ, WRITE)) {
            byte[] model = new byte[0];
            long pos = 0;
            for (int step = 0; step < 300; step++) {
                String what = "step " + step + " at " + pos + " of " + model.length;
                switch (r.nextInt(useRaf ? 9 : 7)) {
                    case 0, 1 -> {
                        byte[] b = new byte[1 + r.nextInt(r.nextBoolean() ? 100 : 70000)];
                        r.nextBytes(b);
                        ByteBuffer src = r.nextBoolean() ? ByteBuffer.wrap(b)
                                : ByteBuffer.allocateDirect(b.length).put(b).flip();
                        expect(fc.write(src), b.length, what + ": write");
                        model = write(model, pos, b);
                        pos += b.length;
                    }
                    case 2 -> {
                        pos = r.nextInt(model.length + 100);
                        fc.position(pos);
                    }
                    case 3 -> {
                        if (model.length > 0) {
                            int size = r.nextInt(model.length + 1);
                            fc.truncate(size);
                            model = Arrays.copyOf(model, size);
                            pos = Math.min(pos, size);
                        }
                    }
                    case 7 -> {
                        byte[] b = new byte[1 + r.nextInt(5000)];
                        r.nextBytes(b);
                        raf.write(b);
                        model = write(model, pos, b);
                        pos += b.length;
                    }
                    case 8 -> {
                        int size = r.nextInt(model.length + 5000);
                        raf.setLength(size);
                        model = Arrays.copyOf(model, size);
                        pos = Math.min(pos, size);
                    }
                    default -> {
                        if (r.nextInt(3) == 0) {
                            pos = r.nextInt(model.length + 1);
                            fc.position(pos);
                        }
                        pos = readOne(fc, pos, model, model.length, r, what);
                    }
                }
                expect(fc.position(), pos, what + ": position");
                expect(fc.size(), model.length, what + ": size");
                if (useRaf)
                    expect(raf.getFilePointer(), pos, what + ": getFilePointer");
            }
            fc.position(0);
            readToEnd(fc, 0, model, r, "read and write");
        } finally {
            Files.delete(f);
        }
    }

    /** The model of a file after writing b at pos (a hole before it reads zeros). */
    static byte[] write(byte[] model, long pos, byte[] b) {
        byte[] m = (pos + b.length > model.length) ? Arrays.copyOf(model, (int) pos + b.length)
                                                   : model;
        System.arraycopy(b, 0, m, (int) pos, b.length);
        return m;
    }

    /**
     * APPEND with READ is refused by FileChannel.open and Files.newByteChannel
     * (upstream's rule); APPEND channels and append FileOutputStreams are not
     * readable; a channel reading the file sees what they append.
     */
    static void append() throws Exception {
        Path f = Files.createTempFile(DIR, "append", ".dat");
        try {
            Files.write(f, Arrays.copyOf(reference, 1000));
            expectThrows(IllegalArgumentException.class,
                    () -> FileChannel.open(f, READ, APPEND).close());
            expectThrows(IllegalArgumentException.class,
                    () -> FileChannel.open(f, READ, WRITE, APPEND).close());
            expectThrows(IllegalArgumentException.class,
                    () -> Files.newByteChannel(f, READ, APPEND).close());
            try (FileChannel fc = FileChannel.open(f, WRITE, APPEND);
                 FileChannel reader = FileChannel.open(f, READ)) {
                expect(fc.position(), 1000, "APPEND channel position");
                ByteBuffer bb = ByteBuffer.allocate(100);
                expectThrows(NonReadableChannelException.class, () -> fc.read(bb));
                expect(bb.position(), 0, "buffer after read of APPEND channel");
                reader.position(990);
                expect(reader.read(ByteBuffer.allocate(100)), 10, "read up to EOF");
                expect(reader.read(ByteBuffer.allocate(100)), -1, "read at EOF");
                expect(fc.write(ByteBuffer.wrap(reference, 1000, 500)), 500, "append");
                expect(fc.position(), 1500, "APPEND channel position after write");
                ByteBuffer more = ByteBuffer.allocateDirect(1000);
                expect(reader.read(more), 500, "read of the appended bytes");
                expect(reader.position(), 1500, "reader position");
                for (int i = 0; i < 500; i++) {
                    if (more.get(i) != reference[1000 + i])
                        throw new RuntimeException("appended byte " + i + " differs");
                }
            }
            try (FileOutputStream fos = new FileOutputStream(f.toFile(), true)) {
                fos.write(1);
                ByteBuffer bb = ByteBuffer.allocate(10);
                expectThrows(NonReadableChannelException.class, () -> fos.getChannel().read(bb));
                expect(fos.getChannel().position(), 1501, "FileOutputStream append position");
            }
        } finally {
            Files.delete(f);
        }
    }

    /**
     * Read-only buffers, channels not open for reading, closed channels:
     * upstream's exceptions, the position left.
     */
    static void badInput() throws Exception {
        try (FileChannel fc = FileChannel.open(file, READ)) {
            fc.position(100);
            expectThrows(IllegalArgumentException.class,
                    () -> fc.read(ByteBuffer.allocate(10).asReadOnlyBuffer()));
            expectThrows(IllegalArgumentException.class,
                    () -> fc.read(ByteBuffer.allocateDirect(10).asReadOnlyBuffer()));
            expectThrows(NullPointerException.class, () -> fc.read((ByteBuffer) null));
            expect(fc.position(), 100, "position after bad reads");
            ByteBuffer bb = ByteBuffer.allocate(10);
            expect(fc.read(bb), 10, "read after bad reads");
            checkBytes(bb.array(), 0, 10, reference, 100, "read after bad reads");
        }
        Path f = Files.createTempFile(DIR, "wo", ".dat");
        try {
            Files.write(f, Arrays.copyOf(reference, 100));
            try (FileChannel fc = FileChannel.open(f, WRITE)) {
                expectThrows(NonReadableChannelException.class,
                        () -> fc.read(ByteBuffer.allocate(10)));
                expectThrows(NonReadableChannelException.class,
                        () -> fc.read(ByteBuffer.allocate(10).asReadOnlyBuffer()));
                expect(fc.position(), 0, "position of write-only channel");
            }
            try (FileOutputStream fos = new FileOutputStream(f.toFile())) {
                expectThrows(NonReadableChannelException.class,
                        () -> fos.getChannel().read(ByteBuffer.allocateDirect(10)));
            }
        } finally {
            Files.delete(f);
        }
        FileChannel closed = FileChannel.open(file, READ);
        closed.close();
        expectThrows(ClosedChannelException.class, () -> closed.read(ByteBuffer.allocate(10)));
        expectThrows(ClosedChannelException.class,
                () -> closed.read(ByteBuffer.allocate(10).asReadOnlyBuffer()));
        FileInputStream fis = new FileInputStream(file.toFile());
        FileChannel fisChannel = fis.getChannel();
        fis.close();
        expectThrows(ClosedChannelException.class, () -> fisChannel.read(ByteBuffer.allocate(10)));
        RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r");
        FileChannel rafChannel = raf.getChannel();
        raf.close();
        expectThrows(ClosedChannelException.class,
                () -> rafChannel.read(ByteBuffer.allocateDirect(10)));
    }

    // -- interrupts and asynchronous close --

    /**
     * A thread with its interrupt status set: ClosedByInterruptException, the
     * channel closed (and the stream whose channel it is), the status kept;
     * the uninterruptible channels of Files.newInputStream and readAllBytes
     * read on.
     */
    static void interruptStatusSet() throws Exception {
        try (FileChannel fc = FileChannel.open(file, READ)) {
            fc.position(100);
            Thread.currentThread().interrupt();
            expectThrows(ClosedByInterruptException.class, () -> fc.read(ByteBuffer.allocate(100)));
            if (!Thread.interrupted())
                throw new RuntimeException("interrupt status cleared");
            if (fc.isOpen())
                throw new RuntimeException("channel open after ClosedByInterruptException");
        }
        try (FileInputStream fis = new FileInputStream(file.toFile())) {
            expect(fis.read(new byte[10]), 10, "fis.read before interrupt");
            Thread.currentThread().interrupt();
            expectThrows(ClosedByInterruptException.class,
                    () -> fis.getChannel().read(ByteBuffer.allocateDirect(100)));
            if (!Thread.interrupted())
                throw new RuntimeException("interrupt status cleared");
            expectThrows(IOException.class, () -> fis.read());
        }
        try (InputStream in = Channels.newInputStream(FileChannel.open(file, READ))) {
            Thread.currentThread().interrupt();
            expectThrows(ClosedByInterruptException.class, () -> in.read(new byte[100]));
            Thread.interrupted();
        }
        try {
            Thread.currentThread().interrupt();
            byte[] all = Files.readAllBytes(file);
            if (!Arrays.equals(all, reference))
                throw new RuntimeException("readAllBytes with interrupt status set differs");
            try (InputStream in = Files.newInputStream(file)) {
                byte[] b = new byte[100000];
                expect(in.read(b), b.length, "Files.newInputStream read with interrupt status set");
                checkBytes(b, 0, b.length, reference, 0,
                        "Files.newInputStream, interrupt status set");
            }
            if (!Thread.currentThread().isInterrupted())
                throw new RuntimeException("interrupt status cleared by uninterruptible reads");
        } finally {
            Thread.interrupted();
        }
    }

    /**
     * Threads reading relative on their own channels (FileChannel,
     * FileInputStream's and RandomAccessFile's, the file often cold) are
     * interrupted: each ends with ClosedByInterruptException, its channel
     * closed, its interrupt status set, every read before correct.
     */
    static void interruptInFlight(ThreadFactory factory) throws Exception {
        int threads = 4;
        for (int iter = 0; iter < 24; iter++) {
            if (iter % 4 == 0)
                IoUringRings.evict(file);
            List<AutoCloseable> owners = new ArrayList<>();
            FileChannel[] channels = new FileChannel[threads];
            for (int t = 0; t < threads; t++) {
                switch ((iter + t) % 3) {
                    case 0 -> channels[t] = FileChannel.open(file, READ);
                    case 1 -> {
                        FileInputStream fis = new FileInputStream(file.toFile());
                        owners.add(fis);
                        channels[t] = fis.getChannel();
                    }
                    default -> {
                        RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r");
                        owners.add(raf);
                        channels[t] = raf.getChannel();
                    }
                }
            }
            Thread[] readers = new Thread[threads];
            @SuppressWarnings("unchecked")
            AtomicReference<Throwable>[] outcome = new AtomicReference[threads];
            boolean[] interruptedAfter = new boolean[threads];
            for (int t = 0; t < threads; t++) {
                int id = t;
                long seed = RAND.nextLong();
                outcome[t] = new AtomicReference<>();
                readers[t] = factory.newThread(() -> {
                    try {
                        Random r = new Random(seed);
                        FileChannel fc = channels[id];
                        long pos = r.nextInt(FILE_SIZE);
                        fc.position(pos);
                        for (;;) {
                            pos = readOne(fc, pos, reference, FILE_SIZE, r, "reader " + id);
                            if (pos >= FILE_SIZE) {
                                pos = 0;
                                fc.position(0);
                            }
                            // leave the carrier a while, so that a reader parked on
                            // a ring gets one back: interrupt waits for it (see
                            // IoUringCloseWait); an interrupt in the sleep is kept
                            // for the next read
                            try {
                                Thread.sleep(1);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                    } catch (Throwable e) {
                        outcome[id].set(e);
                    } finally {
                        interruptedAfter[id] = Thread.currentThread().isInterrupted();
                    }
                });
                readers[t].start();
            }
            Thread.sleep(RAND.nextInt(4));
            for (Thread t : readers)
                t.interrupt();
            for (int t = 0; t < threads; t++) {
                if (!readers[t].join(Duration.ofSeconds(60)))
                    throw new RuntimeException("reader " + t + " did not finish");
                Throwable e = outcome[t].get();
                if (!(e instanceof ClosedByInterruptException))
                    throw new RuntimeException("reader " + t + ": " + e, e);
                if (!interruptedAfter[t])
                    throw new RuntimeException("reader " + t + ": interrupt status not set");
                if (channels[t].isOpen())
                    throw new RuntimeException("reader " + t + ": channel still open");
            }
            for (AutoCloseable c : owners)
                c.close();
        }
    }

    /**
     * Threads sharing one channel (opened by FileChannel.open or a
     * FileInputStream) read the words file with relative reads of multiples
     * of 8 bytes: each read holds consecutive words, and the reads together
     * hold each word once, from the start: all of the file when no one
     * closes the channel, a prefix of it when it is closed under them; each
     * read returns data, -1 at EOF, or throws AsynchronousCloseException or
     * ClosedChannelException.
     */
    static void concurrentReadsAndClose(ThreadFactory factory, int threads) throws Exception {
        for (int iter = 0; iter < 30; iter++) {
            boolean close = iter % 5 != 0;
            if (iter % 3 == 0)
                IoUringRings.evict(words);
            FileInputStream fis = (iter % 2 == 1) ? new FileInputStream(words.toFile()) : null;
            FileChannel fc = (fis != null) ? fis.getChannel() : FileChannel.open(words, READ);
            List<long[]> ranges = Collections.synchronizedList(new ArrayList<>());
            @SuppressWarnings("unchecked")
            AtomicReference<Throwable>[] outcome = new AtomicReference[threads];
            Thread[] readers = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                int id = t;
                long seed = RAND.nextLong();
                outcome[t] = new AtomicReference<>();
                readers[t] = factory.newThread(() -> {
                    Random r = new Random(seed);
                    try {
                        for (;;) {
                            int len = 8 * (1 + r.nextInt(r.nextBoolean() ? 16 : 8192));
                            ByteBuffer bb = r.nextBoolean() ? ByteBuffer.allocate(len)
                                                            : ByteBuffer.allocateDirect(len);
                            int n = fc.read(bb);
                            if (n < 0)
                                break;
                            ranges.add(new long[] { checkWords(bb, n, "reader " + id), n });
                        }
                    } catch (Throwable e) {
                        outcome[id].set(e);
                    }
                });
                readers[t].start();
            }
            if (close) {
                Thread.sleep(RAND.nextInt(3));
                fc.close();
            }
            for (int t = 0; t < threads; t++) {
                if (!readers[t].join(Duration.ofSeconds(60)))
                    throw new RuntimeException("reader " + t + " did not finish");
                Throwable e = outcome[t].get();
                if (e == null)
                    continue;
                if (!close || e instanceof ClosedByInterruptException
                        || !(e instanceof AsynchronousCloseException
                             || e instanceof ClosedChannelException))
                    throw new RuntimeException("reader " + t + ": " + e, e);
            }
            // the reads cover 0..end once
            List<long[]> sorted = new ArrayList<>(ranges);
            sorted.sort(Comparator.comparingLong(a -> a[0]));
            long end = 0;
            for (long[] range : sorted) {
                if (range[0] != end)
                    throw new RuntimeException("iteration " + iter + ": a read starts at "
                            + range[0] + ", expected " + end + " (bytes read twice or lost)");
                end += range[1];
            }
            if (!close) {
                expect(end, WORDS * 8L, "bytes read by all readers");
                expect(fc.position(), WORDS * 8L, "shared position at the end");
            }
            fc.close();
            if (fis != null)
                fis.close();
        }
    }

    /** Checks that n bytes read hold consecutive words; returns the offset of the first. */
    static long checkWords(ByteBuffer bb, int n, String what) {
        if (n % 8 != 0)
            throw new RuntimeException(what + ": read " + n + " bytes, not a multiple of 8");
        long first = bb.getLong(0) ^ WORDS_KEY;
        if (first < 0 || first >= WORDS)
            throw new RuntimeException(what + ": read a word that is not in the file: " + first);
        for (int i = 1; i < n / 8; i++) {
            if ((bb.getLong(8 * i) ^ WORDS_KEY) != first + i)
                throw new RuntimeException(what + ": word " + i + " of a read at " + first * 8
                        + " differs");
        }
        return first * 8;
    }

    // -- Files, streams and readers from many threads --

    /** A file with its bytes, and for a text file its text and lines. */
    record TestFile(Path path, byte[] bytes, String text, List<String> lines) {
        boolean isText() {
            return text != null;
        }
    }

    static final String[] PIECES = { "a", "bc", "def ", "Z", "0123456789", "\u00e9", "\u4e2d",
                                     "\ud83d\ude00", " ", "\t", "x".repeat(100) };
    static final String[] SEPARATORS = { "\n", "\r\n", "\r" };

    /** Text of random lines with all three line separators, UTF-8 of 1 to 4 bytes. */
    static TestFile text(Path p, int approxChars, Random r) {
        StringBuilder sb = new StringBuilder();
        List<String> lines = new ArrayList<>();
        String sep = "\n";
        while (sb.length() < approxChars) {
            StringBuilder line = new StringBuilder();
            int pieces = r.nextInt(30);
            if (sep.equals("\r") && pieces == 0)
                pieces = 1;     // an empty line after "\r" would make "\r\n"
            for (int i = 0; i < pieces; i++)
                line.append(PIECES[r.nextInt(PIECES.length)]);
            lines.add(line.toString());
            sep = SEPARATORS[r.nextInt(SEPARATORS.length)];
            sb.append(line);
            if (r.nextInt(50) != 0 || sb.length() < approxChars)
                sb.append(sep);
            else
                break;
        }
        String text = sb.toString();
        return new TestFile(p, text.getBytes(StandardCharsets.UTF_8), text, List.copyOf(lines));
    }

    /**
     * SMALL_FILES files, odd ones text, even ones binary, of sizes around page
     * and buffer boundaries and random up to 100 KB; then the big binary file
     * and a big text file.
     */
    static List<TestFile> createFiles(Path dir) throws IOException {
        Random r = new Random(RAND.nextLong());
        int[] special = { 0, 1, 2, 4095, 4096, 4097, 8191, 8192, 8193, 16384, 65536, 65537 };
        List<TestFile> files = new ArrayList<>();
        for (int i = 0; i < SMALL_FILES; i++) {
            Path p = dir.resolve("f" + i);
            int size = (i / 2 < special.length) ? special[i / 2] : r.nextInt(100000);
            TestFile f;
            if (i % 2 == 1) {
                f = text(p, size, r);
            } else {
                byte[] b = new byte[size];
                r.nextBytes(b);
                f = new TestFile(p, b, null, null);
            }
            writeSynced(p, f.bytes());
            files.add(f);
        }
        files.add(new TestFile(file, reference, null, null));
        TestFile bigText = text(dir.resolve("bigText"), 1_500_000, r);
        writeSynced(bigText.path(), bigText.bytes());
        files.add(bigText);
        return files;
    }

    /**
     * The threads read the files with Files.readAllBytes, readString, lines,
     * newBufferedReader, newInputStream (with available, skip, and mark and
     * reset through a BufferedInputStream), Channels.newInputStream and
     * FileInputStream, at random, concurrently.
     */
    static void filesApis(List<TestFile> files, boolean virtual, boolean cold, int threads,
                          String name)
        throws Exception
    {
        long start = System.nanoTime();
        if (cold) {
            for (TestFile f : files)
                IoUringRings.evict(f.path());
        }
        long before = IoUringRings.completions();
        Semaphore big = new Semaphore(4);   // big readAllBytes at a time: bounded heap
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long seed = RAND.nextLong();
            tasks.add(() -> {
                Random r = new Random(seed);
                for (int i = 0; i < 24; i++) {
                    // mostly small files, the two big ones one time in 8
                    TestFile f = (r.nextInt(8) == 0) ? files.get(files.size() - 1 - r.nextInt(2))
                                                     : files.get(r.nextInt(SMALL_FILES));
                    int api = r.nextInt(f.isText() ? 11 : 7);
                    try {
                        readWith(api, f, r, big);
                    } catch (Exception | Error e) {
                        throw new RuntimeException(f.path().getFileName() + " (" + f.bytes().length
                                + " bytes) with reader " + api + ": " + e, e);
                    }
                }
                return null;
            });
        }
        try (ExecutorService ex = virtual ? Executors.newVirtualThreadPerTaskExecutor()
                                          : Executors.newFixedThreadPool(threads)) {
            for (Future<Void> fut : ex.invokeAll(tasks))
                fut.get();
        }
        System.out.println("Files methods, " + name + ": " + (System.nanoTime() - start) / 1_000_000
                + " ms, ring completions " + (IoUringRings.completions() - before));
    }

    static void readWith(int api, TestFile f, Random r, Semaphore big) throws Exception {
        Path p = f.path();
        byte[] ref = f.bytes();
        switch (api) {
            case 0 -> {
                boolean isBig = ref.length > 1_000_000;
                if (isBig)
                    big.acquire();
                try {
                    if (!Arrays.equals(Files.readAllBytes(p), ref))
                        throw new RuntimeException("Files.readAllBytes differs");
                } finally {
                    if (isBig)
                        big.release();
                }
            }
            case 1 -> {
                try (InputStream in = Files.newInputStream(p)) {
                    streamFlow(in, ref, false, r);
                }
            }
            case 2 -> {
                int size = 1 + r.nextInt(70000);
                try (InputStream in = new BufferedInputStream(Files.newInputStream(p), size)) {
                    streamFlow(in, ref, true, r);
                }
            }
            case 3 -> {
                try (InputStream in = Channels.newInputStream(FileChannel.open(p, READ))) {
                    streamFlow(in, ref, false, r);
                }
            }
            case 4 -> {
                // FileInputStream and its channel
                try (FileInputStream fis = new FileInputStream(p.toFile())) {
                    FileChannel fc = fis.getChannel();
                    long pos = 0;
                    while (pos < ref.length) {
                        if (r.nextBoolean()) {
                            pos = readOne(fc, pos, ref, ref.length, r, "FileInputStream's channel");
                        } else {
                            byte[] b = new byte[1 + r.nextInt(20000)];
                            int n = fis.read(b);
                            expect(n, expectedCount(pos, b.length, ref.length), "fis.read");
                            checkBytes(b, 0, n, ref, pos, "fis.read");
                            pos += n;
                        }
                    }
                    expect(fis.read(), -1, "fis.read() at EOF");
                    expect(fc.read(ByteBuffer.allocate(1)), -1, "channel read at EOF");
                }
            }
            case 5 -> {
                try (FileChannel fc = FileChannel.open(p, READ)) {
                    readToEnd(fc, 0, ref, r, "FileChannel");
                }
            }
            case 6 -> {
                // readNBytes and transferTo of a stream
                try (InputStream in = Files.newInputStream(p)) {
                    int k = r.nextInt(ref.length + 10);
                    byte[] head = in.readNBytes(k);
                    expect(head.length, Math.min(k, ref.length), "readNBytes");
                    checkBytes(head, 0, head.length, ref, 0, "readNBytes");
                    var out = new java.io.ByteArrayOutputStream();
                    expect(in.transferTo(out), ref.length - head.length, "transferTo");
                    checkBytes(out.toByteArray(), 0, ref.length - head.length, ref, head.length,
                               "transferTo");
                }
            }
            case 7 -> {
                if (!Files.readString(p).equals(f.text()))
                    throw new RuntimeException("Files.readString differs");
            }
            case 8 -> {
                try (Stream<String> s = Files.lines(p)) {
                    if (!s.toList().equals(f.lines()))
                        throw new RuntimeException("Files.lines differs");
                }
            }
            case 9 -> {
                try (BufferedReader br = Files.newBufferedReader(p)) {
                    List<String> lines = new ArrayList<>();
                    String line;
                    while ((line = br.readLine()) != null)
                        lines.add(line);
                    if (!lines.equals(f.lines()))
                        throw new RuntimeException("Files.newBufferedReader lines differ");
                }
            }
            default -> {
                try (BufferedReader br = Files.newBufferedReader(p)) {
                    StringBuilder sb = new StringBuilder();
                    char[] cb = new char[1 + r.nextInt(10000)];
                    int n;
                    while ((n = br.read(cb, 0, 1 + r.nextInt(cb.length))) > 0)
                        sb.append(cb, 0, n);
                    if (!sb.toString().equals(f.text()))
                        throw new RuntimeException("Files.newBufferedReader text differs");
                }
            }
        }
    }

    /**
     * Random reads, skips, available() and (when buffered) mark and reset on
     * a stream of the file, checked against its bytes; then the rest with
     * readAllBytes.
     */
    static void streamFlow(InputStream in, byte[] ref, boolean buffered, Random r)
        throws IOException
    {
        int size = ref.length;
        long pos = 0;
        long mark = -1;
        int markLimit = 0;
        for (int step = 0; step < 60 && !(step > 10 && pos >= size); step++) {
            String what = "step " + step + " at " + pos + " of " + size;
            switch (r.nextInt(buffered ? 8 : 6)) {
                case 0, 1 -> {
                    int len = randomSize(r);
                    int off = r.nextInt(5);
                    byte[] b = new byte[off + len];
                    int n = in.read(b, off, len);
                    expect(n, expectedCount(pos, len, size), what + ": read(" + len + ")");
                    if (n > 0) {
                        checkBytes(b, off, n, ref, pos, what + ": read");
                        pos += n;
                    }
                }
                case 2 -> {
                    int c = in.read();
                    expect(c, pos < size ? ref[(int) pos] & 0xff : -1, what + ": read()");
                    if (c >= 0)
                        pos++;
                }
                case 3 -> {
                    long k = r.nextInt(200000);
                    long s = in.skip(k);
                    long max = Math.max(0, Math.min(k, size - pos));
                    // a BufferedInputStream skips what it holds, at least a byte if any
                    if (buffered ? (s > max || (s == 0 && max > 0)) : s != max)
                        throw new RuntimeException(what + ": skip(" + k + ") returned " + s
                                + ", expected " + (buffered ? "1.." : "") + max);
                    pos += s;
                }
                case 4 -> {
                    if (!buffered && pos > 0 && r.nextBoolean()) {
                        // a file's ChannelInputStream skips back
                        long k = 1 + r.nextInt((int) Math.min(pos, 300000));
                        expect(in.skip(-k), -k, what + ": skip(-" + k + ")");
                        pos -= k;
                    }
                }
                case 5 -> expect(in.available(), Math.max(0, size - pos), what + ": available()");
                case 6 -> {
                    markLimit = 1 + r.nextInt(200000);
                    in.mark(markLimit);
                    mark = pos;
                }
                default -> {
                    if (mark >= 0 && pos - mark <= markLimit) {
                        in.reset();
                        pos = mark;
                    }
                }
            }
        }
        byte[] rest = in.readAllBytes();
        expect(rest.length, size - Math.min(pos, size), "readAllBytes length");
        checkBytes(rest, 0, rest.length, ref, pos, "readAllBytes");
        expect(in.read(), -1, "read() at EOF");
        expect(in.available(), 0, "available() at EOF");
    }

    // -- which reads use a ring --

    /**
     * always: relative reads of regular files (FileChannel, FileInputStream's
     * channel, Files.readAllBytes) use a ring, scattering reads and O_DIRECT
     * relative reads do not; auto: relative reads by platform threads, and by
     * a lone virtual thread, do not, cold or hot; never: no ring exists.
     */
    static void ringUse(List<TestFile> files) throws Exception {
        List<String> failures = new ArrayList<>();
        switch (MODE) {
            case "always" -> {
                for (boolean virtual : new boolean[] { false, true }) {
                    String kind = virtual ? "virtual" : "platform";
                    long before = IoUringRings.completions();
                    int reads = onThread(virtual, () -> {
                        int n = 0;
                        try (FileChannel fc = FileChannel.open(file, READ)) {
                            ByteBuffer bb = ByteBuffer.allocateDirect(4096);
                            for (int i = 0; i < 16; i++, n++)
                                fc.read(bb.clear());
                        }
                        try (FileInputStream fis = new FileInputStream(file.toFile())) {
                            for (int i = 0; i < 8; i++, n++)
                                fis.getChannel().read(ByteBuffer.allocate(1000));
                        }
                        for (int i = 0; i < 8; i++, n++)
                            Files.readAllBytes(files.get(2 * (i + 1)).path());   // nonempty
                        return n;
                    });
                    long used = IoUringRings.completions() - before;
                    System.out.println("always, " + kind + ": " + reads + " relative reads, "
                            + used + " ring completions");
                    if (used < reads)
                        failures.add("always, " + kind + ": " + reads + " relative reads of"
                                + " regular files posted " + used + " ring completions"
                                + " (relative reads do not use the ring)");

                    before = IoUringRings.completions();
                    onThread(virtual, () -> {
                        try (FileChannel fc = FileChannel.open(file, READ)) {
                            for (int i = 0; i < 8; i++)
                                fc.read(new ByteBuffer[] { ByteBuffer.allocate(100),
                                                           ByteBuffer.allocateDirect(100) });
                        }
                        return 0;
                    });
                    used = IoUringRings.completions() - before;
                    if (used != 0)
                        failures.add("always, " + kind + ": scattering reads posted " + used
                                + " ring completions");

                    before = IoUringRings.completions();
                    boolean direct = onThread(virtual, () -> directRelativeReads()) > 0;
                    used = IoUringRings.completions() - before;
                    if (direct && used != 0)
                        failures.add("always, " + kind + ": O_DIRECT relative reads posted " + used
                                + " ring completions");
                }
            }
            case "auto" -> {
                for (boolean virtual : new boolean[] { false, true }) {
                    for (boolean cold : new boolean[] { false, true }) {
                        String c = "auto, " + (cold ? "cold" : "hot") + " relative reads by a "
                                + (virtual ? "lone virtual" : "platform") + " thread";
                        if (cold)
                            IoUringRings.evict(file);
                        else
                            Files.readAllBytes(file);
                        long before = IoUringRings.completions();
                        onThread(virtual, () -> {
                            try (FileChannel fc = FileChannel.open(file, READ)) {
                                ByteBuffer bb = ByteBuffer.allocate(16384);
                                while (fc.read(bb.clear()) > 0) { }
                            }
                            return 0;
                        });
                        long used = IoUringRings.completions() - before;
                        System.out.println(c + ": " + used + " ring completions");
                        if (used != 0)
                            failures.add(c + ": " + used + " ring completions, expected none");
                    }
                }
            }
            case "never" -> {
                if (!IoUringRings.fds().isEmpty())
                    failures.add("never: io_uring fds open: " + IoUringRings.fds());
            }
            default -> throw new RuntimeException("mode " + MODE);
        }
        if (!failures.isEmpty())
            throw new RuntimeException("ring use differs from the " + MODE + " policy: "
                    + failures);
    }

    interface IOCall {
        int call() throws Exception;
    }

    static int onThread(boolean virtual, IOCall call) throws Exception {
        int[] result = new int[1];
        Throwable[] failure = new Throwable[1];
        Runnable task = () -> {
            try {
                result[0] = call.call();
            } catch (Throwable e) {
                failure[0] = e;
            }
        };
        Thread t = virtual ? Thread.ofVirtual().start(task) : Thread.ofPlatform().start(task);
        t.join();
        if (failure[0] != null)
            throw new RuntimeException(failure[0]);
        return result[0];
    }

    /** Relative reads of a file opened O_DIRECT; returns 0 if O_DIRECT is not supported. */
    static int directRelativeReads() throws IOException {
        int align = (int) Files.getFileStore(file).getBlockSize();
        FileChannel fc;
        try {
            fc = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT);
        } catch (IOException | UnsupportedOperationException e) {
            System.out.println("O_DIRECT not supported here: " + e);
            return 0;
        }
        try (fc) {
            ByteBuffer bb = ByteBuffer.allocateDirect(3 * align).alignedSlice(align)
                    .limit(2 * align);
            for (int i = 0; i < 8; i++) {
                expect(fc.read(bb.clear().limit(2 * align)), 2 * align, "O_DIRECT relative read");
                bb.flip();
                if (bb.mismatch(ByteBuffer.wrap(reference, 2 * align * i, 2 * align)) >= 0)
                    throw new RuntimeException("O_DIRECT relative read " + i + " differs");
            }
            return 8;
        }
    }
}

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
 * @summary AsynchronousFileChannel reads and writes, Future and CompletionHandler forms,
 *          initiated by platform and virtual threads, into heap and direct buffers: the
 *          bytes, the return values, the buffer positions and the exceptions are those of
 *          upstream's channel (the never run) and of pread/pwrite (FileChannel); on the
 *          patched JDK the channel is io_uring's, and in always, where an operation goes to
 *          the ring also when it is the only one outstanding, every one goes to a ring;
 *          also many reads at a time of a file cached in part
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm IoUringAsyncBasic
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm -Djdk.nio.file.ioUring=never IoUringAsyncBasic
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always IoUringAsyncBasic
 */

/*
 * @test id=unavailable
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm -Djdk.internal.nio.ioUring.testUnavailable=simulated IoUringAsyncBasic
 */

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;

public class IoUringAsyncBasic {
    static final Random RAND = RandomFactory.getRandom();
    static final int SIZE = 1 << 20;
    static final byte SENTINEL = (byte) 0xA5;

    // the bytes the file should have
    static byte[] model;
    static int operations;

    public static void main(String[] args) throws Exception {
        Path file = Files.createTempFile(Path.of("."), "basic", ".dat");
        Path other = Files.createTempFile(Path.of("."), "basic", ".grow");
        try {
            model = IoUringAsyncChannels.randomBytes(RAND, SIZE);
            Files.write(file, model);
            boolean uring;
            try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ, WRITE)) {
                uring = IoUringAsyncChannels.checkImplementation(ch);
            }
            System.out.println("io_uring channel: " + uring);
            long before = uring ? IoUringRings.completions() : 0;

            for (boolean virtual : new boolean[] { false, true }) {
                for (boolean future : new boolean[] { false, true }) {
                    for (String kind : new String[] { "heap", "heapSlice", "direct", "directSlice" }) {
                        System.out.println((virtual ? "virtual" : "platform") + " thread, "
                                + (future ? "Future" : "CompletionHandler") + ", " + kind);
                        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ, WRITE);
                             FileChannel fc = FileChannel.open(file, READ)) {
                            IoUringAsyncChannels.checkImplementation(ch);
                            reads(ch, virtual, future, kind);
                            writes(ch, fc, virtual, future, kind);
                        }
                    }
                }
            }
            if (!Arrays.equals(Files.readAllBytes(file), model))
                throw new RuntimeException("the file is not what was written");
            growing(other);
            exceptions(file);
            emptyAndClosed(file);
            farPositions(file);
            partlyCached(file);
            upstreamOperations(file);

            // one at a time, the operations go to the ring in always only
            if (uring && IoUringAsyncChannels.always()) {
                long done = IoUringRings.completions() - before;
                System.out.println(operations + " operations, " + done + " ring completions");
                if (done < operations)
                    throw new RuntimeException("only " + done + " ring completions for "
                                               + operations + " operations");
            } else if (!uring && !IoUringRings.fds().isEmpty()
                       && !"never".equals(System.getProperty("jdk.internal.nio.ioUring.mode", System.getProperty("jdk.nio.file.ioUring")))) {
                throw new RuntimeException("rings were set up but the channel is upstream's");
            }
            fifo();
        } finally {
            Files.delete(file);
            Files.delete(other);
        }
        System.out.println("passed");
    }

    /** A buffer of the given kind with len bytes remaining, its other bytes SENTINEL. */
    static ByteBuffer buffer(String kind, int len) {
        int extra = 1 + RAND.nextInt(64);
        ByteBuffer bb = switch (kind) {
            case "heap" -> ByteBuffer.allocate(len);
            case "heapSlice" -> ByteBuffer.allocate(len + 2 * extra).position(extra).slice();
            case "direct" -> ByteBuffer.allocateDirect(len);
            case "directSlice" -> ByteBuffer.allocateDirect(len + 2 * extra).position(extra).slice();
            default -> throw new IllegalArgumentException(kind);
        };
        for (int i = 0; i < bb.capacity(); i++)
            bb.put(i, SENTINEL);
        int start = (bb.capacity() > len) ? RAND.nextInt(bb.capacity() - len + 1) : 0;
        return bb.limit(start + len).position(start);
    }

    /** Reads through the channel in the form asked, as Future.get returns. */
    static int read(AsynchronousFileChannel ch, ByteBuffer bb, long position, boolean future)
        throws Exception
    {
        operations++;
        return IoUringAsyncChannels.transfer(ch, false, bb, position, future);
    }

    /** Writes through the channel in the form asked, as Future.get returns. */
    static int write(AsynchronousFileChannel ch, ByteBuffer bb, long position, boolean future)
        throws Exception
    {
        operations++;
        return IoUringAsyncChannels.transfer(ch, true, bb, position, future);
    }

    static void check(boolean ok, String what) {
        if (!ok)
            throw new RuntimeException(what);
    }

    /**
     * Checks a read of n bytes into bb, which had start as its position and
     * limit as its limit, at the given file position: the bytes read are the
     * file's, the position has moved by n, and no other byte has changed.
     */
    static void checkRead(ByteBuffer bb, int start, int limit, long position, int n) {
        check(bb.position() == start + Math.max(n, 0), "position " + bb.position()
              + " after reading " + n + " bytes from " + start);
        check(bb.limit() == limit, "limit changed");
        ByteBuffer all = bb.duplicate().clear();
        for (int i = 0; i < all.capacity(); i++) {
            byte expected = (i >= start && i < start + n) ? model[(int) position + i - start]
                                                          : SENTINEL;
            if (all.get(i) != expected)
                throw new RuntimeException("byte " + i + " of the buffer is " + all.get(i)
                        + ", expected " + expected + " (read " + n + " at " + position + ")");
        }
    }

    /** A random length for the i-th transfer, up to 100,000 every fourth time, else 8192. */
    static int randomLength(int i) {
        return 1 + RAND.nextInt((i % 4 == 0) ? 100_000 : 8192);
    }

    static void reads(AsynchronousFileChannel ch, boolean virtual, boolean future, String kind)
        throws Exception
    {
        // whole reads at random positions, of random lengths
        for (int i = 0; i < 20; i++) {
            int len = randomLength(i);
            long position = RAND.nextInt(SIZE - len + 1);
            ByteBuffer bb = buffer(kind, len);
            int start = bb.position();
            int n = IoUringAsyncChannels.inThread(virtual, () -> read(ch, bb, position, future));
            check(n == len, "read " + n + " of " + len + " at " + position);
            checkRead(bb, start, bb.limit(), position, n);
        }
        // across the end of the file: what there is
        int len = 10_000;
        long position = SIZE - 1234;
        ByteBuffer bb = buffer(kind, len);
        int start = bb.position();
        int n = IoUringAsyncChannels.inThread(virtual, () -> read(ch, bb, position, future));
        check(n == 1234, "read " + n + " across the end of the file, expected 1234");
        checkRead(bb, start, bb.limit(), position, n);
        // at and after the end: -1, nothing changed
        for (long p : new long[] { SIZE, SIZE + 1, SIZE + 100_000 }) {
            ByteBuffer eof = buffer(kind, 4096);
            int s = eof.position();
            int m = IoUringAsyncChannels.inThread(virtual, () -> read(ch, eof, p, future));
            check(m == -1, "read at " + p + " of a file of " + SIZE + " returned " + m);
            checkRead(eof, s, eof.limit(), p, 0);
        }
    }

    /**
     * Many reads at a time (in auto, all but the one that is the only one
     * outstanding take the io_uring channel's own path) of a file that is in
     * the page cache in part: the first half of a read's range, all of it, or
     * none, and a read across the end of the file whose first half is cached.
     * Each returns what pread returns, the file's bytes, in every kind of
     * buffer.
     */
    static void partlyCached(Path file) throws Exception {
        // the writes before left the file's pages dirty, and only clean pages
        // can be evicted
        try (FileChannel fc = FileChannel.open(file, WRITE)) {
            fc.force(false);
        }
        if (!IoUringRings.canEvict(file)) {
            System.out.println("the page cache keeps the file here: partly cached reads skipped");
            return;
        }
        String[] kinds = { "heap", "heapSlice", "direct", "directSlice" };
        int len = 64 * 1024;
        for (int round = 0; round < 4; round++) {
            IoUringRings.evict(file);
            long[] positions = new long[16];
            try (FileChannel fc = FileChannel.open(file, READ)) {
                for (int i = 0; i < positions.length; i++) {
                    positions[i] = (i == 0) ? SIZE - len / 2 : RAND.nextInt(SIZE - len + 1);
                    int cached = switch (i % 3) {
                        case 0 -> len / 2;
                        case 1 -> 0;
                        default -> len;
                    };
                    if (cached > 0)
                        fc.read(ByteBuffer.allocate(cached), positions[i]);
                }
            }
            try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ)) {
                ByteBuffer[] buffers = new ByteBuffer[positions.length];
                int[] starts = new int[positions.length];
                List<IoUringAsyncChannels.Outcome<Integer>> outcomes = new ArrayList<>();
                for (int i = 0; i < positions.length; i++) {
                    buffers[i] = buffer(kinds[i % kinds.length], len);
                    starts[i] = buffers[i].position();
                    var o = new IoUringAsyncChannels.Outcome<Integer>(ch);
                    operations++;
                    ch.read(buffers[i], positions[i], null, o);
                    outcomes.add(o);
                }
                for (int i = 0; i < positions.length; i++) {
                    int n = outcomes.get(i).get();
                    int expected = (int) Math.min(len, SIZE - positions[i]);
                    check(n == expected, "read " + n + " at " + positions[i] + ", expected "
                          + expected + " (partly cached)");
                    checkRead(buffers[i], starts[i], buffers[i].limit(), positions[i], n);
                }
            }
        }
    }

    static void writes(AsynchronousFileChannel ch, FileChannel fc, boolean virtual,
                       boolean future, String kind)
        throws Exception
    {
        for (int i = 0; i < 20; i++) {
            int len = randomLength(i);
            int position = RAND.nextInt(SIZE - len + 1);
            byte[] bytes = IoUringAsyncChannels.randomBytes(RAND, len);
            ByteBuffer bb = buffer(kind, len);
            int start = bb.position();
            bb.put(start, bytes);
            int n = IoUringAsyncChannels.inThread(virtual, () -> write(ch, bb, position, future));
            check(n == len, "wrote " + n + " of " + len + " at " + position);
            check(bb.position() == start + len, "position " + bb.position() + " after writing "
                  + len + " bytes from " + start);
            System.arraycopy(bytes, 0, model, position, len);
            // the file, read with pread
            ByteBuffer back = ByteBuffer.allocate(len);
            fc.read(back, position);
            check(Arrays.equals(back.array(), bytes), "the bytes written at " + position
                  + " are not in the file");
        }
    }

    /**
     * Writes past the end of a file extend it, with zeros in the gap, as
     * pwrite does; reads of the gap return zeros.
     */
    static void growing(Path file) throws Exception {
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ, WRITE)) {
            long size = 0;
            for (int i = 0; i < 10; i++) {
                boolean future = (i % 2 == 0);
                long position = size + RAND.nextInt(100_000);
                ByteBuffer bb = ByteBuffer.allocateDirect(1 + RAND.nextInt(5000));
                int len = bb.remaining();
                int n = write(ch, bb, position, future);
                check(n == len, "wrote " + n + " of " + len + " past the end");
                size = position + len;
                check(ch.size() == size, "size " + ch.size() + " after writing to " + size);
                ByteBuffer gap = ByteBuffer.allocate(1000);
                long at = Math.max(0, position - 1000);
                int m = read(ch, gap, at, !future);
                check(m == 1000, "read " + m + " before " + position);
            }
        }
    }

    /**
     * The exceptions that read and write throw, before any I/O, in both
     * forms: upstream's checks in upstream's order.
     */
    static void exceptions(Path file) throws Exception {
        IoUringAsyncChannels.Outcome<Integer> h;
        try (AsynchronousFileChannel rw = AsynchronousFileChannel.open(file, READ, WRITE);
             AsynchronousFileChannel ro = AsynchronousFileChannel.open(file, READ);
             AsynchronousFileChannel wo = AsynchronousFileChannel.open(file, WRITE);
             Arena arena = Arena.ofConfined()) {
            for (AsynchronousFileChannel ch : new AsynchronousFileChannel[] { rw, ro, wo })
                IoUringAsyncChannels.checkImplementation(ch);
            ByteBuffer bb = ByteBuffer.allocateDirect(100);
            ByteBuffer readOnly = ByteBuffer.allocate(100).asReadOnlyBuffer();
            ByteBuffer confined = arena.allocate(100).asByteBuffer();
            h = new IoUringAsyncChannels.Outcome<>(rw);
            var handler = h;

            expect(IllegalArgumentException.class, "read at -1",
                    () -> rw.read(bb, -1));
            expect(IllegalArgumentException.class, "read at -1 (handler)",
                    () -> rw.read(bb, -1, null, handler));
            expect(IllegalArgumentException.class, "write at -1",
                    () -> rw.write(bb, -1));
            expect(IllegalArgumentException.class, "write at -1 (handler)",
                    () -> rw.write(bb, -1, null, handler));
            expect(IllegalArgumentException.class, "read at Long.MIN_VALUE",
                    () -> rw.read(bb, Long.MIN_VALUE));
            expect(IllegalArgumentException.class, "read into a read-only buffer",
                    () -> rw.read(readOnly, 0));
            expect(IllegalArgumentException.class, "read into a read-only buffer (handler)",
                    () -> rw.read(readOnly, 0, null, handler));
            expect(IllegalArgumentException.class, "read into a thread-confined buffer",
                    () -> rw.read(confined, 0));
            expect(IllegalArgumentException.class, "write of a thread-confined buffer",
                    () -> rw.write(confined, 0, null, handler));
            expect(NonReadableChannelException.class, "read of a write-only channel",
                    () -> wo.read(bb, 0));
            expect(NonReadableChannelException.class, "read of a write-only channel (handler)",
                    () -> wo.read(bb, 0, null, handler));
            expect(NonWritableChannelException.class, "write to a read-only channel",
                    () -> ro.write(bb, 0));
            expect(NonWritableChannelException.class, "write to a read-only channel (handler)",
                    () -> ro.write(bb, 0, null, handler));
            // upstream checks the position first
            expect(IllegalArgumentException.class, "read at -1 of a write-only channel",
                    () -> wo.read(bb, -1));
            expect(IllegalArgumentException.class, "write at -1 to a read-only channel",
                    () -> ro.write(bb, -1));
            expect(IllegalArgumentException.class,
                   "read of a write-only channel into a read-only buffer",
                    () -> wo.read(readOnly, 0));
            expect(NullPointerException.class, "read into null",
                    () -> rw.read(null, 0));
            expect(NullPointerException.class, "write of null",
                    () -> rw.write(null, 0));
            expect(NullPointerException.class, "read with a null handler",
                    () -> rw.read(bb, 0, null, null));
            expect(NullPointerException.class, "write with a null handler",
                    () -> rw.write(bb, 0, null, null));
            // nothing was done
            check(bb.position() == 0, "a failed call moved the buffer");
        }
        Thread.sleep(100);
        check(h.calls() == 0, "the handler was invoked for a call that threw");
    }

    /**
     * Nothing to transfer: 0 at once; a closed channel: ClosedChannelException,
     * also with nothing to transfer, in both forms.
     */
    static void emptyAndClosed(Path file) throws Exception {
        int counted = operations;   // none of these reaches a ring
        AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ, WRITE);
        IoUringAsyncChannels.checkImplementation(ch);
        for (boolean future : new boolean[] { false, true }) {
            for (ByteBuffer bb : new ByteBuffer[] { ByteBuffer.allocate(10).position(10),
                                                    ByteBuffer.allocateDirect(0) }) {
                check(read(ch, bb, 0, future) == 0, "read into a full buffer");
                check(write(ch, bb, 0, future) == 0, "write of an empty buffer");
                check(read(ch, bb, SIZE + 10, future) == 0, "read into a full buffer past the end");
            }
        }
        ch.close();
        check(!ch.isOpen(), "open after close");
        for (boolean future : new boolean[] { false, true }) {
            for (ByteBuffer bb : new ByteBuffer[] { ByteBuffer.allocate(10), ByteBuffer.allocateDirect(10),
                                                    ByteBuffer.allocate(0) }) {
                for (int k = 0; k < 2; k++) {
                    boolean reading = (k == 0);
                    try {
                        int n = reading ? read(ch, bb, 0, future) : write(ch, bb, 0, future);
                        throw new RuntimeException((reading ? "read" : "write")
                                + " on a closed channel returned " + n);
                    } catch (ExecutionException e) {
                        if (!(e.getCause() instanceof ClosedChannelException)
                                || e.getCause().getClass() != ClosedChannelException.class)
                            throw new RuntimeException("closed channel: " + e.getCause(), e);
                    }
                    check(bb.position() == 0, "the buffer of an operation on a closed channel moved");
                }
            }
        }
        operations = counted;
    }

    /**
     * Positions near Long.MAX_VALUE and past what the file system takes:
     * the same results and IOException messages as pread/pwrite through a
     * FileChannel.
     */
    static void farPositions(Path file) throws Exception {
        long[] positions = { Long.MAX_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE - 4096,
                             1L << 62, 1L << 50, 1L << 44 };
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ, WRITE);
             FileChannel fc = FileChannel.open(file, READ, WRITE)) {
            for (long position : positions) {
                for (boolean reading : new boolean[] { true, false }) {
                    for (boolean future : new boolean[] { false, true }) {
                        String expected = outcome(() -> reading
                                ? fc.read(ByteBuffer.allocate(4096), position)
                                : fc.write(ByteBuffer.allocate(4096), position));
                        String actual = outcome(() -> reading
                                ? read(ch, ByteBuffer.allocateDirect(4096), position, future)
                                : write(ch, ByteBuffer.allocate(4096), position, future));
                        System.out.println((reading ? "read" : "write") + " at " + position
                                + ": " + actual);
                        check(expected.equals(actual), (reading ? "read" : "write") + " at "
                              + position + ": " + actual + ", pread/pwrite: " + expected);
                        // a write that worked is undone
                        if (!reading && !actual.startsWith("threw"))
                            ch.truncate(SIZE);
                    }
                }
            }
        }
    }

    interface IntCall {
        int call() throws Exception;
    }

    /** What the call returns or throws (an ExecutionException's cause), as a string. */
    static String outcome(IntCall call) {
        try {
            return "returned " + call.call();
        } catch (ExecutionException e) {
            return "threw " + e.getCause();
        } catch (Exception e) {
            return "threw " + e;
        }
    }

    /**
     * A FIFO, which io_uring would read ignoring the position, gets upstream's
     * channel, whose pread fails as FileChannel's does.
     */
    static void fifo() throws Exception {
        Path fifo = Path.of("basic.fifo");
        Files.deleteIfExists(fifo);
        try {
            if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() != 0)
                throw new RuntimeException("mkfifo failed");
        } catch (IOException e) {
            System.out.println("no mkfifo: " + e);
            return;
        }
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(fifo, READ, WRITE);
             FileChannel fc = FileChannel.open(fifo, READ, WRITE)) {
            check(ch.getClass().getName().equals(IoUringAsyncChannels.SIMPLE),
                  "a FIFO got " + ch.getClass().getName());
            String expected = outcome(() -> fc.read(ByteBuffer.allocate(10), 0));
            String actual = outcome(() -> read(ch, ByteBuffer.allocateDirect(10), 0, true));
            System.out.println("read of a FIFO: " + actual);
            check(expected.equals(actual), "read of a FIFO: " + actual + ", pread: " + expected);
        } finally {
            Files.delete(fifo);
        }
    }

    /**
     * size, truncate, force, lock and tryLock are upstream's: a sanity check.
     */
    static void upstreamOperations(Path file) throws Exception {
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ, WRITE)) {
            check(ch.size() == SIZE, "size " + ch.size());
            ch.truncate(SIZE + 1);
            check(ch.size() == SIZE, "truncate to a larger size changed the size");
            ch.force(true);
            ch.force(false);
            FileLock lock = ch.tryLock(0, 10, false);
            check(lock != null && lock.acquiredBy() == ch && lock.isValid(), "tryLock");
            lock.release();
            lock = IoUringAsyncChannels.get(ch.lock(10, 10, true));
            check(lock.acquiredBy() == ch && lock.isShared(), "lock");
            IoUringAsyncChannels.Outcome<FileLock> h = new IoUringAsyncChannels.Outcome<>(ch);
            ch.lock(100, 10, false, null, h);
            FileLock other = h.get();
            check(other.acquiredBy() == ch && !other.isShared(), "lock (handler)");
            ch.close();
            check(!lock.isValid() && !other.isValid(), "locks valid after close");
        }
        check(Objects.equals(Files.size(file), (long) SIZE), "size after truncate");
    }

    static void expect(Class<? extends Throwable> expected, String what, Runnable action) {
        IoUringAsyncChannels.expect(expected, what, action);
    }
}

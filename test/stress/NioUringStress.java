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

import java.io.Closeable;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import javax.management.ObjectName;

/**
 * Stress and leak check for positional FileChannel I/O (io_uring or
 * pread/pwrite) and InputStream.skip on pipes, FIFOs and sockets, with
 * interrupts and asynchronous closes thrown in. Run with the source launcher:
 *
 * <pre>
 *   java -Djdk.internal.nio.ioUring.mode=always NioUringStress.java --duration=60s
 *   java -XX:NativeMemoryTracking=detail -Djdk.internal.nio.ioUring.mode=always \
 *        NioUringStress.java --leak-check
 *   java NioUringStress.java --duration=10s --inject-corruption
 * </pre>
 *
 * File data: every block of {@code unit} bytes holds its file id, block index,
 * generation, pseudo-random filler derived from those, and a CRC32C of the
 * rest. The generation last written to each block is kept in memory. Blocks
 * are grouped in 64 KiB regions, each with a read-write lock, and no operation
 * crosses a region, so the expected content of every block read is exact. A
 * write that fails (interrupt, asynchronous close) may or may not have reached
 * the file: the writer, still holding the region lock, reads the blocks back,
 * accepts each only if it holds either the old or the attempted generation
 * intact, and rewrites them until a write succeeds.
 *
 * Stream data: the writer of each pipe, FIFO or socket sends an endless
 * sequence whose byte at offset k is known; the reader skips random amounts
 * and checks the bytes that follow each skip.
 *
 * Exceptions are counted by where they were thrown and their type; any that
 * upstream cannot throw in the same situation is a failure, as are corrupted
 * data, short skips, a thread that makes no progress for two minutes, and (in
 * the leak check) fds, threads or NMT memory that do not return to their
 * level after a warm-up, or malloc memory outside NMT that grows by more than
 * --malloc-bound-mib after freed memory is given back with
 * System.trim_native_heap (with NMT detail mode, which tells the JVM's own
 * mappings apart).
 *
 * Self-test: with --inject-corruption the run also corrupts data behind the
 * harness's back, as a bug in the code under test would (see Injector), and
 * prints a SELFTEST line saying whether every kind of injected corruption was
 * reported by the check that guards against it. Such a run ends in FAIL, as
 * it must; the SELFTEST line is the verdict on the harness.
 */
public class NioUringStress {

    static final int REGION = 64 * 1024;
    static final int MAGIC = 0x55524e47;
    static final long MIB = 1024 * 1024;

    // the stream sequence: byte k is SEQ[k % PERIOD]; SEQ is longer than PERIOD
    // so that a chunk of up to 64 KiB can be written from any offset
    static final int PERIOD = 1_048_573;
    static final byte[] SEQ = new byte[PERIOD + REGION];
    static {
        long x = 0x2545F4914F6CDD1DL;
        for (int i = 0; i < PERIOD; i++) {
            x ^= x << 13; x ^= x >>> 7; x ^= x << 17;
            SEQ[i] = (byte) (x >>> 32);
        }
        System.arraycopy(SEQ, 0, SEQ, PERIOD, REGION);
    }
    static int seq(long k) {
        return SEQ[(int) (k % PERIOD)] & 0xff;
    }

    // -- configuration --

    static long durationMillis = 60_000;
    static int platformWorkers = 8;
    static int virtualWorkers = 256;
    static int skipPlatform = 1;        // skip readers per stream kind on platform threads
    static int skipVirtual = 2;         // ... on virtual threads
    static int chaosThreads = 2;
    static int chaosMicros = 2000;      // mean pause between chaos actions of one chaos thread
    static int pauseMicros = 2000;      // mean pause between skips of one skip reader
    static Path baseDir = Path.of(System.getProperty("dir", "/var/tmp"));
    static long fileSize = 64 * MIB;
    static int fileCount = 4;
    static boolean leakCheck;
    static long leakOps = 1_000_000;
    static long warmupOps = 100_000;
    static long nmtBoundKB = 1024;
    static long mallocBoundMiB = 32;
    static int stallSeconds = 120;
    static Injector inject;             // null unless --inject-corruption

    static final String MODE = System.getProperty("jdk.internal.nio.ioUring.mode", System.getProperty("jdk.nio.file.ioUring", "auto"));

    // -- statistics --

    static final LongAdder reads = new LongAdder();
    static final LongAdder writes = new LongAdder();
    static final LongAdder skips = new LongAdder();
    static final LongAdder streamReads = new LongAdder();
    static final LongAdder bytesSkipped = new LongAdder();
    static final LongAdder bytesVerified = new LongAdder();
    static final LongAdder uncertainWrites = new LongAdder();
    static final LongAdder uncertainOld = new LongAdder();
    static final LongAdder uncertainNew = new LongAdder();
    static final LongAdder interrupts = new LongAdder();
    static final LongAdder fileCloses = new LongAdder();
    static final LongAdder streamCloses = new LongAdder();
    static final LongAdder reopens = new LongAdder();
    static final LongAdder sessions = new LongAdder();
    static final AtomicLong corruptions = new AtomicLong();
    static final AtomicLong unexpected = new AtomicLong();
    static final AtomicLong otherFailures = new AtomicLong();
    static final Map<String, LongAdder> exceptions = new ConcurrentHashMap<>();
    static final List<String> failureLog = new CopyOnWriteArrayList<>();
    static volatile int peakThreads;

    static long ops() {
        return reads.sum() + writes.sum() + skips.sum();
    }

    static void failure(AtomicLong counter, String msg, Throwable t) {
        counter.incrementAndGet();
        if (failureLog.size() < 50) {
            failureLog.add(msg);
            System.err.println("FAILURE: " + msg);
            if (t != null)
                t.printStackTrace();
        }
    }

    /**
     * Counts an exception thrown at the given place and checks that upstream
     * could throw it there.
     */
    static void record(String where, Throwable e) {
        String key = where + ":" + e.getClass().getSimpleName();
        if (e.getClass() == IOException.class || e.getClass() == SocketException.class)
            key += "(" + e.getMessage() + ")";
        exceptions.computeIfAbsent(key, k -> new LongAdder()).increment();
        if (!expected(where, e))
            failure(unexpected, "unexpected exception at " + where + ": " + e, e);
    }

    static boolean isChannelClose(Throwable e) {
        // ClosedByInterruptException and AsynchronousCloseException are subclasses
        return e instanceof ClosedChannelException;
    }

    static boolean expected(String where, Throwable e) {
        String msg = String.valueOf(e.getMessage());
        switch (where) {
            case "file-read", "file-write", "file-readback",
                 "pipe", "fifo-nio", "socketchannel":
                // FileChannelImpl, SourceChannelImpl, SocketChannelImpl: closed
                // before, by another thread during, or by interrupting the operation
                return isChannelClose(e);
            case "fifo-fis":
                // FileInputStream is neither interruptible nor closed while in use here
                return false;
            case "socket":
                // NioSocketImpl: "Socket closed" after an asynchronous close,
                // "Closed by interrupt" when a virtual thread is interrupted
                return e.getClass() == SocketException.class
                        && (msg.equals("Socket closed") || msg.equals("Closed by interrupt"));
            case "setup":
                // a virtual thread interrupted while connecting or accepting
                return isChannelClose(e)
                        || (e.getClass() == SocketException.class && msg.equals("Closed by interrupt"));
            default:
                if (where.endsWith("-writer")) {
                    // the reader went away: EPIPE or ECONNRESET, or the writer's
                    // own end was closed by the session shutdown
                    return isChannelClose(e)
                            || ((e.getClass() == IOException.class || e.getClass() == SocketException.class)
                                && (msg.contains("Broken pipe") || msg.startsWith("Connection reset")
                                    || msg.equals("Socket closed") || msg.equals("Stream Closed")));
                }
                return false;
        }
    }

    // -- files --

    static final class TestFile {
        final int id;
        final Path path;
        final int unit;         // block size
        final boolean dsync, direct;
        final int align;        // buffer alignment for O_DIRECT
        final int blocks;
        final long[] gen;       // committed generation of each block, guarded by region lock
        final ReentrantReadWriteLock[] locks;
        final AtomicLong nextGen = new AtomicLong(1);
        private final Object reopenLock = new Object();
        private volatile FileChannel ch;

        TestFile(int id, Path path, int unit, boolean dsync, boolean direct, int align) {
            this.id = id;
            this.path = path;
            this.unit = unit;
            this.dsync = dsync;
            this.direct = direct;
            this.align = align;
            this.blocks = (int) (fileSize / unit);
            this.gen = new long[blocks];
            this.locks = new ReentrantReadWriteLock[(int) (fileSize / REGION)];
            for (int i = 0; i < locks.length; i++)
                locks[i] = new ReentrantReadWriteLock();
        }

        String describe() {
            return path.getFileName() + "(" + unit + "B" + (dsync ? ",DSYNC" : "")
                    + (direct ? ",DIRECT" : "") + ")";
        }

        OpenOption[] options() {
            List<OpenOption> opts = new ArrayList<>(List.of(StandardOpenOption.READ,
                                                            StandardOpenOption.WRITE));
            if (dsync)
                opts.add(StandardOpenOption.DSYNC);
            if (direct)
                opts.add(com.sun.nio.file.ExtendedOpenOption.DIRECT);
            return opts.toArray(new OpenOption[0]);
        }

        /** The shared channel, reopened if it was closed. */
        FileChannel channel() throws IOException {
            FileChannel c = ch;
            if (c != null && c.isOpen())
                return c;
            synchronized (reopenLock) {
                c = ch;
                if (c == null || !c.isOpen()) {
                    c = FileChannel.open(path, options());
                    ch = c;
                    reopens.increment();
                }
                return c;
            }
        }

        void chaosClose() {
            FileChannel c = ch;
            if (c != null) {
                try {
                    c.close();
                } catch (IOException e) {
                    record("chaos-close", e);
                }
            }
        }

        void closeChannel() throws IOException {
            synchronized (reopenLock) {
                if (ch != null)
                    ch.close();
                ch = null;
            }
        }
    }

    static long mix(long a, long b, long c) {
        long x = a * 0x9E3779B97F4A7C15L ^ b * 0xC2B2AE3D27D4EB4FL ^ c * 0x165667B19E3779F9L;
        x ^= x >>> 31;
        return (x == 0) ? 1 : x;
    }

    /** Writes block {@code block} of generation {@code gen} at buffer index {@code off}. */
    static void fillBlock(ByteBuffer b, int off, TestFile f, int block, long gen, CRC32C crc) {
        int unit = f.unit;
        b.putInt(off, f.id);
        b.putInt(off + 4, block);
        b.putLong(off + 8, gen);
        long x = mix(f.id, block, gen);
        for (int p = off + 16; p < off + unit - 8; p += 8) {
            x ^= x << 13; x ^= x >>> 7; x ^= x << 17;
            b.putLong(p, x);
        }
        b.putInt(off + unit - 8, MAGIC);
        crc.reset();
        crc.update(b.slice(off, unit - 4));
        b.putInt(off + unit - 4, (int) crc.getValue());
    }

    /**
     * Checks the block at buffer index off; returns its generation, or a
     * negative value if it is not an intact block {@code block} of {@code f}.
     */
    static long checkBlock(ByteBuffer b, int off, TestFile f, int block, CRC32C crc) {
        int unit = f.unit;
        crc.reset();
        crc.update(b.slice(off, unit - 4));
        if (b.getInt(off + unit - 4) != (int) crc.getValue() || b.getInt(off + unit - 8) != MAGIC)
            return -1;      // torn or garbage
        if (b.getInt(off) != f.id)
            return -2;      // from another file
        if (b.getInt(off + 4) != block)
            return -3;      // misplaced
        return b.getLong(off + 8);
    }

    static String describeBad(long g) {
        return (g == -1) ? "torn/garbage (CRC)" : (g == -2) ? "wrong file" : (g == -3) ? "misplaced block"
                : "generation " + g;
    }

    /** Per-worker buffers. */
    static final class Buffers {
        final ByteBuffer heap = ByteBuffer.allocate(REGION + 8192);
        final ByteBuffer direct = ByteBuffer.allocateDirect(REGION + 8192);
        final ByteBuffer aligned;
        final CRC32C crc = new CRC32C();
        final int align;

        Buffers(int align) {
            this.align = align;
            this.aligned = ByteBuffer.allocateDirect(REGION + 4 * align).alignedSlice(align);
        }

        /**
         * A buffer whose remaining bytes, from its position, are len bytes:
         * heap, direct, sliced at an offset, or with a non-zero position.
         */
        ByteBuffer get(TestFile f, int len, ThreadLocalRandom r) {
            if (f.direct) {
                int off = r.nextInt(3) * align;
                return r.nextBoolean() ? aligned.slice(off, len)
                                       : aligned.duplicate().limit(off + len).position(off);
            }
            int off = r.nextInt(8192);
            return switch (r.nextInt(6)) {
                case 0 -> heap.slice(0, len);
                case 1 -> heap.slice(off, len);
                case 2 -> heap.duplicate().limit(off + len).position(off);
                case 3 -> direct.slice(0, len);
                case 4 -> direct.slice(off, len);
                default -> direct.duplicate().limit(off + len).position(off);
            };
        }
    }

    static void readFully(FileChannel c, ByteBuffer b, long pos) throws IOException {
        long p = pos;
        while (b.hasRemaining()) {
            int n = c.read(b, p);
            if (n < 0)
                throw new EOFException("EOF at " + p);
            p += n;
        }
    }

    static void writeFully(FileChannel c, ByteBuffer b, long pos) throws IOException {
        long p = pos;
        while (b.hasRemaining())
            p += c.write(b, p);
    }

    static final class Worker {
        final TestFile[] files;
        final Buffers bufs;

        Worker(TestFile[] files) {
            this.files = files;
            this.bufs = new Buffers(files[0].align);
        }

        void op(ThreadLocalRandom r) {
            TestFile f = files[r.nextInt(files.length)];
            int perRegion = REGION / f.unit;
            int shift = r.nextInt(Integer.numberOfTrailingZeros(perRegion) + 1);
            int count = 1 + r.nextInt(perRegion >> shift);
            int region = r.nextInt(f.locks.length);
            int first = region * perRegion + r.nextInt(perRegion - count + 1);
            ReentrantReadWriteLock lock = f.locks[region];
            if (r.nextInt(100) < 40) {
                lock.writeLock().lock();
                try {
                    write(f, first, count, r);
                } finally {
                    lock.writeLock().unlock();
                }
            } else {
                lock.readLock().lock();
                try {
                    read(f, first, count, r);
                } finally {
                    lock.readLock().unlock();
                }
            }
        }

        void read(TestFile f, int first, int count, ThreadLocalRandom r) {
            int len = count * f.unit;
            ByteBuffer b = bufs.get(f, len, r);
            int start = b.position();
            try {
                readFully(f.channel(), b, (long) first * f.unit);
            } catch (IOException e) {
                record("file-read", e);
                Thread.interrupted();
                return;
            }
            reads.increment();
            int flipped = -1;   // self-test: the block whose buffer copy was changed after the read
            if (inject != null && inject.claim(Injected.READ_BUFFER)) {
                flipped = r.nextInt(count);
                int p = start + flipped * f.unit + r.nextInt(f.unit);
                b.put(p, (byte) (b.get(p) ^ (1 + r.nextInt(255))));
            }
            for (int i = 0; i < count; i++) {
                int block = first + i;
                long g = checkBlock(b, start + i * f.unit, f, block, bufs.crc);
                if (g != f.gen[block]) {
                    failure(corruptions, "read " + f.describe() + " block " + block + ": expected generation "
                            + f.gen[block] + ", found " + describeBad(g) + " (op of " + count
                            + " blocks at block " + first + ")"
                            + (inject == null ? "" : inject.note(f, block, i == flipped ? Injected.READ_BUFFER : null,
                                                                  "read")), null);
                } else if (i == flipped) {
                    inject.missed(Injected.READ_BUFFER, "read " + f.describe() + " block " + block);
                }
            }
            bytesVerified.add(len);
        }

        void write(TestFile f, int first, int count, ThreadLocalRandom r) {
            int len = count * f.unit;
            long pos = (long) first * f.unit;
            long g = f.nextGen.getAndIncrement();
            ByteBuffer b = bufs.get(f, len, r);
            int start = b.position();
            for (int i = 0; i < count; i++)
                fillBlock(b, start + i * f.unit, f, first + i, g, bufs.crc);
            try {
                writeFully(f.channel(), b, pos);
                for (int i = 0; i < count; i++)
                    f.gen[first + i] = g;
                if (inject != null)
                    inject.overwritten(f, first, count);
                writes.increment();
                return;
            } catch (IOException e) {
                record("file-write", e);
                Thread.interrupted();
            }

            // The write may have happened, in part or in whole: each block must
            // now hold the old or the attempted generation, intact.
            uncertainWrites.increment();
            long[] known = new long[count];
            System.arraycopy(f.gen, first, known, 0, count);
            long attempted = g;
            for (int attempt = 0; ; attempt++) {
                if (attempt == 1000) {
                    failure(otherFailures, "cannot rewrite " + f.describe() + " block " + first, null);
                    return;
                }
                ByteBuffer rb = bufs.get(f, len, r);
                int rstart = rb.position();
                try {
                    readFully(f.channel(), rb, pos);
                } catch (IOException e) {
                    record("file-readback", e);
                    Thread.interrupted();
                    attempt--;
                    continue;
                }
                reads.increment();
                bytesVerified.add(len);
                int flipped = -1;   // self-test: the block whose buffer copy is changed
                if (attempt == 0 && inject != null && inject.claim(Injected.READBACK_BUFFER))
                    flipped = r.nextInt(count);
                for (int i = 0; i < count; i++) {
                    int block = first + i;
                    long found = checkBlock(rb, rstart + i * f.unit, f, block, bufs.crc);
                    long real = found;
                    if (i == flipped) {
                        // what was really read stays the model for the next attempt
                        int p = rstart + i * f.unit + r.nextInt(f.unit);
                        rb.put(p, (byte) (rb.get(p) ^ (1 + r.nextInt(255))));
                        found = checkBlock(rb, rstart + i * f.unit, f, block, bufs.crc);
                    }
                    if (found == attempted) {
                        if (attempt == 0) uncertainNew.increment();
                        if (i == flipped)
                            inject.missed(Injected.READBACK_BUFFER, "read-back of " + f.describe() + " block " + block);
                    } else if (found == known[i]) {
                        if (attempt == 0) uncertainOld.increment();
                        if (i == flipped)
                            inject.missed(Injected.READBACK_BUFFER, "read-back of " + f.describe() + " block " + block);
                    } else {
                        failure(corruptions, "after failed write to " + f.describe() + " block " + block
                                + ": expected generation " + known[i] + " or " + attempted + ", found "
                                + describeBad(found) + " (op of " + count + " blocks at block " + first
                                + ")" + (inject == null ? "" : inject.note(f, block,
                                        i == flipped ? Injected.READBACK_BUFFER : null, "readback")), null);
                    }
                    known[i] = real;
                }

                attempted = f.nextGen.getAndIncrement();
                ByteBuffer wb = bufs.get(f, len, r);
                int wstart = wb.position();
                for (int i = 0; i < count; i++)
                    fillBlock(wb, wstart + i * f.unit, f, first + i, attempted, bufs.crc);
                try {
                    writeFully(f.channel(), wb, pos);
                    for (int i = 0; i < count; i++)
                        f.gen[first + i] = attempted;
                    if (inject != null)
                        inject.overwritten(f, first, count);
                    writes.increment();
                    return;
                } catch (IOException e) {
                    record("file-write", e);
                    Thread.interrupted();
                }
            }
        }
    }

    static TestFile[] createFiles(Path dir) throws IOException {
        int align = (int) Math.max(512, Files.getFileStore(dir).getBlockSize());
        TestFile[] files = new TestFile[fileCount];
        for (int i = 0; i < fileCount; i++) {
            Path p = dir.resolve("file" + i);
            TestFile f = switch (i % 4) {
                case 0 -> new TestFile(i, p, 512, false, false, align);
                case 1 -> new TestFile(i, p, 4096, false, false, align);
                case 2 -> new TestFile(i, p, 4096, true, false, align);
                default -> new TestFile(i, p, Math.max(4096, align), false, true, align);
            };
            files[i] = f;
            // generation 0 of every block, written without DSYNC/DIRECT and
            // through RandomAccessFile's write(2), not the positional path
            // under test, so that an offset bug there cannot cancel out
            CRC32C crc = new CRC32C();
            byte[] a = new byte[(int) MIB];
            ByteBuffer b = ByteBuffer.wrap(a);
            Files.createFile(p);
            try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
                int perChunk = (int) (MIB / f.unit);
                for (int block = 0; block < f.blocks; block += perChunk) {
                    for (int k = 0; k < perChunk; k++)
                        fillBlock(b, k * f.unit, f, block + k, 0, crc);
                    raf.seek((long) block * f.unit);
                    raf.write(a);
                }
                raf.getFD().sync();
            }
        }
        return files;
    }

    /**
     * Reads every block of every file and checks its committed generation.
     * The reads go through RandomAccessFile's read(2), not the positional
     * path under test.
     */
    static long verifyFiles(TestFile[] files) throws IOException {
        long verified = 0;
        CRC32C crc = new CRC32C();
        byte[] a = new byte[(int) MIB];
        ByteBuffer b = ByteBuffer.wrap(a);
        for (TestFile f : files) {
            try (RandomAccessFile raf = new RandomAccessFile(f.path.toFile(), "r")) {
                int perChunk = (int) (MIB / f.unit);
                for (int block = 0; block < f.blocks; block += perChunk) {
                    raf.seek((long) block * f.unit);
                    raf.readFully(a);
                    for (int k = 0; k < perChunk; k++) {
                        long g = checkBlock(b, k * f.unit, f, block + k, crc);
                        if (g != f.gen[block + k]) {
                            failure(corruptions, "final check of " + f.describe() + " block " + (block + k)
                                    + ": expected generation " + f.gen[block + k] + ", found " + describeBad(g)
                                    + (inject == null ? "" : inject.note(f, block + k, null, "final")), null);
                        }
                    }
                    verified += MIB;
                }
            }
        }
        bytesVerified.add(verified);
        return verified;
    }

    // -- streams --

    enum Kind {
        PIPE("pipe"), FIFO_NIO("fifo-nio"), FIFO_FIS("fifo-fis"), SOCKET("socket"),
        SOCKET_CHANNEL("socketchannel");
        final String label;
        Kind(String label) {
            this.label = label;
        }
    }

    /** A reader with its writer thread, producing the known sequence. */
    static final class Session {
        final Kind kind;
        final Path fifo;
        InputStream in;
        volatile Closeable chaosTarget;     // what chaos may close; null if nothing
        volatile boolean stop;
        volatile boolean writerOpened;
        Thread writer;

        Session(Kind kind, Path fifo) {
            this.kind = kind;
            this.fifo = fifo;
        }

        void open(boolean virtual) throws IOException {
            InetAddress lo = InetAddress.getLoopbackAddress();
            switch (kind) {
                case PIPE -> {
                    Pipe p = Pipe.open();
                    in = Channels.newInputStream(p.source());
                    startWriter(virtual, () -> writeChannel(p.sink()));
                    chaosTarget = in;
                }
                case FIFO_NIO, FIFO_FIS -> {
                    // FileOutputStream pins a virtual thread's carrier while it
                    // blocks on a full FIFO (upstream, no compensation): with
                    // readers waiting for carriers that would never end
                    startWriter(false, () -> {
                        try (OutputStream out = new FileOutputStream(fifo.toFile())) {
                            writerOpened = true;
                            writeStream(out);
                        }
                    });
                    if (kind == Kind.FIFO_NIO) {
                        in = Files.newInputStream(fifo);
                        chaosTarget = in;
                    } else {
                        in = new FileInputStream(fifo.toFile());
                    }
                }
                case SOCKET -> {
                    Socket s;
                    Socket a;
                    try (ServerSocket ss = new ServerSocket(0, 1, lo)) {
                        s = new Socket(lo, ss.getLocalPort());
                        try {
                            a = ss.accept();
                        } catch (IOException e) {
                            s.close();
                            throw e;
                        }
                    }
                    in = s.getInputStream();
                    startWriter(virtual, () -> {
                        try (a) {
                            writeStream(a.getOutputStream());
                        }
                    });
                    chaosTarget = s;
                }
                case SOCKET_CHANNEL -> {
                    SocketChannel sc;
                    SocketChannel a;
                    try (ServerSocketChannel ssc = ServerSocketChannel.open()) {
                        ssc.bind(new InetSocketAddress(lo, 0), 1);
                        sc = SocketChannel.open(ssc.getLocalAddress());
                        try {
                            a = ssc.accept();
                        } catch (IOException e) {
                            sc.close();
                            throw e;
                        }
                    }
                    in = Channels.newInputStream(sc);
                    startWriter(virtual, () -> writeChannel(a));
                    chaosTarget = sc;
                }
            }
        }

        interface IORunnable {
            void run() throws IOException;
        }

        void startWriter(boolean virtual, IORunnable body) {
            Runnable task = () -> {
                try {
                    body.run();
                } catch (IOException e) {
                    record(kind.label + "-writer", e);
                } catch (Throwable t) {
                    failure(unexpected, kind.label + " writer: " + t, t);
                }
            };
            Thread.Builder b = virtual ? Thread.ofVirtual() : Thread.ofPlatform().daemon();
            writer = b.name(kind.label + "-writer").start(task);
        }

        void writeStream(OutputStream out) throws IOException {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            long p = 0;
            while (!stop) {
                int len = 1 + r.nextInt(REGION);
                out.write(SEQ, (int) (p % PERIOD), len);
                p += len;
            }
        }

        void writeChannel(WritableByteChannel ch) throws IOException {
            try (ch) {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                long p = 0;
                while (!stop) {
                    int len = 1 + r.nextInt(REGION);
                    ByteBuffer b = ByteBuffer.wrap(SEQ, (int) (p % PERIOD), len);
                    while (b.hasRemaining())
                        ch.write(b);
                    p += len;
                }
            }
        }

        /** Skips and checks until the limit, the end of the phase, or an exception. */
        void run(Phase ph, int slot) throws IOException {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            long limit = (16 + r.nextLong(1024)) * MIB;
            long off = 0;
            byte[] chunk = new byte[8192];
            while (ph.running && off < limit) {
                // pause so that the streams leave CPU time to the file workers;
                // an interrupt ends the pause and hits the next skip
                LockSupport.parkNanos(r.nextLong(2L * pauseMicros * 1000 + 1));
                int c = r.nextInt(100);
                long n = (c < 80) ? 1 + r.nextInt(REGION)
                        : (c < 96) ? 1 + r.nextInt((int) MIB)
                        : (c < 98) ? 1 + r.nextInt((int) (8 * MIB))
                        : (c == 98) ? 0 : -1 - r.nextInt(100);
                long s = in.skip(n);
                skips.increment();
                long want = Math.max(n, 0);
                // self-test: expect one byte more than skip may return
                boolean miscounted = inject != null && inject.claim(Injected.SKIP_COUNT);
                if (miscounted)
                    want++;
                if (s != want) {
                    failure(otherFailures, kind.label + ": skip(" + n + ") at offset " + off
                            + " returned " + s + (want != n ? ", expected " + want : "")
                            + (miscounted ? inject.note(Injected.SKIP_COUNT, kind.label) : ""),
                            null);
                    return;
                }
                if (miscounted)
                    inject.missed(Injected.SKIP_COUNT, kind.label + ": skip(" + n + ") returned " + s);
                off += s;
                bytesSkipped.add(s);
                // self-test, once the bytes after the skip are in hand: move the
                // expected offset, as if skip had discarded more than it said
                boolean shifted;
                if (r.nextInt(4) == 0) {
                    int k = in.read(chunk, 0, 1 + r.nextInt(chunk.length));
                    if (k <= 0) {
                        failure(otherFailures, kind.label + ": read returned " + k + " at offset " + off, null);
                        return;
                    }
                    shifted = inject != null && inject.claim(Injected.SKIP_CHUNK);
                    if (shifted)
                        off = Injector.shift(off);
                    for (int i = 0; i < k; i++) {
                        if ((chunk[i] & 0xff) != seq(off + i)) {
                            failure(corruptions, kind.label + ": wrong byte at offset " + (off + i)
                                    + " after skip(" + n + ")"
                                    + (shifted ? inject.note(Injected.SKIP_CHUNK, kind.label) : ""), null);
                            return;
                        }
                    }
                    off += k;
                    bytesVerified.add(k);
                    if (shifted)
                        inject.missed(Injected.SKIP_CHUNK, kind.label + ": " + k + " bytes after skip(" + n + ")");
                } else {
                    int b = in.read();
                    shifted = b >= 0 && inject != null && inject.claim(Injected.SKIP_BYTE);
                    if (shifted)
                        off = Injector.shift(off);
                    if (b != seq(off)) {
                        failure(corruptions, kind.label + ": byte at offset " + off + " after skip(" + n
                                + ") is " + b + ", expected " + seq(off)
                                + (shifted ? inject.note(Injected.SKIP_BYTE, kind.label) : ""), null);
                        return;
                    }
                    off++;
                    bytesVerified.add(1);
                    if (shifted)
                        inject.missed(Injected.SKIP_BYTE, kind.label + ": byte after skip(" + n + ")");
                }
                streamReads.increment();
                ph.progress[slot] = System.nanoTime();
            }
        }

        /** Closes the reader, then makes sure the writer has finished. */
        void shutdown() {
            stop = true;
            chaosTarget = null;
            closeQuietly(in);
            if (!joinQuietly(writer, 5_000) && (kind == Kind.FIFO_NIO || kind == Kind.FIFO_FIS)
                    && !writerOpened) {
                // the reader never opened the FIFO: let the writer's open complete
                try {
                    new FileInputStream(fifo.toFile()).close();
                } catch (IOException ignore) { }
            }
            if (!joinQuietly(writer, 60_000))
                failure(otherFailures, kind.label + " writer does not finish", null);
        }
    }

    static void closeQuietly(Closeable c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignore) { }
        }
    }

    /** Joins, ignoring interrupts; returns true if the thread has terminated. */
    static boolean joinQuietly(Thread t, long millis) {
        if (t == null)
            return true;
        long deadline = System.currentTimeMillis() + millis;
        while (t.isAlive()) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0)
                return false;
            try {
                t.join(left);
            } catch (InterruptedException e) {
                // chaos
            }
        }
        return true;
    }

    // -- phases --

    static final class Phase {
        volatile boolean running = true;
        volatile boolean chaosRunning = true;
        final List<Thread> workers = new ArrayList<>();
        final List<Thread> chaos = new ArrayList<>();
        final List<Session> live = new CopyOnWriteArrayList<>();
        long[] progress;
        Thread[] progressThreads;
    }

    static Phase startPhase(TestFile[] files, Path[] fifos) {
        Phase ph = new Phase();
        int nkinds = Kind.values().length;
        int nslots = platformWorkers + virtualWorkers + nkinds * (skipPlatform + skipVirtual);
        ph.progress = new long[nslots];
        ph.progressThreads = new Thread[nslots];
        long now = System.nanoTime();
        java.util.Arrays.fill(ph.progress, now);
        int slot = 0;
        for (int i = 0; i < platformWorkers + virtualWorkers; i++) {
            final int s = slot++;
            Runnable task = () -> {
                Worker w = new Worker(files);
                ThreadLocalRandom r = ThreadLocalRandom.current();
                while (ph.running) {
                    try {
                        w.op(r);
                    } catch (Throwable t) {
                        failure(unexpected, "file worker: " + t, t);
                    }
                    ph.progress[s] = System.nanoTime();
                }
            };
            Thread t = (i < platformWorkers)
                    ? Thread.ofPlatform().name("file-p" + i).unstarted(task)
                    : Thread.ofVirtual().name("file-v" + (i - platformWorkers)).unstarted(task);
            ph.workers.add(t);
            ph.progressThreads[s] = t;
        }
        int fifoIndex = 0;
        for (Kind k : Kind.values()) {
            for (int i = 0; i < skipPlatform + skipVirtual; i++) {
                final int s = slot++;
                final boolean virtual = i >= skipPlatform;
                final Path fifo = (k == Kind.FIFO_NIO || k == Kind.FIFO_FIS) ? fifos[fifoIndex++] : null;
                Runnable task = () -> {
                    while (ph.running) {
                        Thread.interrupted();
                        Session session = new Session(k, fifo);
                        try {
                            try {
                                session.open(virtual);
                            } catch (IOException e) {
                                record("setup", e);
                                continue;
                            }
                            sessions.increment();
                            ph.live.add(session);
                            session.run(ph, s);
                        } catch (IOException e) {
                            record(k.label, e);
                        } catch (Throwable t) {
                            failure(unexpected, k.label + " reader: " + t, t);
                        } finally {
                            ph.live.remove(session);
                            session.shutdown();
                        }
                        ph.progress[s] = System.nanoTime();
                    }
                };
                String name = k.label + (virtual ? "-v" : "-p") + i;
                Thread t = virtual ? Thread.ofVirtual().name(name).unstarted(task)
                                   : Thread.ofPlatform().name(name).unstarted(task);
                ph.workers.add(t);
                ph.progressThreads[s] = t;
            }
        }
        for (int i = 0; i < chaosThreads; i++) {
            Thread t = Thread.ofPlatform().name("chaos" + i).unstarted(() -> chaos(ph, files));
            ph.chaos.add(t);
        }
        ph.workers.forEach(Thread::start);
        ph.chaos.forEach(Thread::start);
        return ph;
    }

    static void chaos(Phase ph, TestFile[] files) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        List<Thread> targets = ph.workers;
        while (ph.chaosRunning) {
            LockSupport.parkNanos(r.nextLong(2L * chaosMicros * 1000 + 1));
            int a = r.nextInt(100);
            if (a < 70) {
                targets.get(r.nextInt(targets.size())).interrupt();
                interrupts.increment();
            } else if (a < 80) {
                files[r.nextInt(files.length)].chaosClose();
                fileCloses.increment();
            } else {
                List<Session> live = ph.live;
                int n = live.size();
                if (n > 0) {
                    try {
                        Closeable c = live.get(r.nextInt(n)).chaosTarget;
                        if (c != null) {
                            c.close();
                            streamCloses.increment();
                        }
                    } catch (IndexOutOfBoundsException | IOException ignore) { }
                }
            }
        }
    }

    // RssAnon+RssFile at each tenth of the leak check's measured phase
    static final List<String> rssTrace = new ArrayList<>();

    static String kB(String key) {
        return status(key).replace(" kB", "");
    }

    /**
     * Runs until the deadline or op count, watching for threads that make no
     * progress; stops everything and closes the file channels.
     */
    static void runPhase(TestFile[] files, Path[] fifos, long millis, long opLimit) throws Exception {
        long startOps = ops();
        Phase ph = startPhase(files, fifos);
        long start = System.currentTimeMillis();
        long nextTrace = opLimit / 10;
        while (System.currentTimeMillis() - start < millis && ops() - startOps < opLimit) {
            Thread.sleep(100);
            sampleThreads();
            if (opLimit != Long.MAX_VALUE && ops() - startOps >= nextTrace) {
                rssTrace.add((ops() - startOps) / 1000 + "k:" + kB("RssAnon") + "+" + kB("RssFile"));
                nextTrace += opLimit / 10;
            }
            long stale = System.nanoTime() - stallSeconds * 1_000_000_000L;
            for (int i = 0; i < ph.progress.length; i++) {
                if (ph.progress[i] - stale < 0) {
                    hang(ph, "thread " + ph.progressThreads[i].getName() + " made no progress for "
                            + stallSeconds + " s");
                }
            }
        }
        ph.chaosRunning = false;
        for (Thread t : ph.chaos)
            joinQuietly(t, 10_000);
        ph.running = false;
        long deadline = System.currentTimeMillis() + 120_000;
        for (Thread t : ph.workers) {
            if (!joinQuietly(t, Math.max(1, deadline - System.currentTimeMillis())))
                hang(ph, "thread " + t.getName() + " does not finish");
        }
        for (TestFile f : files)
            f.closeChannel();
    }

    static void hang(Phase ph, String what) {
        System.err.println("HANG: " + what);
        for (Thread t : ph.workers) {
            if (t.isAlive() && what.contains("thread " + t.getName() + " ")) {
                StackTraceElement[] st = t.getStackTrace();
                {
                    System.err.println("  " + t);
                    for (StackTraceElement e : st)
                        System.err.println("    at " + e);
                }
            }
        }
        try {
            Path dump = baseDir.resolve("nio-uring-stress-threads-" + ProcessHandle.current().pid() + ".txt");
            Files.deleteIfExists(dump);
            ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                    .dumpThreads(dump.toString(), com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
            System.err.println("thread dump (all threads, virtual included): " + dump);
        } catch (Exception e) {
            e.printStackTrace();
        }
        failure(otherFailures, "HANG: " + what, null);
        summary(-1, "FAIL(hang)");
        deleteDir(workDir);
        Runtime.getRuntime().halt(2);
    }

    // -- corruption self-test --

    /** The kinds of corruption --inject-corruption makes, each guarded by one check. */
    enum Injected {
        DISK_BYTES("disk-bytes", true, "one to four bytes of a block changed on disk"),
        DISK_STALE("disk-stale", true, "an intact block of another generation on disk (lost or phantom write)"),
        DISK_MISPLACED("disk-misplaced", true, "an intact copy of the next block on disk (write at a wrong offset)"),
        READ_BUFFER("read-buffer", false, "a byte of a block changed in the buffer after a worker's read"),
        READBACK_BUFFER("readback-buffer", false, "the same after the read-back that follows a failed write"),
        SKIP_COUNT("skip-count", false, "the count expected from a skip one too high"),
        SKIP_BYTE("skip-byte", false, "the offset expected after a skip 1-2 bytes ahead, checked by a one-byte read"),
        SKIP_CHUNK("skip-chunk", false, "the same, checked by a read of up to 8 KiB");

        final String label;
        final boolean onDisk;
        final String what;

        Injected(String label, boolean onDisk, String what) {
            this.label = label;
            this.onDisk = onDisk;
            this.what = what;
        }
    }

    /**
     * Corrupts data behind the harness's back and keeps the books on it.
     *
     * Disk kinds: a thread writes to a random block of a test file through its
     * own RandomAccessFile (not FileChannel), holding the block's region lock
     * so that no worker sees the block half changed; it does so a few times
     * during the run and once more per kind after the workers have stopped,
     * before the final check. A damaged block must be reported by whichever
     * check reads it first (a worker's read, the read-back after a failed
     * write, the final check), unless a successful write covers it before any
     * read does (counted as overwritten). One still unreported after the final
     * check, which reads every block, was missed.
     *
     * The other kinds are armed a few times each; the next worker read,
     * read-back or skip reader to claim one changes a byte of its buffer after
     * the read (the model keeps what was really read), or the count or offset
     * it expects after a skip. The check that follows must fail there; if it
     * passes, the injection was missed.
     *
     * A failure caused by an injection is marked "[injected: kind]" in the
     * failure log; any other failure is a real one (or an injection that spilt
     * over), which also fails the self-test.
     */
    static final class Injector {
        static final int ROUNDS = 3;

        private final int kinds = Injected.values().length;
        private final AtomicInteger[] armed = new AtomicInteger[kinds];
        private final LongAdder[] injected = new LongAdder[kinds];
        private final LongAdder[] detected = new LongAdder[kinds];
        private final LongAdder[] overwritten = new LongAdder[kinds];
        private final LongAdder[] missed = new LongAdder[kinds];
        private final Map<String, LongAdder> where = new ConcurrentHashMap<>();
        private final LongAdder explained = new LongAdder();
        private final List<String> missLog = new CopyOnWriteArrayList<>();

        /** A block damaged on disk; seen counts the failures reported for it. */
        record Damage(Injected kind, AtomicInteger seen) { }
        private final Map<Long, Damage> damaged = new ConcurrentHashMap<>();

        private volatile boolean stopped;
        private Thread thread;

        Injector() {
            for (int i = 0; i < kinds; i++) {
                armed[i] = new AtomicInteger();
                injected[i] = new LongAdder();
                detected[i] = new LongAdder();
                overwritten[i] = new LongAdder();
                missed[i] = new LongAdder();
            }
        }

        static long key(TestFile f, int block) {
            return ((long) f.id << 32) | block;
        }

        /** The expected stream offset moved past off to a byte that differs from the one at off. */
        static long shift(long off) {
            int d = 1;
            while (seq(off + d) == seq(off))
                d++;
            return off + d;
        }

        /** Takes one armed injection of the given kind, if there is one. */
        boolean claim(Injected k) {
            AtomicInteger a = armed[k.ordinal()];
            for (int v = a.get(); v > 0; v = a.get()) {
                if (a.compareAndSet(v, v - 1)) {
                    injected[k.ordinal()].increment();
                    return true;
                }
            }
            return false;
        }

        private void detected(Injected k, String site) {
            detected[k.ordinal()].increment();
            where.computeIfAbsent(k.label + " " + site, s -> new LongAdder()).increment();
        }

        /** Records that the check guarding a claimed injection failed; returns the failure's mark. */
        String note(Injected k, String site) {
            detected(k, site);
            explained.increment();
            return " [injected: " + k.label + "]";
        }

        /**
         * Accounts for a failed block check at the given site: the block's
         * buffer copy was changed (flipped: the kind, else null), or the block
         * is damaged on disk. Returns the failure's mark, empty if no injection
         * explains it.
         */
        String note(TestFile f, int block, Injected flipped, String site) {
            String labels = "";
            if (flipped != null) {
                detected(flipped, site);
                labels = flipped.label;
            }
            Damage d = damaged.get(key(f, block));
            if (d != null) {
                if (d.seen().getAndIncrement() == 0)
                    detected(d.kind(), site);
                labels += (labels.isEmpty() ? "" : "+") + d.kind().label;
            }
            if (labels.isEmpty())
                return "";
            explained.increment();
            return " [injected: " + labels + "]";
        }

        /** Records that the check guarding a claimed injection passed. */
        void missed(Injected k, String what) {
            missed[k.ordinal()].increment();
            missLog.add(k.label + ": " + what);
            System.err.println("INJECTION MISSED: " + k.label + ": " + what);
        }

        /** A successful write (region write lock held) replaced these blocks. */
        void overwritten(TestFile f, int first, int count) {
            if (damaged.isEmpty())
                return;
            for (int i = 0; i < count; i++) {
                Damage d = damaged.remove(key(f, first + i));
                if (d != null && d.seen().get() == 0)
                    overwritten[d.kind().ordinal()].increment();
            }
        }

        /** Damages a random block of a random file on disk, under its region lock. */
        void damage(TestFile[] files, Injected kind, ThreadLocalRandom r) throws IOException {
            TestFile f = null;
            int block = -1;
            for (int attempt = 0; f == null; attempt++) {
                if (attempt == 1000)
                    throw new IOException("no block to damage for " + kind.label);
                TestFile c = files[r.nextInt(files.length)];
                int b = r.nextInt(c.blocks);
                // the next block (b ^ 1) must lie in the same region
                if ((kind != Injected.DISK_MISPLACED || c.unit < REGION) && !damaged.containsKey(key(c, b))) {
                    f = c;
                    block = b;
                }
            }
            long pos = (long) block * f.unit;
            ReentrantReadWriteLock lock = f.locks[block / (REGION / f.unit)];
            lock.writeLock().lock();
            try (RandomAccessFile raf = new RandomAccessFile(f.path.toFile(), "rw")) {
                ByteBuffer b = ByteBuffer.allocate(f.unit);
                switch (kind) {
                    case DISK_BYTES -> {
                        // a burst of at most 32 bits, which CRC32C always detects
                        int n = 1 + r.nextInt(4);
                        int p = r.nextInt(f.unit - n + 1);
                        byte[] bytes = new byte[n];
                        raf.seek(pos + p);
                        raf.readFully(bytes);
                        for (int i = 0; i < n; i++)
                            bytes[i] ^= (byte) (1 + r.nextInt(255));
                        b = ByteBuffer.wrap(bytes);
                        pos += p;
                    }
                    case DISK_STALE -> {
                        long g = f.gen[block];
                        fillBlock(b, 0, f, block, (g > 0) ? 0 : f.nextGen.getAndIncrement(), new CRC32C());
                    }
                    case DISK_MISPLACED -> {
                        int next = block ^ 1;
                        fillBlock(b, 0, f, next, f.gen[next], new CRC32C());
                    }
                    default -> throw new IllegalArgumentException(kind.label);
                }
                raf.seek(pos);
                raf.write(b.array());
                damaged.put(key(f, block), new Damage(kind, new AtomicInteger()));
                injected[kind.ordinal()].increment();
            } finally {
                lock.writeLock().unlock();
            }
        }

        private void damageOrFail(TestFile[] files, Injected kind, ThreadLocalRandom r) {
            try {
                damage(files, kind, r);
            } catch (IOException e) {
                failure(otherFailures, "cannot inject " + kind.label + ": " + e, e);
            }
        }

        /** Starts the thread that injects ROUNDS times, spread over the first part of the run. */
        void start(TestFile[] files, long millis) {
            long step = millis / (ROUNDS + 2);
            thread = Thread.ofPlatform().name("injector").start(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                for (int round = 1; round <= ROUNDS; round++) {
                    try {
                        Thread.sleep(step);
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (stopped)
                        return;
                    for (Injected k : Injected.values()) {
                        if (k.onDisk)
                            damageOrFail(files, k, r);
                        else
                            armed[k.ordinal()].incrementAndGet();
                    }
                }
            });
        }

        /** Stops the thread, then damages one more block per disk kind for the final check. */
        void finish(TestFile[] files) {
            stopped = true;
            thread.interrupt();
            if (!joinQuietly(thread, 60_000))
                failure(otherFailures, "injector does not finish", null);
            for (Injected k : Injected.values()) {
                if (k.onDisk)
                    damageOrFail(files, k, ThreadLocalRandom.current());
            }
        }

        /**
         * After the final check: prints what was injected and what caught it,
         * then the SELFTEST line. The harness itself must have said FAIL.
         */
        boolean report(boolean harnessPassed) {
            for (Damage d : damaged.values()) {
                if (d.seen().get() == 0)
                    missed(d.kind(), "damaged block never reported");
            }
            System.out.println("corruption self-test: injected behind the harness's back, and what caught it");
            List<String> problems = new ArrayList<>();
            StringBuilder counts = new StringBuilder();
            for (Injected k : Injected.values()) {
                int i = k.ordinal();
                StringBuilder sites = new StringBuilder();
                new TreeMap<>(where).forEach((w, n) -> {
                    if (w.startsWith(k.label + " "))
                        sites.append(sites.isEmpty() ? "" : " ").append(w.substring(k.label.length() + 1))
                             .append('=').append(n.sum());
                });
                System.out.printf("  %-15s injected=%d detected=%d (%s) overwritten-first=%d missed=%d: %s%n",
                        k.label, injected[i].sum(), detected[i].sum(), sites, overwritten[i].sum(),
                        missed[i].sum(), k.what);
                counts.append(counts.isEmpty() ? "" : ",").append(k.label).append(':')
                      .append(detected[i].sum()).append('/').append(injected[i].sum());
                if (injected[i].sum() == 0)
                    problems.add(k.label + " never injected");
                else if (detected[i].sum() == 0)
                    problems.add(k.label + " not detected");
                if (missed[i].sum() > 0)
                    problems.add(k.label + " missed " + missed[i].sum() + " time(s)");
            }
            missLog.forEach(s -> System.out.println("    missed " + s));
            long failures = corruptions.get() + unexpected.get() + otherFailures.get();
            long unexplained = failures - explained.sum();
            if (unexplained != 0)
                problems.add(unexplained + " failure(s) not caused by an injection");
            if (harnessPassed)
                problems.add("the harness reported PASS");
            boolean ok = problems.isEmpty();
            System.out.printf("SELFTEST detected/injected=%s failures=%d explained=%d harness=%s result=%s%n",
                    counts, failures, explained.sum(), harnessPassed ? "PASS" : "FAIL",
                    ok ? "PASS" : "FAIL(" + String.join("; ", problems) + ")");
            return ok;
        }
    }

    // -- process figures --

    static String status(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(key + ":"))
                    return line.substring(key.length() + 1).trim();
            }
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
        return "?";
    }

    static int osThreads() {
        return Integer.parseInt(status("Threads"));
    }

    static void sampleThreads() {
        int n = osThreads();
        if (n > peakThreads)
            peakThreads = n;
    }

    static long fdCount() throws IOException {
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }

    static final Pattern NMT_LINE =
            Pattern.compile("^-\\s+(.+?) \\(reserved=(\\d+)KB, committed=(\\d+)KB\\)");

    /** Runs a diagnostic command (jcmd) in this VM, by its MBean operation name. */
    static String dcmd(String operation, String... args) throws Exception {
        return (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), operation,
                new Object[] { args }, new String[] { String[].class.getName() });
    }

    /** Committed KB of each NMT category, empty if NMT is off. */
    static Map<String, Long> nmt() throws Exception {
        String out = dcmd("vmNativeMemory", "summary");
        Map<String, Long> m = new TreeMap<>();
        for (String line : out.split("\n")) {
            Matcher mt = NMT_LINE.matcher(line.trim());
            if (mt.find())
                m.put(mt.group(1).trim(), Long.parseLong(mt.group(3)));
            else if (line.startsWith("Total:")) {
                Matcher t = Pattern.compile("committed=(\\d+)KB").matcher(line);
                if (t.find())
                    m.put("Total", Long.parseLong(t.group(1)));
            }
        }
        return m;
    }

    record Snapshot(long fds, int osThreads, int javaThreads, String rss, String rssAnon,
                    String untrimmedRssAnon, String trim, Map<String, Long> nmt,
                    List<String> threadNames, Map<String, Long> rssByOwner,
                    Map<String, Long> anonMappings) { }

    record Region(long start, long end, String owner) { }

    static final Pattern NMT_REGION =
            Pattern.compile("^\\[0x(\\p{XDigit}+) - 0x(\\p{XDigit}+)\\] reserved (?:and committed )?\\d+KB for (.+?)(?: from)?$");

    /** The reserved regions of NMT detail mode (empty with summary or off). */
    static List<Region> nmtRegions() throws Exception {
        String out = dcmd("vmNativeMemory", "detail");
        List<Region> regions = new ArrayList<>();
        for (String line : out.split("\n")) {
            Matcher m = NMT_REGION.matcher(line.trim());
            if (m.find())
                regions.add(new Region(Long.parseUnsignedLong(m.group(1), 16),
                                       Long.parseUnsignedLong(m.group(2), 16), m.group(3)));
        }
        return regions;
    }

    /**
     * Resident kB of every mapping of /proc/self/smaps, summed by owner: the NMT
     * category whose reserved region holds the mapping (NMT detail mode), else
     * "malloc [heap]" for the brk heap, "anon (not NMT)" for other anonymous
     * mappings (glibc arenas, native thread stacks), or the mapped file's path.
     * The resident kB of each anonymous mapping outside NMT goes to anonMappings
     * too, by address. (The memory of NMT's malloc categories lies in malloc's
     * arenas, so in "malloc [heap]" and "anon (not NMT)".)
     */
    static Map<String, Long> rssByOwner(Map<String, Long> anonMappings) throws Exception {
        List<Region> regions = nmtRegions();
        Map<String, Long> owners = new TreeMap<>();
        String owner = null, mapping = null;
        for (String line : Files.readAllLines(Path.of("/proc/self/smaps"))) {
            String[] f = line.trim().split("\\s+", 6);
            if (!f[0].isEmpty() && !f[0].endsWith(":")) {
                // a mapping's header: start-end perms offset dev inode [path]
                long start = Long.parseUnsignedLong(f[0].substring(0, f[0].indexOf('-')), 16);
                String path = f.length > 5 ? f[5] : "";
                owner = mapping = null;
                for (Region r : regions) {
                    if (Long.compareUnsigned(start, r.start()) >= 0 && Long.compareUnsigned(start, r.end()) < 0) {
                        owner = "NMT " + r.owner();
                        break;
                    }
                }
                if (owner == null && path.isEmpty()) {
                    // glibc's arenas other than the main one are heaps aligned to 64 MiB
                    mapping = String.format("0x%x%s", start,
                                            start % (64 << 20) == 0 ? " (64 MiB-aligned: a malloc arena)" : "");
                }
                if (owner == null) {
                    owner = path.equals("[heap]") ? "malloc [heap]"
                            : path.isEmpty() ? "anon (not NMT)"
                            : path.startsWith("[") ? path
                            : path.endsWith(".so") || path.contains(".so.") ? "shared libraries"
                            : "file " + path;
                }
            } else if (line.startsWith("Rss:") && owner != null) {
                long kb = Long.parseLong(line.replaceAll("\\D", ""));
                owners.merge(owner, kb, Long::sum);
                if (mapping != null)
                    anonMappings.put(mapping, kb);
            }
        }
        return owners;
    }

    static Snapshot snapshot() throws Exception {
        // Idle carrier threads of the virtual thread scheduler end after 30 s; each
        // holds a cache of temporary direct buffers (NMT "Other") that goes with it.
        for (int i = 0; i < 90 && Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().matches("ForkJoinPool-\\d+-worker-\\d+")); i++) {
            Thread.sleep(1000);
        }
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(500);
        }
        // glibc keeps freed memory in its arenas: give it back first, so that the
        // RSS figures count memory in use, not memory malloc merely holds
        String untrimmed = status("RssAnon");
        String trim = dcmd("systemTrimNativeHeap").trim();
        var all = Thread.getAllStackTraces().keySet();
        List<String> names = all.stream().map(Thread::getName).sorted().toList();
        Map<String, Long> anonMappings = new TreeMap<>();
        Map<String, Long> owners = rssByOwner(anonMappings);
        return new Snapshot(fdCount(), osThreads(), all.size(), status("VmRSS"), status("RssAnon"),
                            untrimmed, trim, nmt(), names, owners, anonMappings);
    }

    // -- main --

    static long parseDuration(String s) {
        s = s.trim().toLowerCase();
        if (s.endsWith("ms")) return Long.parseLong(s.substring(0, s.length() - 2));
        if (s.endsWith("s")) return Long.parseLong(s.substring(0, s.length() - 1)) * 1000;
        if (s.endsWith("m")) return Long.parseLong(s.substring(0, s.length() - 1)) * 60_000;
        if (s.endsWith("h")) return Long.parseLong(s.substring(0, s.length() - 1)) * 3_600_000;
        return Long.parseLong(s) * 1000;
    }

    static void parseArgs(String[] args) {
        for (String a : args) {
            String[] kv = a.split("=", 2);
            String v = kv.length > 1 ? kv[1] : "";
            switch (kv[0]) {
                case "--duration" -> durationMillis = parseDuration(v);
                case "--platform" -> platformWorkers = Integer.parseInt(v);
                case "--virtual" -> virtualWorkers = Integer.parseInt(v);
                case "--skip-platform" -> skipPlatform = Integer.parseInt(v);
                case "--skip-virtual" -> skipVirtual = Integer.parseInt(v);
                case "--chaos-threads" -> chaosThreads = Integer.parseInt(v);
                case "--chaos-micros" -> chaosMicros = Integer.parseInt(v);
                case "--skip-pause-micros" -> pauseMicros = Integer.parseInt(v);
                case "--dir" -> baseDir = Path.of(v);
                case "--file-mib" -> fileSize = Long.parseLong(v) * MIB;
                case "--files" -> fileCount = Integer.parseInt(v);
                case "--leak-check" -> leakCheck = true;
                case "--leak-ops" -> leakOps = Long.parseLong(v);
                case "--warmup-ops" -> warmupOps = Long.parseLong(v);
                case "--nmt-bound-kb" -> nmtBoundKB = Long.parseLong(v);
                case "--malloc-bound-mib" -> mallocBoundMiB = Long.parseLong(v);
                case "--stall-seconds" -> stallSeconds = Integer.parseInt(v);
                case "--inject-corruption" -> inject = new Injector();
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (fileCount < 1 || platformWorkers + virtualWorkers < 1 || fileSize % MIB != 0)
            throw new IllegalArgumentException("bad configuration");
        if (inject != null && leakCheck)
            throw new IllegalArgumentException("--inject-corruption is for a timed run, not the leak check");
    }

    static long startNanos;

    public static void main(String[] args) throws Exception {
        parseArgs(args);
        startNanos = System.nanoTime();
        Path dir = Files.createTempDirectory(baseDir, "nio-uring-stress-");
        workDir = dir;
        int status;
        try {
            status = run(dir);
        } finally {
            deleteDir(dir);
        }
        System.exit(status);
    }

    static volatile Path workDir;

    static void deleteDir(Path dir) {
        try {
            try (var s = Files.list(dir)) {
                for (Path p : s.toList())
                    Files.deleteIfExists(p);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            System.err.println("cannot delete " + dir + ": " + e);
        }
    }

    static int run(Path dir) throws Exception {
        System.out.printf("nio-uring stress: java %s, jdk.nio.file.ioUring=%s, %s, %d platform + %d virtual"
                + " file workers, %d+%d skip readers per stream kind, %d chaos threads, %d files of %d MiB in %s%s%n",
                System.getProperty("java.runtime.version"), MODE,
                leakCheck ? "leak check of " + leakOps + " ops" : "duration " + durationMillis / 1000 + " s",
                platformWorkers, virtualWorkers, skipPlatform, skipVirtual, chaosThreads, fileCount,
                fileSize / MIB, dir, inject != null ? ", injecting corruption (self-test)" : "");
        TestFile[] files = createFiles(dir);
        for (TestFile f : files)
            System.out.println("  " + f.describe());
        Path[] fifos = new Path[2 * (skipPlatform + skipVirtual)];
        for (int i = 0; i < fifos.length; i++) {
            fifos[i] = dir.resolve("fifo" + i);
            Process p = new ProcessBuilder("mkfifo", fifos[i].toString()).inheritIO().start();
            if (p.waitFor() != 0)
                throw new IOException("mkfifo failed");
        }

        if (!leakCheck) {
            long t0 = System.nanoTime();
            if (inject != null)
                inject.start(files, durationMillis);
            runPhase(files, fifos, durationMillis, Long.MAX_VALUE);
            long elapsed = System.nanoTime() - t0;
            long opsDone = ops();
            if (inject != null)
                inject.finish(files);
            verifyFiles(files);
            printDetails();
            boolean ok = corruptions.get() == 0 && unexpected.get() == 0 && otherFailures.get() == 0;
            summary(elapsed, ok ? "PASS" : "FAIL");
            if (inject != null)
                inject.report(ok);
            return ok ? 0 : 1;
        }

        // Leak check: warm up (rings, reapers, pollers, carriers, MBeans), measure,
        // run leakOps operations, measure again.
        long t0 = System.nanoTime();
        runPhase(files, fifos, Long.MAX_VALUE, warmupOps);
        snapshot();
        Snapshot before = snapshot();
        long opsBefore = ops();
        rssTrace.clear();
        runPhase(files, fifos, Long.MAX_VALUE, leakOps);
        long opsRun = ops() - opsBefore;
        Snapshot after = snapshot();
        for (int i = 0; i < 30 && (after.osThreads() > before.osThreads() || after.fds() != before.fds()); i++) {
            Thread.sleep(1000);
            after = snapshot();
        }
        verifyFiles(files);
        long elapsed = System.nanoTime() - t0;
        printDetails();
        System.out.printf("leak check: %d ops after a warm-up of %d ops%n", opsRun, opsBefore);
        System.out.printf("  open fds       before=%d after=%d%n", before.fds(), after.fds());
        System.out.printf("  OS threads     before=%d after=%d (peak %d)%n", before.osThreads(), after.osThreads(),
                          peakThreads);
        System.out.printf("  Java threads   before=%d after=%d%n", before.javaThreads(), after.javaThreads());
        if (after.javaThreads() != before.javaThreads()) {
            List<String> added = new ArrayList<>(after.threadNames());
            before.threadNames().forEach(added::remove);
            List<String> gone = new ArrayList<>(before.threadNames());
            after.threadNames().forEach(gone::remove);
            System.out.println("    new: " + added + " gone: " + gone);
        }
        System.out.printf("  VmRSS          before=%s after=%s%n", before.rss(), after.rss());
        System.out.println("  RssAnon+RssFile (kB) during the run, by ops: " + String.join(" ", rssTrace));
        System.out.printf("  RssAnon        before=%s after=%s (before System.trim_native_heap: %s, %s)%n",
                          before.rssAnon(), after.rssAnon(), before.untrimmedRssAnon(), after.untrimmedRssAnon());
        System.out.printf("  System.trim_native_heap before: %s; after: %s%n", before.trim(), after.trim());
        // where the resident memory grew, by owner (NMT detail mode names the JVM's regions)
        Map<String, Long> rssBefore = before.rssByOwner(), rssAfter = after.rssByOwner();
        Map<String, Long> rssGrowth = new TreeMap<>();
        rssAfter.forEach((o, kb) -> rssGrowth.put(o, kb - rssBefore.getOrDefault(o, 0L)));
        rssBefore.forEach((o, kb) -> rssGrowth.putIfAbsent(o, -kb));
        rssGrowth.entrySet().stream()
                .filter(e -> Math.abs(e.getValue()) >= 256)
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .forEach(e -> System.out.printf("  RSS %-27s before=%dkB after=%dkB (%+dkB)%n", e.getKey(),
                        rssBefore.getOrDefault(e.getKey(), 0L), rssAfter.getOrDefault(e.getKey(), 0L),
                        e.getValue()));
        Map<String, Long> mapBefore = before.anonMappings(), mapAfter = after.anonMappings();
        Map<String, Long> mapGrowth = new TreeMap<>();
        mapAfter.forEach((m, kb) -> mapGrowth.put(m, kb - mapBefore.getOrDefault(m, 0L)));
        mapGrowth.entrySet().stream()
                .filter(e -> e.getValue() >= 1024)
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .limit(8)
                .forEach(e -> System.out.printf("    anon mapping %s: rss before=%dkB after=%dkB%n", e.getKey(),
                        mapBefore.getOrDefault(e.getKey(), 0L), mapAfter.get(e.getKey())));
        boolean nmtOn = !before.nmt().isEmpty();
        long growth = 0;
        Map<String, String> nmtFigures = new LinkedHashMap<>();
        if (nmtOn) {
            for (String cat : List.of("Other", "Internal", "JNI", "Thread", "Thread Stack", "Total")) {
                Long b = before.nmt().get(cat), a = after.nmt().get(cat);
                if (b == null || a == null)
                    continue;
                System.out.printf("  NMT %-12s committed before=%dKB after=%dKB (%+dKB)%n", cat, b, a, a - b);
                if (cat.equals("Other") || cat.equals("Internal") || cat.equals("JNI"))
                    growth += a - b;
                nmtFigures.put(cat, (a - b) + "KB");
            }
        } else {
            System.out.println("  NMT not enabled (-XX:NativeMemoryTracking=detail)");
        }
        boolean fdsOk = after.fds() == before.fds();
        boolean threadsOk = after.osThreads() <= before.osThreads();
        boolean nmtOk = nmtOn && growth <= nmtBoundKB;
        // malloc's memory outside NMT: its main heap (brk) and the anonymous mappings
        // NMT does not own (its other arenas); needs NMT detail mode to tell them apart
        long mallocGrowth = 0;
        for (String o : List.of("anon (not NMT)", "malloc [heap]"))
            mallocGrowth += rssAfter.getOrDefault(o, 0L) - rssBefore.getOrDefault(o, 0L);
        boolean detail = rssAfter.keySet().stream().anyMatch(o -> o.startsWith("NMT "));
        boolean mallocOk = detail && mallocGrowth <= mallocBoundMiB << 10;
        boolean ok = fdsOk && threadsOk && nmtOk && mallocOk && corruptions.get() == 0
                && unexpected.get() == 0 && otherFailures.get() == 0;
        String verdict = ok ? "PASS" : "FAIL(" + (fdsOk ? "" : "fds ") + (threadsOk ? "" : "threads ")
                + (nmtOk ? "" : "nmt ") + (mallocOk ? "" : detail ? "malloc " : "malloc(no NMT detail) ") + ")";
        System.out.printf("LEAK-CHECK mode=%s ops=%d fds=%d->%d osThreads=%d->%d javaThreads=%d->%d"
                + " nmt(Other+Internal+JNI)=%+dKB (bound %dKB) rss=%s->%s malloc(not NMT)=%+dkB (bound %dMiB)"
                + " corruptions=%d unexpected=%d result=%s%n",
                MODE, opsRun, before.fds(), after.fds(), before.osThreads(), after.osThreads(),
                before.javaThreads(), after.javaThreads(), growth, nmtBoundKB,
                before.rss().replace(" ", ""), after.rss().replace(" ", ""), mallocGrowth, mallocBoundMiB,
                corruptions.get(), unexpected.get(), verdict);
        summary(elapsed, ok ? "PASS" : "FAIL");
        return ok ? 0 : 1;
    }

    static void printDetails() {
        System.out.printf("  file reads=%d writes=%d (uncertain writes=%d: blocks found old=%d new=%d)"
                + " channel reopens=%d%n", reads.sum(), writes.sum(), uncertainWrites.sum(),
                uncertainOld.sum(), uncertainNew.sum(), reopens.sum());
        System.out.printf("  skips=%d (%d MiB skipped) stream reads=%d sessions=%d%n",
                skips.sum(), bytesSkipped.sum() / MIB, streamReads.sum(), sessions.sum());
        System.out.printf("  chaos: interrupts=%d file channel closes=%d stream closes=%d%n",
                interrupts.sum(), fileCloses.sum(), streamCloses.sum());
        System.out.println("  exceptions by place and type:");
        new TreeMap<>(exceptions).forEach((k, v) -> System.out.printf("    %-70s %d%n", k, v.sum()));
        if (!failureLog.isEmpty()) {
            System.out.println("  failures (first " + failureLog.size() + "):");
            failureLog.forEach(s -> System.out.println("    " + s));
        }
    }

    static void summary(long elapsedNanos, String result) {
        if (elapsedNanos < 0)
            elapsedNanos = System.nanoTime() - startNanos;
        double secs = elapsedNanos / 1e9;
        long total = ops();
        long exc = exceptions.values().stream().mapToLong(LongAdder::sum).sum();
        System.out.printf("SUMMARY mode=%s%s duration=%.0fs ops=%d ops/s=%.0f verified=%.1fGiB skipped=%.1fGiB"
                + " corruptions=%d unexpected=%d otherFailures=%d exceptions=%d interrupts=%d closes=%d"
                + " peakThreads=%d result=%s%n",
                MODE, leakCheck ? "(leak-check)" : "", secs, total, total / secs,
                bytesVerified.sum() / (double) (1 << 30), bytesSkipped.sum() / (double) (1 << 30),
                corruptions.get(), unexpected.get(), otherFailures.get(), exc, interrupts.sum(),
                fileCloses.sum() + streamCloses.sum(), peakThreads, result);
    }
}

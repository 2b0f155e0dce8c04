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

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import com.sun.nio.file.ExtendedOpenOption;
import static java.nio.file.StandardOpenOption.*;

/**
 * The bad-input cases of IoUringBadInput, also run directly by
 * make/scripts/compare-bad-input.sh on the baseline and patched JDKs.
 *
 * <p> Each case does one operation with bad or unusual input: a FileChannel
 * positional read or write or relative read (the operations io_uring
 * serves), the streams and Files methods built on relative reads, and the
 * non-positional, scattering, gathering and transfer operations, the
 * channels of RandomAccessFile, FileInputStream, FileOutputStream and
 * Files.newByteChannel, and ChannelInputStream.skip on files, FIFOs, pipes
 * and devices (Skipper). It prints one line per case on stdout: the return
 * value, the buffer's position/limit and a CRC of its whole content, the
 * file's size and CRC after, the channel position, the exception class and
 * message, and whether the channel is still open and the thread interrupted.
 * Paths in messages are printed relative to the scratch directory, so the
 * output of a run is the same text for every JDK, mode and thread kind that
 * behaves the same.
 *
 * <p> Usage: {@code java IoUringBadInputCases platform|virtual}, in an empty
 * working directory on a file system that supports O_DIRECT. Cases with a
 * 2 GiB - 1 direct buffer, larger than the kernel's limit for one read or
 * write (MAX_RW_COUNT, 0x7ffff000 with 4 KiB pages), are added with
 * {@code -Dbadinput.huge=devices} (/dev/zero and /dev/null) or
 * {@code -Dbadinput.huge=all} (also a sparse 3 GiB file); they need
 * {@code -XX:MaxDirectMemorySize=3g} and about 2.5 GiB of memory.
 * Cases that take 100 ms or more are named on stderr with their time.
 */
public class IoUringBadInputCases {
    static final int SIZE = 10000;
    static final byte[] DATA = new byte[SIZE];
    static final byte FILL = 0x5a;      // initial content of buffers that are read into
    static final long MAX = Long.MAX_VALUE;
    static final long P63_4K = (1L << 63) - 4096;
    static final long GIB = 1L << 30;

    static Path dir;
    static String dirName;
    static int align;
    static ByteBuffer hugeBuffer;

    // the case running, for the watchdog
    static volatile String current = "";
    static volatile long started;

    /**
     * What a case used: its buffer(s), file, channel and streams.
     */
    static final class Rec {
        ByteBuffer buf;
        ByteBuffer[] bufs;
        Path file;
        Channel ch;
        boolean hugeBuf;
        String extra;                         // set by the case after its operation
        final List<AutoCloseable> closeables = new ArrayList<>();

        <T extends AutoCloseable> T closeLater(T c) {
            closeables.add(c);
            return c;
        }

        FileChannel open(Path p, OpenOption... options) throws IOException {
            FileChannel fc = closeLater(FileChannel.open(p, options));
            ch = fc;
            return fc;
        }
    }

    interface Body {
        Object run(Rec r) throws Throwable;
    }

    static final List<String> NAMES = new ArrayList<>();
    static final List<Body> BODIES = new ArrayList<>();

    static void c(String name, Body body) {
        if (NAMES.contains(name))
            throw new IllegalStateException("duplicate case " + name);
        NAMES.add(name);
        BODIES.add(body);
    }

    public static void main(String[] args) throws Throwable {
        boolean virtual = args.length > 0 && args[0].equals("virtual");
        for (int i = 0; i < SIZE; i++)
            DATA[i] = (byte) (i * 31 + (i >> 8));
        dir = Files.createTempDirectory(Path.of("").toAbsolutePath(), "badinput");
        dirName = dir.toString();
        align = (int) Files.getFileStore(dir).getBlockSize();

        Thread watchdog = Thread.ofPlatform().daemon().start(() -> {
            for (;;) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
                String name = current;
                if (!name.isEmpty() && System.nanoTime() - started > 30_000_000_000L) {
                    System.out.println(name + ": TIMEOUT (no result after 30 s)");
                    System.out.flush();
                    Runtime.getRuntime().halt(3);
                }
            }
        });

        defineCases();
        Throwable[] failure = new Throwable[1];
        Runnable all = () -> {
            try {
                for (int i = 0; i < NAMES.size(); i++)
                    System.out.println(runCase(NAMES.get(i), BODIES.get(i)));
            } catch (Throwable t) {
                failure[0] = t;
            }
        };
        Thread t = virtual ? Thread.ofVirtual().start(all) : Thread.ofPlatform().start(all);
        t.join();
        watchdog.interrupt();
        deleteTree(dir);
        if (failure[0] != null)
            throw failure[0];
        System.out.println("# " + NAMES.size() + " cases");
    }

    static String runCase(String name, Body body) throws Exception {
        Rec r = new Rec();
        Object ret;
        Throwable exc = null;
        current = name;
        started = System.nanoTime();
        try {
            ret = body.run(r);
        } catch (Throwable e) {
            ret = null;
            exc = e;
        }
        current = "";
        boolean interrupted = Thread.interrupted();
        long millis = (System.nanoTime() - started) / 1_000_000;
        if (millis >= 100)
            System.err.println(name + ": " + millis + " ms");

        StringBuilder sb = new StringBuilder(name).append(':');
        sb.append(" ret=").append(exc != null ? "-" : String.valueOf(ret));
        if (r.buf != null)
            sb.append(" buf=").append(describe(r.buf, r.hugeBuf));
        if (r.bufs != null) {
            sb.append(" bufs=");
            for (ByteBuffer b : r.bufs)
                sb.append('[').append(describe(b, false)).append(']');
        }
        if (r.file != null) {
            if (Files.isRegularFile(r.file)) {
                long size = Files.size(r.file);
                sb.append(" size=").append(size);
                if (size <= 1 << 20)
                    sb.append(" fcrc=").append(crc(Files.readAllBytes(r.file)));
            } else {
                sb.append(" size=n/a");
            }
        }
        if (r.ch != null) {
            boolean open = r.ch.isOpen();
            sb.append(" open=").append(open);
            if (open && r.ch instanceof FileChannel fc) {
                String p;
                try {
                    p = String.valueOf(fc.position());
                } catch (IOException e) {
                    p = e.getClass().getName() + ": " + e.getMessage();
                }
                sb.append(" chpos=").append(p);
            }
        }
        if (r.extra != null)
            sb.append(' ').append(r.extra);
        if (exc != null) {
            sb.append(" exc=").append(exc.getClass().getName());
            String msg = exc.getMessage();
            if (msg != null)
                sb.append(": ").append(msg.replace(dirName, "<dir>"));
        }
        sb.append(" intr=").append(interrupted);
        for (AutoCloseable c : r.closeables) {
            try {
                c.close();
            } catch (Exception e) {
                // already closed or closing fails the same way; not part of the outcome
            }
        }
        return sb.toString();
    }

    /**
     * position/limit/capacity and the CRC of the whole buffer, 0 to capacity,
     * so that bytes stored outside position..limit show; of a huge buffer
     * only its first and last MiB.
     */
    static String describe(ByteBuffer b, boolean huge) {
        String s = b.position() + "/" + b.limit() + "/" + b.capacity();
        ByteBuffer d = b.duplicate().clear();
        try {
            CRC32 crc = new CRC32();
            if (huge) {
                int mib = 1 << 20;
                crc.update(d.duplicate().limit(mib));
                crc.update(d.duplicate().position(d.capacity() - mib));
            } else {
                crc.update(d);
            }
            return s + " crc=" + Long.toHexString(crc.getValue());
        } catch (IllegalStateException e) {
            // memory of a closed arena
            return s + " crc=" + e.getClass().getName();
        }
    }

    static String crc(byte[] b) {
        CRC32 crc = new CRC32();
        crc.update(b);
        return Long.toHexString(crc.getValue());
    }

    static void deleteTree(Path p) throws IOException {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList())
                Files.deleteIfExists(q);
        }
    }

    // -- fixtures --

    static int fileCount;

    /** A new file holding DATA. */
    static Path dataFile(Rec r) throws IOException {
        Path p = dir.resolve("f" + (++fileCount));
        Files.write(p, DATA);
        r.file = p;
        return p;
    }

    /** A FileChannel, with the given options, to a new file holding DATA. */
    static FileChannel dataChannel(Rec r, OpenOption... options) throws IOException {
        return r.open(dataFile(r), options);
    }

    /** A new FIFO. */
    static Path fifo() throws Exception {
        Path p = dir.resolve("fifo" + (++fileCount));
        Process proc = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        if (proc.waitFor() != 0)
            throw new IOException("mkfifo failed");
        return p;
    }

    /**
     * A FIFO opened for reading that holds the first n bytes of DATA and has
     * no writer left, so that reads see end of stream after them.
     */
    static FileChannel fifoWithData(Rec r, int n) throws Exception {
        return fifoWithData(n, p -> r.open(p, READ));
    }

    interface Opener<T> {
        T open(Path p) throws Exception;
    }

    /**
     * A FIFO opened for reading with the given opener that holds the first n
     * bytes of DATA and has no writer left.
     */
    static <T> T fifoWithData(int n, Opener<T> opener) throws Exception {
        Path p = fifo();
        try (FileChannel w = FileChannel.open(p, READ, WRITE)) {
            // the O_RDWR channel is a writer: opening for reading does not block
            T reader = opener.open(p);
            w.write(ByteBuffer.wrap(DATA, 0, n));
            return reader;
        }
    }

    /** A FIFO opened for reading and writing that holds the first n bytes of DATA. */
    static FileChannel fifoReadWrite(Rec r, int n) throws Exception {
        FileChannel fc = r.open(fifo(), READ, WRITE);
        fc.write(ByteBuffer.wrap(DATA, 0, n));
        return fc;
    }

    static final byte[] SENTINEL = "--end of FIFO content--".getBytes();

    /**
     * The bytes a FIFO channel opened for reading and writing holds, as
     * "pipe=<count>/<crc>": a sentinel is written after them so that reading
     * them does not block.
     */
    static String pipeContent(FileChannel fc) throws IOException {
        fc.write(ByteBuffer.wrap(SENTINEL));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer bb = ByteBuffer.allocate(1);
        for (;;) {
            bb.clear();
            if (fc.read(bb) < 0)
                return "pipe=EOF";
            out.write(bb.get(0));
            byte[] b = out.toByteArray();
            int n = b.length - SENTINEL.length;
            if (n >= 0 && Arrays.equals(b, n, b.length, SENTINEL, 0, SENTINEL.length))
                return "pipe=" + n + "/" + crc(Arrays.copyOf(b, n));
        }
    }

    /** A Pipe whose source holds the first n bytes of DATA; the sink closed if eof. */
    static Pipe pipeWithData(Rec r, int n, boolean eof) throws IOException {
        Pipe p = Pipe.open();
        r.closeLater(p.source());
        r.closeLater(p.sink());
        r.ch = p.source();
        ByteBuffer bb = ByteBuffer.wrap(DATA, 0, n);
        while (bb.hasRemaining())
            p.sink().write(bb);
        if (eof)
            p.sink().close();
        return p;
    }

    static final String[] KINDS = {
        "heap", "direct", "roHeap", "roDirect", "sliceHeap", "sliceDirect", "dupHeap",
        "dupDirect", "wrapOffset", "empty", "noRemaining", "mapped", "segment",
        "closedSegment", "le"
    };

    /**
     * A buffer of the given kind with len bytes remaining. Buffers to read
     * into hold FILL; buffers to write from hold the first len bytes of DATA
     * backwards.
     */
    static ByteBuffer buffer(Rec r, String kind, int len, boolean forWrite) throws IOException {
        int extra = 16;
        ByteBuffer bb = switch (kind) {
            case "heap" -> fill(ByteBuffer.allocate(len), forWrite);
            case "direct" -> fill(ByteBuffer.allocateDirect(len), forWrite);
            case "roHeap" -> fill(ByteBuffer.allocate(len), forWrite).asReadOnlyBuffer();
            case "roDirect" -> fill(ByteBuffer.allocateDirect(len), forWrite).asReadOnlyBuffer();
            case "sliceHeap" -> fill(ByteBuffer.allocate(len + extra), forWrite)
                    .slice(7, len);
            case "sliceDirect" -> fill(ByteBuffer.allocateDirect(len + extra), forWrite)
                    .slice(7, len);
            case "dupHeap" -> fill(ByteBuffer.allocate(len + extra), forWrite)
                    .position(5).limit(5 + len).duplicate();
            case "dupDirect" -> fill(ByteBuffer.allocateDirect(len + extra), forWrite)
                    .position(5).limit(5 + len).duplicate();
            case "wrapOffset" -> {
                ByteBuffer w = fill(ByteBuffer.allocate(len + extra), forWrite);
                yield ByteBuffer.wrap(w.array(), 3, len);
            }
            case "empty" -> ByteBuffer.allocate(0);
            case "noRemaining" -> fill(ByteBuffer.allocateDirect(len), forWrite).position(len);
            case "mapped" -> {
                Path p = dir.resolve("map" + (++fileCount));
                try (FileChannel fc = FileChannel.open(p, CREATE_NEW, READ, WRITE)) {
                    ByteBuffer m = fc.map(FileChannel.MapMode.READ_WRITE, 0, len + extra);
                    yield fill(m, forWrite).slice(1, len);
                }
            }
            case "segment" -> {
                Arena a = r.closeLater(Arena.ofConfined());
                yield fill(a.allocate(len).asByteBuffer(), forWrite);
            }
            case "closedSegment" -> {
                Arena a = Arena.ofConfined();
                ByteBuffer b = fill(a.allocate(len).asByteBuffer(), forWrite);
                a.close();
                yield b;
            }
            case "le" -> fill(ByteBuffer.allocate(len), forWrite)
                    .order(java.nio.ByteOrder.LITTLE_ENDIAN);
            default -> throw new IllegalArgumentException(kind);
        };
        r.buf = bb;
        return bb;
    }

    static ByteBuffer fill(ByteBuffer bb, boolean forWrite) {
        for (int i = 0; i < bb.capacity(); i++)
            bb.put(i, forWrite ? DATA[SIZE - 1 - (i % SIZE)] : FILL);
        return bb;
    }

    /** A direct buffer of 2 blocks at an address aligned to the block size. */
    static ByteBuffer aligned(boolean forWrite) {
        ByteBuffer bb = ByteBuffer.allocateDirect(3 * align).alignedSlice(align);
        return fill(bb.slice(0, 2 * align), forWrite);
    }

    static ByteBuffer heap(Rec r, int len) throws IOException {
        return buffer(r, "heap", len, false);
    }

    static ByteBuffer src(Rec r, int len) throws IOException {
        return buffer(r, "heap", len, true);
    }

    /** The 2 GiB - 1 direct buffer of the huge cases, its tail set to FILL. */
    static ByteBuffer huge(Rec r) {
        if (hugeBuffer == null)
            hugeBuffer = ByteBuffer.allocateDirect(Integer.MAX_VALUE);
        ByteBuffer bb = hugeBuffer.clear();
        for (int i = bb.capacity() - (2 << 20); i < bb.capacity(); i++)
            bb.put(i, FILL);
        for (int i = 0; i < 1 << 20; i++)
            bb.put(i, FILL);
        r.buf = bb;
        r.hugeBuf = true;
        return bb;
    }

    static String pos(long p) {
        if (p == MAX) return "MAX";
        if (p == MAX - 1) return "MAX-1";
        if (p == P63_4K) return "2^63-4096";
        if (p == Long.MIN_VALUE) return "MIN";
        return Long.toString(p);
    }

    // -- the cases --

    static void defineCases() throws Exception {
        long[] positions = { -1, Long.MIN_VALUE, 0, 1, SIZE - 10, SIZE, SIZE + 1, 20000,
                             GIB, P63_4K - 4096, P63_4K, MAX - 100, MAX - 1, MAX };

        // positional read: positions x heap/direct, lengths 100 and 4096
        for (String kind : new String[] { "heap", "direct" }) {
            for (int len : new int[] { 100, 4096 }) {
                for (long p : positions) {
                    c("pread." + kind + "." + len + "@" + pos(p), r -> {
                        FileChannel fc = dataChannel(r, READ);
                        return fc.read(buffer(r, kind, len, false), p);
                    });
                }
            }
        }
        // positional read: every kind of buffer
        for (String kind : KINDS) {
            for (long p : new long[] { 0, SIZE - 10, SIZE, MAX }) {
                c("pread.kind." + kind + "@" + pos(p), r -> {
                    FileChannel fc = dataChannel(r, READ);
                    return fc.read(buffer(r, kind, 100, false), p);
                });
            }
        }
        c("pread.null", r -> dataChannel(r, READ).read(null, 0));
        c("pread.wholeFile", r -> dataChannel(r, READ).read(heap(r, SIZE * 2), 0));
        c("pread.closed", r -> {
            FileChannel fc = dataChannel(r, READ);
            fc.close();
            return fc.read(heap(r, 10), 0);
        });
        c("pread.closed.negative", r -> {
            FileChannel fc = dataChannel(r, READ);
            fc.close();
            return fc.read(heap(r, 10), -1);
        });
        c("pread.closed.roBuffer", r -> {
            FileChannel fc = dataChannel(r, READ);
            fc.close();
            return fc.read(buffer(r, "roHeap", 10, false), 0);
        });
        c("pread.writeOnly", r -> dataChannel(r, WRITE).read(heap(r, 10), 0));
        c("pread.writeOnly.negative", r -> dataChannel(r, WRITE).read(heap(r, 10), -5));
        c("pread.append", r -> dataChannel(r, APPEND).read(heap(r, 10), 0));
        c("pread.readWrite.afterTruncate", r -> {
            FileChannel fc = dataChannel(r, READ, WRITE);
            fc.truncate(100);
            return fc.read(heap(r, 200), 50);
        });
        c("pread.fifo.rw", r -> {
            FileChannel fc = fifoReadWrite(r, 100);
            try {
                return fc.read(heap(r, 10), 0);
            } finally {
                r.extra = pipeContent(fc);
            }
        });
        c("pread.fifo.rw.pos5", r -> {
            FileChannel fc = fifoReadWrite(r, 100);
            try {
                return fc.read(buffer(r, "direct", 10, false), 5);
            } finally {
                r.extra = pipeContent(fc);
            }
        });
        c("pread.fifo.readOnly", r -> {
            FileChannel fc = fifoWithData(r, 100);
            return fc.read(heap(r, 10), 0);
        });
        c("pread.fifo.emptyBuffer", r -> {
            FileChannel fc = fifoReadWrite(r, 100);
            return fc.read(buffer(r, "empty", 0, false), 0);
        });
        c("pread.directory", r -> r.open(dir, READ).read(heap(r, 10), 0));
        c("pread.directory.direct", r -> r.open(dir, READ).read(buffer(r, "direct", 10, false), 0));
        c("pread.devZero@0", r -> r.open(Path.of("/dev/zero"), READ).read(heap(r, 4096), 0));
        c("pread.devZero@MAX", r -> r.open(Path.of("/dev/zero"), READ).read(heap(r, 4096), MAX));
        c("pread.devZero@2^63-4096", r ->
                r.open(Path.of("/dev/zero"), READ).read(heap(r, 4096), P63_4K));
        c("pread.devNull@0", r -> r.open(Path.of("/dev/null"), READ).read(heap(r, 10), 0));
        c("pread.devNull@MAX", r -> r.open(Path.of("/dev/null"), READ).read(heap(r, 10), MAX));
        c("pread.devUrandom.len", r -> {
            FileChannel fc = r.open(Path.of("/dev/urandom"), READ);
            ByteBuffer bb = ByteBuffer.allocate(1000);
            return fc.read(bb, 0) + "/" + bb.position();
        });
        for (String f : new String[] { "/proc/sys/kernel/ostype", "/proc/version" }) {
            for (long p : new long[] { 0, 3, 4096, MAX - 1 }) {
                c("pread.proc" + f.substring(f.lastIndexOf('/')) + "@" + pos(p), r ->
                        r.open(Path.of(f), READ).read(heap(r, 4096), p));
            }
        }
        c("pread.procWriteOnly", r ->
                r.open(Path.of("/proc/self/oom_score_adj"), WRITE).read(heap(r, 10), 0));

        // positional write
        for (String kind : new String[] { "heap", "direct" }) {
            for (long p : positions) {
                c("pwrite." + kind + ".100@" + pos(p), r -> {
                    FileChannel fc = dataChannel(r, READ, WRITE);
                    return fc.write(buffer(r, kind, 100, true), p);
                });
            }
            for (long p : new long[] { MAX - 1, MAX - 4096, P63_4K - 4096 }) {
                c("pwrite." + kind + ".1@" + pos(p), r -> {
                    FileChannel fc = dataChannel(r, READ, WRITE);
                    return fc.write(buffer(r, kind, 1, true), p);
                });
            }
        }
        for (String kind : KINDS) {
            for (long p : new long[] { 0, SIZE + 5, MAX }) {
                c("pwrite.kind." + kind + "@" + pos(p), r -> {
                    FileChannel fc = dataChannel(r, READ, WRITE);
                    return fc.write(buffer(r, kind, 100, true), p);
                });
            }
        }
        c("pwrite.null", r -> dataChannel(r, WRITE).write(null, 0));
        c("pwrite.closed", r -> {
            FileChannel fc = dataChannel(r, WRITE);
            fc.close();
            return fc.write(src(r, 10), 0);
        });
        c("pwrite.closed.negative", r -> {
            FileChannel fc = dataChannel(r, WRITE);
            fc.close();
            return fc.write(src(r, 10), -1);
        });
        c("pwrite.readOnly", r -> dataChannel(r, READ).write(src(r, 10), 0));
        c("pwrite.readOnly.negative", r -> dataChannel(r, READ).write(src(r, 10), -1));
        for (long p : new long[] { 0, 5, SIZE, 20000, MAX - 1, MAX }) {
            c("pwrite.append@" + pos(p), r -> dataChannel(r, APPEND).write(src(r, 10), p));
            c("pwrite.appendRead@" + pos(p), r ->
                    dataChannel(r, READ, APPEND).write(src(r, 10), p));
        }
        c("pwrite.append.empty@MAX", r ->
                dataChannel(r, APPEND).write(buffer(r, "noRemaining", 10, true), MAX));
        c("pwrite.sync@MAX-1", r -> dataChannel(r, WRITE, SYNC).write(src(r, 1), MAX - 1));
        c("pwrite.dsync@20000", r -> dataChannel(r, WRITE, DSYNC).write(src(r, 10), 20000));
        c("pwrite.dsync@MAX", r -> dataChannel(r, WRITE, DSYNC).write(src(r, 10), MAX));
        c("pwrite.fifo.rw", r -> {
            FileChannel fc = fifoReadWrite(r, 100);
            try {
                return fc.write(src(r, 10), 0);
            } finally {
                r.extra = pipeContent(fc);
            }
        });
        c("pwrite.fifo.rw.pos7", r -> {
            FileChannel fc = fifoReadWrite(r, 0);
            try {
                return fc.write(buffer(r, "direct", 10, true), 7);
            } finally {
                r.extra = pipeContent(fc);
            }
        });
        c("pwrite.devNull@0", r -> r.open(Path.of("/dev/null"), WRITE).write(src(r, 10), 0));
        c("pwrite.devNull@MAX", r -> r.open(Path.of("/dev/null"), WRITE).write(src(r, 10), MAX));
        c("pwrite.devZero@5", r -> r.open(Path.of("/dev/zero"), WRITE).write(src(r, 10), 5));
        c("pwrite.devFull@0", r -> r.open(Path.of("/dev/full"), WRITE).write(src(r, 10), 0));
        c("pread.devFull@0", r -> r.open(Path.of("/dev/full"), READ).read(heap(r, 10), 0));
        c("pwrite.procOomScoreAdj.bad", r -> r.open(Path.of("/proc/self/oom_score_adj"), WRITE)
                .write(ByteBuffer.wrap("bogus\n".getBytes()), 0));

        // non-positional read and write, position(long)
        c("read.heap", r -> dataChannel(r, READ).read(heap(r, 100)));
        c("read.roHeap", r -> dataChannel(r, READ).read(buffer(r, "roHeap", 100, false)));
        c("read.roDirect", r -> dataChannel(r, READ).read(buffer(r, "roDirect", 100, false)));
        c("read.closedSegment", r -> dataChannel(r, READ).read(buffer(r, "closedSegment", 10, false)));
        c("read.writeOnly", r -> dataChannel(r, WRITE).read(heap(r, 100)));
        c("read.closed", r -> {
            FileChannel fc = dataChannel(r, READ);
            fc.close();
            return fc.read(heap(r, 100));
        });
        c("read.null", r -> dataChannel(r, READ).read((ByteBuffer) null));
        c("write.readOnly", r -> dataChannel(r, READ).write(src(r, 100)));
        c("write.closed", r -> {
            FileChannel fc = dataChannel(r, WRITE);
            fc.close();
            return fc.write(src(r, 100));
        });
        c("position.negative", r -> dataChannel(r, READ).position(-1));
        for (long p : new long[] { 20000, P63_4K, MAX - 1, MAX }) {
            c("read.afterPosition@" + pos(p), r -> {
                FileChannel fc = dataChannel(r, READ);
                fc.position(p);
                return fc.read(heap(r, 100));
            });
            c("write.afterPosition@" + pos(p), r -> {
                FileChannel fc = dataChannel(r, READ, WRITE);
                fc.position(p);
                return fc.write(src(r, 100));
            });
        }
        c("read.fifo", r -> fifoWithData(r, 100).read(heap(r, 1000)));
        c("read.directory", r -> r.open(dir, READ).read(heap(r, 10)));

        // relative reads, and the streams and Files methods that use them
        relativeCases();

        // scattering and gathering
        c("readv.mixed", r -> {
            FileChannel fc = dataChannel(r, READ);
            r.bufs = new ByteBuffer[] { ByteBuffer.allocate(10), ByteBuffer.allocateDirect(20),
                                        ByteBuffer.allocate(30).position(30),
                                        ByteBuffer.allocateDirect(40).slice(3, 30) };
            return fc.read(r.bufs);
        });
        c("readv.readOnlyThird", r -> {
            FileChannel fc = dataChannel(r, READ);
            r.bufs = new ByteBuffer[] { ByteBuffer.allocate(10), ByteBuffer.allocateDirect(20),
                                        ByteBuffer.allocate(30).asReadOnlyBuffer() };
            return fc.read(r.bufs);
        });
        c("readv.badOffset", r -> {
            FileChannel fc = dataChannel(r, READ);
            r.bufs = new ByteBuffer[] { ByteBuffer.allocate(10), ByteBuffer.allocate(10) };
            return fc.read(r.bufs, 1, 5);
        });
        c("readv.negativeLength", r -> {
            FileChannel fc = dataChannel(r, READ);
            r.bufs = new ByteBuffer[] { ByteBuffer.allocate(10) };
            return fc.read(r.bufs, 0, -1);
        });
        c("readv.nullElement", r -> {
            FileChannel fc = dataChannel(r, READ);
            r.bufs = new ByteBuffer[] { ByteBuffer.allocate(10) };
            return fc.read(new ByteBuffer[] { r.bufs[0], null });
        });
        c("readv.allEmpty", r -> {
            FileChannel fc = dataChannel(r, READ);
            r.bufs = new ByteBuffer[] { ByteBuffer.allocate(0), ByteBuffer.allocateDirect(0) };
            return fc.read(r.bufs);
        });
        c("readv.atEOF", r -> {
            FileChannel fc = dataChannel(r, READ);
            fc.position(SIZE);
            r.bufs = new ByteBuffer[] { ByteBuffer.allocate(10), ByteBuffer.allocateDirect(10) };
            return fc.read(r.bufs);
        });
        c("readv.writeOnly", r -> {
            FileChannel fc = dataChannel(r, WRITE);
            r.bufs = new ByteBuffer[] { ByteBuffer.allocate(10) };
            return fc.read(r.bufs);
        });
        c("writev.mixed", r -> {
            FileChannel fc = dataChannel(r, READ, WRITE);
            r.bufs = new ByteBuffer[] { fill(ByteBuffer.allocate(10), true),
                                        fill(ByteBuffer.allocateDirect(20), true),
                                        fill(ByteBuffer.allocate(30), true).asReadOnlyBuffer(),
                                        ByteBuffer.allocate(0) };
            return fc.write(r.bufs);
        });
        c("writev.afterPosition@MAX-1", r -> {
            FileChannel fc = dataChannel(r, READ, WRITE);
            fc.position(MAX - 1);
            r.bufs = new ByteBuffer[] { fill(ByteBuffer.allocate(10), true) };
            return fc.write(r.bufs);
        });
        c("writev.readOnly", r -> {
            FileChannel fc = dataChannel(r, READ);
            r.bufs = new ByteBuffer[] { fill(ByteBuffer.allocate(10), true) };
            return fc.write(r.bufs);
        });
        c("writev.closedSegment", r -> {
            FileChannel fc = dataChannel(r, READ, WRITE);
            r.bufs = new ByteBuffer[] { fill(ByteBuffer.allocate(10), true),
                                        buffer(r, "closedSegment", 10, true) };
            r.buf = null;
            return fc.write(r.bufs);
        });

        // transfers (the arbitrary-channel paths use positional read and write)
        for (long p : new long[] { -1, 0, 9990, SIZE, 20000, MAX }) {
            c("transferTo.stream@" + pos(p), r -> {
                FileChannel fc = dataChannel(r, READ);
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try {
                    return fc.transferTo(p, 100000, Channels.newChannel(out));
                } finally {
                    r.extra = "out=" + out.size() + "/" + crc(out.toByteArray());
                }
            });
            c("transferFrom.stream@" + pos(p), r -> {
                FileChannel fc = dataChannel(r, READ, WRITE);
                return fc.transferFrom(Channels.newChannel(new ByteArrayInputStream(DATA)),
                                       p, 100000);
            });
        }
        c("transferTo.stream.count0", r -> dataChannel(r, READ)
                .transferTo(0, 0, Channels.newChannel(new ByteArrayOutputStream())));
        c("transferTo.stream.countMAX@5", r -> dataChannel(r, READ)
                .transferTo(5, MAX, Channels.newChannel(new ByteArrayOutputStream())));
        c("transferTo.writeOnly", r -> dataChannel(r, WRITE)
                .transferTo(0, 10, Channels.newChannel(new ByteArrayOutputStream())));
        c("transferFrom.readOnly", r -> dataChannel(r, READ)
                .transferFrom(Channels.newChannel(new ByteArrayInputStream(DATA)), 0, 10));
        c("transferFrom.negativeCount", r -> dataChannel(r, WRITE)
                .transferFrom(Channels.newChannel(new ByteArrayInputStream(DATA)), 0, -1));
        c("transferTo.fifoSource", r -> fifoWithData(r, 100)
                .transferTo(0, 1000, Channels.newChannel(new ByteArrayOutputStream())));
        c("transferFrom.fifoTarget", r -> fifoReadWrite(r, 0)
                .transferFrom(Channels.newChannel(new ByteArrayInputStream(DATA)), 0, 10));

        // the channels of RandomAccessFile, FileInputStream, FileOutputStream and Files
        c("raf.r.pread@MAX-1", r -> {
            RandomAccessFile raf = r.closeLater(new RandomAccessFile(dataFile(r).toFile(), "r"));
            FileChannel fc = raf.getChannel();
            r.ch = fc;
            return fc.read(heap(r, 10), MAX - 1);
        });
        c("raf.r.pwrite", r -> {
            RandomAccessFile raf = r.closeLater(new RandomAccessFile(dataFile(r).toFile(), "r"));
            r.ch = raf.getChannel();
            return raf.getChannel().write(src(r, 10), 0);
        });
        for (String mode : new String[] { "rw", "rws", "rwd" }) {
            for (long p : new long[] { 20000, MAX - 1, MAX }) {
                c("raf." + mode + ".pwrite@" + pos(p), r -> {
                    RandomAccessFile raf = r.closeLater(
                            new RandomAccessFile(dataFile(r).toFile(), mode));
                    r.ch = raf.getChannel();
                    return raf.getChannel().write(buffer(r, "direct", 10, true), p);
                });
            }
        }
        c("raf.rw.pread.roBuffer", r -> {
            RandomAccessFile raf = r.closeLater(new RandomAccessFile(dataFile(r).toFile(), "rw"));
            r.ch = raf.getChannel();
            return raf.getChannel().read(buffer(r, "roDirect", 10, false), 0);
        });
        c("raf.closedFile.pread", r -> {
            RandomAccessFile raf = new RandomAccessFile(dataFile(r).toFile(), "r");
            FileChannel fc = raf.getChannel();
            r.ch = fc;
            raf.close();
            return fc.read(heap(r, 10), 0);
        });
        c("fis.pread@9995", r -> {
            FileInputStream in = r.closeLater(new FileInputStream(dataFile(r).toFile()));
            r.ch = in.getChannel();
            return in.getChannel().read(heap(r, 10), 9995);
        });
        c("fis.pwrite", r -> {
            FileInputStream in = r.closeLater(new FileInputStream(dataFile(r).toFile()));
            r.ch = in.getChannel();
            return in.getChannel().write(src(r, 10), 0);
        });
        c("fis.devZero.pread@MAX", r -> {
            FileInputStream in = r.closeLater(new FileInputStream("/dev/zero"));
            r.ch = in.getChannel();
            return in.getChannel().read(heap(r, 10), MAX);
        });
        c("fis.fifo.pread", r -> {
            FileInputStream in = fifoWithData(100,
                    p -> r.closeLater(new FileInputStream(p.toFile())));
            r.ch = in.getChannel();
            return in.getChannel().read(heap(r, 10), 0);
        });
        c("fis.invalidFd.pread", r -> {
            FileInputStream in = new FileInputStream(new java.io.FileDescriptor());
            r.ch = in.getChannel();
            return in.getChannel().read(buffer(r, "direct", 10, false), 0);
        });
        c("fis.invalidFd.pread.heap@MAX", r -> {
            FileInputStream in = new FileInputStream(new java.io.FileDescriptor());
            r.ch = in.getChannel();
            return in.getChannel().read(heap(r, 10), MAX);
        });
        c("fos.invalidFd.pwrite", r -> {
            FileOutputStream out = new FileOutputStream(new java.io.FileDescriptor());
            r.ch = out.getChannel();
            return out.getChannel().write(src(r, 10), 0);
        });
        c("fos.pread", r -> {
            FileOutputStream out = r.closeLater(new FileOutputStream(dataFile(r).toFile(), false));
            r.ch = out.getChannel();
            return out.getChannel().read(heap(r, 10), 0);
        });
        for (long p : new long[] { 0, 20000, MAX }) {
            c("fos.pwrite@" + pos(p), r -> {
                FileOutputStream out = r.closeLater(new FileOutputStream(dataFile(r).toFile()));
                r.ch = out.getChannel();
                return out.getChannel().write(src(r, 10), p);
            });
            c("fos.append.pwrite@" + pos(p), r -> {
                FileOutputStream out = r.closeLater(
                        new FileOutputStream(dataFile(r).toFile(), true));
                r.ch = out.getChannel();
                return out.getChannel().write(src(r, 10), p);
            });
        }
        for (long p : new long[] { 5, SIZE, MAX }) {
            c("files.newByteChannel.pread@" + pos(p), r -> {
                FileChannel fc = (FileChannel) r.closeLater(Files.newByteChannel(dataFile(r)));
                r.ch = fc;
                return fc.read(heap(r, 10), p);
            });
            c("files.newByteChannel.pwrite@" + pos(p), r -> {
                FileChannel fc = (FileChannel) r.closeLater(
                        Files.newByteChannel(dataFile(r), WRITE));
                r.ch = fc;
                return fc.write(src(r, 10), p);
            });
        }
        c("files.newByteChannel.append.pwrite@0", r -> {
            FileChannel fc = (FileChannel) r.closeLater(
                    Files.newByteChannel(dataFile(r), APPEND));
            r.ch = fc;
            return fc.write(src(r, 10), 0);
        });

        // O_DIRECT
        directCases();

        // interrupted before the call: ClosedByInterruptException, channel closed
        c("interrupt.pread", r -> {
            FileChannel fc = dataChannel(r, READ);
            ByteBuffer bb = heap(r, 10);
            Thread.currentThread().interrupt();
            return fc.read(bb, 0);
        });
        c("interrupt.pread.direct@MAX", r -> {
            FileChannel fc = dataChannel(r, READ);
            ByteBuffer bb = buffer(r, "direct", 10, false);
            Thread.currentThread().interrupt();
            return fc.read(bb, MAX);
        });
        c("interrupt.pread.negative", r -> {
            FileChannel fc = dataChannel(r, READ);
            ByteBuffer bb = heap(r, 10);
            Thread.currentThread().interrupt();
            return fc.read(bb, -1);
        });
        c("interrupt.pread.emptyBuffer", r -> {
            FileChannel fc = dataChannel(r, READ);
            ByteBuffer bb = buffer(r, "empty", 0, false);
            Thread.currentThread().interrupt();
            return fc.read(bb, 0);
        });
        c("interrupt.pwrite", r -> {
            FileChannel fc = dataChannel(r, WRITE);
            ByteBuffer bb = src(r, 10);
            Thread.currentThread().interrupt();
            return fc.write(bb, 20000);
        });
        c("interrupt.pwrite.dsync", r -> {
            FileChannel fc = dataChannel(r, WRITE, DSYNC);
            ByteBuffer bb = src(r, 10);
            Thread.currentThread().interrupt();
            return fc.write(bb, 0);
        });
        c("interrupt.read", r -> {
            FileChannel fc = dataChannel(r, READ);
            ByteBuffer bb = heap(r, 10);
            Thread.currentThread().interrupt();
            return fc.read(bb);
        });
        c("interrupt.write", r -> {
            FileChannel fc = dataChannel(r, WRITE);
            ByteBuffer bb = src(r, 10);
            Thread.currentThread().interrupt();
            return fc.write(bb);
        });
        c("interrupt.transferTo.stream", r -> {
            FileChannel fc = dataChannel(r, READ);
            Thread.currentThread().interrupt();
            return fc.transferTo(0, 100, Channels.newChannel(new ByteArrayOutputStream()));
        });
        c("interrupt.raf.pread", r -> {
            RandomAccessFile raf = r.closeLater(new RandomAccessFile(dataFile(r).toFile(), "r"));
            r.ch = raf.getChannel();
            ByteBuffer bb = heap(r, 10);
            Thread.currentThread().interrupt();
            return raf.getChannel().read(bb, 0);
        });
        c("interrupt.fis.pread", r -> {
            FileInputStream in = r.closeLater(new FileInputStream(dataFile(r).toFile()));
            r.ch = in.getChannel();
            ByteBuffer bb = heap(r, 10);
            Thread.currentThread().interrupt();
            return in.getChannel().read(bb, 0);
        });
        c("interrupt.fifo.pread", r -> {
            FileChannel fc = fifoReadWrite(r, 100);
            ByteBuffer bb = heap(r, 10);
            Thread.currentThread().interrupt();
            return fc.read(bb, 0);
        });
        c("interrupt.closed.pread", r -> {
            FileChannel fc = dataChannel(r, READ);
            fc.close();
            ByteBuffer bb = heap(r, 10);
            Thread.currentThread().interrupt();
            return fc.read(bb, 0);
        });

        skipCases();

        String huge = System.getProperty("badinput.huge", "none");
        if (huge.equals("devices") || huge.equals("all"))
            hugeCases(huge.equals("all"));
    }

    static void directCases() {
        c("direct.blockSize", r -> align);
        long[] positions = { 0, 1, 512, align, 8192, SIZE, 3L * align, 20000, P63_4K - 4096,
                             P63_4K, MAX - 100, MAX };
        for (long p : positions) {
            c("direct.pread.aligned@" + pos(p), r -> {
                FileChannel fc = dataChannel(r, READ, ExtendedOpenOption.DIRECT);
                ByteBuffer bb = aligned(false);
                r.buf = bb.limit(align);
                return fc.read(bb, p);
            });
            c("direct.pwrite.aligned@" + pos(p), r -> {
                FileChannel fc = dataChannel(r, READ, WRITE, ExtendedOpenOption.DIRECT);
                ByteBuffer bb = aligned(true);
                r.buf = bb.limit(align);
                return fc.write(bb, p);
            });
        }
        c("direct.pread.heapAligned", r -> {
            FileChannel fc = dataChannel(r, READ, ExtendedOpenOption.DIRECT);
            return fc.read(heap(r, 2 * align), 0);
        });
        c("direct.pread.heapMisalignedSize", r -> {
            FileChannel fc = dataChannel(r, READ, ExtendedOpenOption.DIRECT);
            return fc.read(heap(r, 100), 0);
        });
        c("direct.pread.misalignedAddress", r -> {
            FileChannel fc = dataChannel(r, READ, ExtendedOpenOption.DIRECT);
            ByteBuffer bb = aligned(false);
            r.buf = bb.slice(1, align);
            return fc.read(r.buf, 0);
        });
        c("direct.pread.misalignedBufferPosition", r -> {
            FileChannel fc = dataChannel(r, READ, ExtendedOpenOption.DIRECT);
            ByteBuffer bb = aligned(false);
            r.buf = bb.position(512).limit(512 + align);
            return fc.read(r.buf, 0);
        });
        c("direct.pread.misalignedLength", r -> {
            FileChannel fc = dataChannel(r, READ, ExtendedOpenOption.DIRECT);
            ByteBuffer bb = aligned(false);
            r.buf = bb.limit(align - 512);
            return fc.read(r.buf, 0);
        });
        c("direct.pread.empty@1", r -> {
            FileChannel fc = dataChannel(r, READ, ExtendedOpenOption.DIRECT);
            return fc.read(buffer(r, "empty", 0, false), 1);
        });
        c("direct.pread.empty@0", r -> {
            FileChannel fc = dataChannel(r, READ, ExtendedOpenOption.DIRECT);
            r.buf = aligned(false).position(100).limit(100);
            return fc.read(r.buf, 0);
        });
        c("direct.pwrite.misalignedLength", r -> {
            FileChannel fc = dataChannel(r, WRITE, ExtendedOpenOption.DIRECT);
            ByteBuffer bb = aligned(true);
            r.buf = bb.limit(100);
            return fc.write(r.buf, 0);
        });
        c("direct.pwrite.misalignedAddress", r -> {
            FileChannel fc = dataChannel(r, WRITE, ExtendedOpenOption.DIRECT);
            ByteBuffer bb = aligned(true);
            r.buf = bb.slice(3, align);
            return fc.write(r.buf, 0);
        });
        c("direct.pwrite.heapAligned@20480", r -> {
            FileChannel fc = dataChannel(r, WRITE, ExtendedOpenOption.DIRECT);
            return fc.write(src(r, align), 5L * align);
        });
        c("direct.pwrite.roDirect", r -> {
            FileChannel fc = dataChannel(r, WRITE, ExtendedOpenOption.DIRECT);
            ByteBuffer bb = aligned(true);
            r.buf = bb.limit(align).asReadOnlyBuffer();
            return fc.write(r.buf, 0);
        });
        c("direct.read.afterMisalignedPosition", r -> {
            FileChannel fc = dataChannel(r, READ, ExtendedOpenOption.DIRECT);
            fc.position(100);
            ByteBuffer bb = aligned(false);
            r.buf = bb.limit(align);
            return fc.read(r.buf);
        });
        c("direct.readv.aligned", r -> {
            FileChannel fc = dataChannel(r, READ, ExtendedOpenOption.DIRECT);
            r.bufs = new ByteBuffer[] {
                aligned(false).limit(align),
                ByteBuffer.allocate(align) };
            return fc.read(r.bufs);
        });
        c("direct.appendWrite@0", r -> {
            FileChannel fc = dataChannel(r, WRITE, APPEND, ExtendedOpenOption.DIRECT);
            ByteBuffer bb = aligned(true);
            r.buf = bb.limit(align);
            return fc.write(r.buf, 0);
        });
        c("direct.tmpfs.pread", r -> {
            Path p = Path.of("/dev/shm").resolve("badinput-" + ProcessHandle.current().pid());
            Files.write(p, DATA);
            try (FileChannel fc = FileChannel.open(p, READ, ExtendedOpenOption.DIRECT)) {
                ByteBuffer bb = aligned(false);
                r.buf = bb.limit(align);
                return fc.read(r.buf, 8192);
            } finally {
                Files.delete(p);
            }
        });
        c("direct.open.fifo", r -> r.open(fifo(), READ, WRITE, ExtendedOpenOption.DIRECT)
                .read(heap(r, align), 0));
        c("direct.open.proc", r -> r.open(Path.of("/proc/version"), READ,
                                          ExtendedOpenOption.DIRECT).read(heap(r, align), 0));
        c("direct.open.devZero", r -> r.open(Path.of("/dev/zero"), READ,
                                             ExtendedOpenOption.DIRECT).read(heap(r, align), 0));
        c("direct.interrupt.pread", r -> {
            FileChannel fc = dataChannel(r, READ, ExtendedOpenOption.DIRECT);
            ByteBuffer bb = aligned(false);
            r.buf = bb.limit(align);
            Thread.currentThread().interrupt();
            return fc.read(r.buf, 0);
        });
    }

    /**
     * Relative reads (at the file position, which io_uring serves too) and
     * what is built on them: every kind of buffer at positions around EOF,
     * reads to and past EOF, files that grow and shrink under the channel,
     * the channels of FileInputStream and RandomAccessFile after the stream
     * moved the shared position, Files.newInputStream, readAllBytes,
     * readString and lines, FIFOs, devices and /proc, interrupts.
     */
    static void relativeCases() {
        for (String kind : new String[] { "heap", "direct" }) {
            for (int len : new int[] { 100, 4096, 2 * SIZE }) {
                for (long p : new long[] { 0, 1, SIZE - 10, SIZE, SIZE + 1, 20000, GIB }) {
                    c("read." + kind + "." + len + "@" + pos(p), r -> {
                        FileChannel fc = dataChannel(r, READ);
                        fc.position(p);
                        return fc.read(buffer(r, kind, len, false));
                    });
                }
            }
        }
        for (String kind : KINDS) {
            for (long p : new long[] { 0, SIZE - 10, SIZE }) {
                c("read.kind." + kind + "@" + pos(p), r -> {
                    FileChannel fc = dataChannel(r, READ);
                    fc.position(p);
                    return fc.read(buffer(r, kind, 100, false));
                });
            }
        }
        c("read.sequence.acrossEOF", r -> {
            FileChannel fc = dataChannel(r, READ);
            fc.position(SIZE - 150);
            ByteBuffer bb = heap(r, 300);
            return fc.read(bb.limit(100)) + "," + fc.read(bb.limit(200)) + ","
                    + fc.read(bb.limit(300)) + "," + fc.position();
        });
        c("read.sequence.toEOF", r -> {
            FileChannel fc = dataChannel(r, READ);
            ByteBuffer bb = buffer(r, "direct", 3000, false);
            StringBuilder sb = new StringBuilder();
            CRC32 crc = new CRC32();
            int n;
            while ((n = fc.read(bb.clear())) > 0) {
                crc.update(bb.flip());
                sb.append(n).append(',');
            }
            return sb.append(n).append(" crc=").append(Long.toHexString(crc.getValue()));
        });
        c("read.emptyFile", r -> {
            Path p = dir.resolve("empty" + (++fileCount));
            Files.createFile(p);
            r.file = p;
            return r.open(p, READ).read(heap(r, 10));
        });
        c("read.readWrite.afterWrite", r -> {
            FileChannel fc = dataChannel(r, READ, WRITE);
            fc.write(src(r, 100));
            return fc.read(heap(r, 100));
        });
        c("read.readWrite.afterWritePastEOF", r -> {
            FileChannel fc = dataChannel(r, READ, WRITE);
            fc.position(SIZE + 50);
            fc.write(src(r, 10));
            fc.position(SIZE - 10);
            return fc.read(heap(r, 100));
        });
        c("read.readWrite.afterTruncateBelowPosition", r -> {
            FileChannel fc = dataChannel(r, READ, WRITE);
            fc.position(5000);
            fc.truncate(100);
            return fc.read(heap(r, 100));
        });
        c("read.afterTruncateByOther", r -> {
            FileChannel fc = dataChannel(r, READ);
            fc.position(5000);
            try (FileChannel w = FileChannel.open(r.file, WRITE)) {
                w.truncate(100);
            }
            return fc.read(heap(r, 100));
        });
        c("read.afterGrowthByOther", r -> {
            FileChannel fc = dataChannel(r, READ);
            fc.position(SIZE);
            int first = fc.read(heap(r, 100));
            try (FileChannel w = FileChannel.open(r.file, WRITE, APPEND)) {
                w.write(ByteBuffer.wrap(DATA, 0, 50));
            }
            return first + "," + fc.read(r.buf);
        });
        c("read.appendWriteOnly", r -> dataChannel(r, WRITE, APPEND).read(heap(r, 10)));
        c("read.open.readAppend", r -> dataChannel(r, READ, APPEND).read(heap(r, 10)));
        c("read.open.readWriteAppend", r -> dataChannel(r, READ, WRITE, APPEND).read(heap(r, 10)));
        c("read.writeOnly.direct", r ->
                dataChannel(r, WRITE).read(buffer(r, "direct", 100, false)));
        c("read.writeOnly.roBuffer", r ->
                dataChannel(r, WRITE).read(buffer(r, "roHeap", 100, false)));
        c("read.closed.roBuffer", r -> {
            FileChannel fc = dataChannel(r, READ);
            fc.close();
            return fc.read(buffer(r, "roDirect", 10, false));
        });
        c("read.closed.direct", r -> {
            FileChannel fc = dataChannel(r, READ);
            fc.close();
            return fc.read(buffer(r, "direct", 10, false));
        });
        for (boolean append : new boolean[] { false, true }) {
            c("read.fos" + (append ? ".append" : ""), r -> {
                FileOutputStream out = r.closeLater(
                        new FileOutputStream(dataFile(r).toFile(), append));
                r.ch = out.getChannel();
                return out.getChannel().read(heap(r, 10));
            });
        }

        // FileInputStream and RandomAccessFile share the fd, and its position, with their channel
        c("read.fis.afterStreamRead", r -> {
            FileInputStream in = r.closeLater(new FileInputStream(dataFile(r).toFile()));
            r.ch = in.getChannel();
            int k = in.read(new byte[123]);
            int n = in.getChannel().read(heap(r, 100));
            r.extra = "next=" + in.read() + " avail=" + in.available();
            return k + "," + n;
        });
        c("read.fis.nearEOF", r -> {
            FileInputStream in = r.closeLater(new FileInputStream(dataFile(r).toFile()));
            r.ch = in.getChannel();
            long s = in.skip(SIZE - 5);
            int n = in.getChannel().read(buffer(r, "direct", 100, false));
            r.extra = "next=" + in.read() + " avail=" + in.available();
            return s + "," + n;
        });
        c("read.fis.afterSkipPastEOF", r -> {
            FileInputStream in = r.closeLater(new FileInputStream(dataFile(r).toFile()));
            r.ch = in.getChannel();
            long s = in.skip(SIZE + 100);
            int n = in.getChannel().read(heap(r, 100));
            r.extra = "avail=" + in.available();
            return s + "," + n;
        });
        c("read.fis.thenStreamReadAll", r -> {
            FileInputStream in = r.closeLater(new FileInputStream(dataFile(r).toFile()));
            r.ch = in.getChannel();
            int n = in.getChannel().read(heap(r, 4000));
            byte[] rest = in.readAllBytes();
            return n + "," + rest.length + "/" + crc(rest);
        });
        c("read.fis.closedStream", r -> {
            FileInputStream in = new FileInputStream(dataFile(r).toFile());
            r.ch = in.getChannel();
            in.close();
            return in.getChannel().read(heap(r, 10));
        });
        c("read.fis.devZero", r -> {
            FileInputStream in = r.closeLater(new FileInputStream("/dev/zero"));
            r.ch = in.getChannel();
            return in.getChannel().read(heap(r, 4096));
        });
        c("read.fis.fifo", r -> {
            FileInputStream in = fifoWithData(100,
                    p -> r.closeLater(new FileInputStream(p.toFile())));
            r.ch = in.getChannel();
            int n = in.getChannel().read(heap(r, 1000));
            r.extra = "next=" + in.read();
            return n;
        });
        c("read.fis.invalidFd", r -> {
            FileInputStream in = new FileInputStream(new java.io.FileDescriptor());
            r.ch = in.getChannel();
            return in.getChannel().read(heap(r, 10));
        });
        for (long p : new long[] { 0, SIZE - 10, SIZE, 20000 }) {
            c("read.raf.afterSeek@" + pos(p), r -> {
                RandomAccessFile raf = r.closeLater(
                        new RandomAccessFile(dataFile(r).toFile(), "r"));
                r.ch = raf.getChannel();
                raf.seek(p);
                int n = raf.getChannel().read(heap(r, 100));
                r.extra = "fp=" + raf.getFilePointer();
                return n;
            });
        }
        c("read.raf.rw.afterWrite", r -> {
            RandomAccessFile raf = r.closeLater(new RandomAccessFile(dataFile(r).toFile(), "rw"));
            r.ch = raf.getChannel();
            raf.write(DATA, 0, 50);
            int n = raf.getChannel().read(buffer(r, "direct", 100, false));
            r.extra = "fp=" + raf.getFilePointer() + " next=" + raf.read();
            return n;
        });
        c("read.raf.rw.afterSetLength", r -> {
            RandomAccessFile raf = r.closeLater(new RandomAccessFile(dataFile(r).toFile(), "rw"));
            r.ch = raf.getChannel();
            raf.seek(5000);
            raf.setLength(100);
            int n = raf.getChannel().read(heap(r, 100));
            r.extra = "fp=" + raf.getFilePointer();
            return n;
        });

        // streams and Files methods on relative reads
        c("stream.files.read", r -> {
            InputStream in = r.closeLater(Files.newInputStream(dataFile(r)));
            byte[] b = new byte[300];
            int n = in.read(b, 0, 300);
            r.extra = "avail=" + in.available() + " crc=" + crc(b);
            return n;
        });
        c("stream.files.skipThenRead", r -> {
            InputStream in = r.closeLater(Files.newInputStream(dataFile(r)));
            long s = in.skip(SIZE - 10);
            byte[] b = new byte[100];
            int n = in.read(b);
            r.extra = "avail=" + in.available() + " next=" + in.read() + " crc=" + crc(b);
            return s + "," + n;
        });
        c("stream.files.skipBack", r -> {
            InputStream in = r.closeLater(Files.newInputStream(dataFile(r)));
            int k = in.read(new byte[500]);
            long s = in.skip(-200);
            byte[] b = in.readNBytes(100);
            return k + "," + s + "," + crc(b);
        });
        c("stream.files.readAllBytes.afterRead", r -> {
            InputStream in = r.closeLater(Files.newInputStream(dataFile(r)));
            int k = in.read(new byte[1234]);
            byte[] rest = in.readAllBytes();
            return k + "," + rest.length + "/" + crc(rest);
        });
        c("stream.files.closed", r -> {
            InputStream in = Files.newInputStream(dataFile(r));
            in.close();
            return in.read();
        });
        c("stream.channels.closedChannel", r -> {
            FileChannel fc = dataChannel(r, READ);
            InputStream in = Channels.newInputStream(fc);
            fc.close();
            return in.read();
        });
        c("stream.buffered.markReset", r -> {
            InputStream in = r.closeLater(new java.io.BufferedInputStream(
                    Files.newInputStream(dataFile(r)), 64));
            in.mark(1000);
            int k = in.read(new byte[300]);
            in.reset();
            byte[] b = in.readNBytes(400);
            r.extra = "avail=" + in.available();
            return k + "," + crc(b);
        });
        c("stream.fifo.files", r -> {
            InputStream in = fifoWithData(1000, p -> r.closeLater(Files.newInputStream(p)));
            byte[] b = in.readAllBytes();
            return b.length + "/" + crc(b);
        });
        c("files.readAllBytes", r -> {
            byte[] b = Files.readAllBytes(dataFile(r));
            return b.length + "/" + crc(b);
        });
        c("files.readAllBytes.empty", r -> {
            Path p = dir.resolve("empty" + (++fileCount));
            Files.createFile(p);
            return Files.readAllBytes(p).length;
        });
        c("files.readAllBytes.directory", r -> Files.readAllBytes(dir).length);
        c("files.readAllBytes.proc", r -> {
            byte[] b = Files.readAllBytes(Path.of("/proc/sys/kernel/ostype"));
            return b.length + "/" + crc(b);
        });
        c("files.readString.notUtf8", r -> Files.readString(dataFile(r)).length());
        c("files.readString.latin1", r -> {
            String s = Files.readString(dataFile(r), java.nio.charset.StandardCharsets.ISO_8859_1);
            return s.length() + "/" + crc(s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        });
        c("files.lines.latin1", r -> {
            try (Stream<String> s = Files.lines(dataFile(r),
                                                java.nio.charset.StandardCharsets.ISO_8859_1)) {
                return s.mapToInt(String::length).sum();
            }
        });

        // not regular files
        c("read.fifo.rw.relative", r -> {
            FileChannel fc = fifoReadWrite(r, 100);
            try {
                return fc.read(heap(r, 10));
            } finally {
                r.extra = pipeContent(fc);
            }
        });
        c("read.fifo.direct", r -> fifoWithData(r, 100).read(buffer(r, "direct", 1000, false)));
        c("read.fifo.thrice", r -> {
            FileChannel fc = fifoWithData(r, 100);
            ByteBuffer bb = heap(r, 60);
            return fc.read(bb) + "," + fc.read(bb.clear()) + "," + fc.read(bb.clear());
        });
        c("read.devZero", r -> r.open(Path.of("/dev/zero"), READ).read(heap(r, 4096)));
        c("read.devZero.direct", r -> r.open(Path.of("/dev/zero"), READ)
                .read(buffer(r, "direct", 4096, false)));
        c("read.devNull", r -> r.open(Path.of("/dev/null"), READ).read(heap(r, 10)));
        c("read.devFull", r -> r.open(Path.of("/dev/full"), READ).read(heap(r, 10)));
        c("read.devUrandom.len", r -> {
            FileChannel fc = r.open(Path.of("/dev/urandom"), READ);
            ByteBuffer bb = ByteBuffer.allocate(1000);
            return fc.read(bb) + "/" + bb.position();
        });
        c("read.proc.thrice", r -> {
            FileChannel fc = r.open(Path.of("/proc/sys/kernel/ostype"), READ);
            ByteBuffer bb = heap(r, 3);
            return fc.read(bb) + "," + fc.read(bb.clear()) + "," + fc.read(bb.clear());
        });
        for (long p : new long[] { 3, 4096 }) {
            c("read.proc.afterPosition@" + p, r -> {
                FileChannel fc = r.open(Path.of("/proc/sys/kernel/ostype"), READ);
                fc.position(p);
                return fc.read(heap(r, 100));
            });
        }
        c("read.proc.version", r -> r.open(Path.of("/proc/version"), READ).read(heap(r, 4096)));

        // interrupt status set before the call
        c("interrupt.read.direct", r -> {
            FileChannel fc = dataChannel(r, READ);
            ByteBuffer bb = buffer(r, "direct", 10, false);
            Thread.currentThread().interrupt();
            return fc.read(bb);
        });
        c("interrupt.read.atEOF", r -> {
            FileChannel fc = dataChannel(r, READ);
            fc.position(SIZE);
            ByteBuffer bb = heap(r, 10);
            Thread.currentThread().interrupt();
            return fc.read(bb);
        });
        c("interrupt.read.emptyBuffer", r -> {
            FileChannel fc = dataChannel(r, READ);
            ByteBuffer bb = buffer(r, "empty", 0, false);
            Thread.currentThread().interrupt();
            return fc.read(bb);
        });
        c("interrupt.read.fis", r -> {
            FileInputStream in = r.closeLater(new FileInputStream(dataFile(r).toFile()));
            r.ch = in.getChannel();
            ByteBuffer bb = heap(r, 10);
            in.read(new byte[10]);
            Thread.currentThread().interrupt();
            try {
                return in.getChannel().read(bb);
            } finally {
                try {
                    r.extra = "stream=" + in.available();
                } catch (IOException e) {
                    r.extra = "stream=" + e.getMessage();
                }
            }
        });
        c("interrupt.read.raf", r -> {
            RandomAccessFile raf = r.closeLater(new RandomAccessFile(dataFile(r).toFile(), "r"));
            r.ch = raf.getChannel();
            ByteBuffer bb = heap(r, 10);
            Thread.currentThread().interrupt();
            return raf.getChannel().read(bb);
        });
        c("interrupt.files.readAllBytes", r -> {
            Path p = dataFile(r);
            Thread.currentThread().interrupt();
            byte[] b = Files.readAllBytes(p);
            return b.length + "/" + crc(b);
        });
        c("interrupt.stream.files", r -> {
            InputStream in = r.closeLater(Files.newInputStream(dataFile(r)));
            Thread.currentThread().interrupt();
            byte[] b = new byte[100];
            return in.read(b) + "/" + crc(b);
        });
        c("interrupt.stream.channels", r -> {
            FileChannel fc = dataChannel(r, READ);
            InputStream in = Channels.newInputStream(fc);
            Thread.currentThread().interrupt();
            return in.read(new byte[100]);
        });
    }

    static void skipCases() {
        long[] counts = { -1, Long.MIN_VALUE, 0, 1, 100, SIZE, MAX };
        // file: position based
        for (long n : counts) {
            c("skip.file." + pos(n), r -> {
                FileChannel fc = dataChannel(r, READ);
                fc.position(5);
                return Channels.newInputStream(fc).skip(n);
            });
        }
        c("skip.file.afterEOF", r -> {
            FileChannel fc = dataChannel(r, READ);
            fc.position(20000);
            return Channels.newInputStream(fc).skip(10);
        });
        c("skip.file.afterEOF.negative", r -> {
            FileChannel fc = dataChannel(r, READ);
            fc.position(20000);
            return Channels.newInputStream(fc).skip(-30000);
        });
        c("skip.file.closed", r -> {
            FileChannel fc = dataChannel(r, READ);
            InputStream in = Channels.newInputStream(fc);
            fc.close();
            return in.skip(10);
        });
        c("skip.file.writeOnly", r -> Channels.newInputStream(dataChannel(r, WRITE)).skip(10));
        c("skip.proc", r -> Channels.newInputStream(r.open(Path.of("/proc/version"), READ))
                .skip(10));
        c("skip.directory", r -> Channels.newInputStream(r.open(dir, READ)).skip(10));

        // FIFO: Skipper for a FileChannel that is not seekable
        for (long n : counts) {
            c("skip.fifo." + pos(n), r -> {
                FileChannel fc = fifoWithData(r, 1000);
                InputStream in = Channels.newInputStream(fc);
                long s = in.skip(n);
                r.extra = "rest=" + crc(in.readAllBytes());
                return s;
            });
        }
        c("skip.fifo.twice", r -> {
            InputStream in = Channels.newInputStream(fifoWithData(r, 1000));
            return in.skip(600) + "," + in.skip(600) + "," + in.skip(600) + "," + in.read();
        });
        c("skip.fifo.afterRead", r -> {
            InputStream in = Channels.newInputStream(fifoWithData(r, 1000));
            return in.read() + "," + in.skip(10) + "," + in.read();
        });
        c("skip.fifo.closed", r -> {
            FileChannel fc = fifoWithData(r, 100);
            InputStream in = Channels.newInputStream(fc);
            fc.close();
            return in.skip(10);
        });
        c("skip.fifo.closed.zero", r -> {
            FileChannel fc = fifoWithData(r, 100);
            InputStream in = Channels.newInputStream(fc);
            fc.close();
            return in.skip(0);
        });
        c("skip.fifo.closedStream", r -> {
            FileChannel fc = fifoWithData(r, 100);
            InputStream in = Channels.newInputStream(fc);
            in.close();
            return in.skip(10);
        });
        c("skip.fifo.afterOtherCall.closed", r -> {
            FileChannel fc = fifoWithData(r, 100);
            InputStream in = Channels.newInputStream(fc);
            long s = in.skip(10);
            fc.close();
            return s + "," + in.skip(10);
        });
        c("skip.fifo.writeOnly", r -> {
            Path p = fifo();
            r.closeLater(FileChannel.open(p, READ, WRITE));   // so that opening does not block
            return Channels.newInputStream(r.open(p, WRITE)).skip(10);
        });
        c("skip.fifo.writeOnly.negative", r -> {
            Path p = fifo();
            r.closeLater(FileChannel.open(p, READ, WRITE));
            return Channels.newInputStream(r.open(p, WRITE)).skip(-10);
        });
        c("skip.fifo.rw", r -> {
            FileChannel fc = fifoReadWrite(r, 1000);
            return Channels.newInputStream(fc).skip(1000);
        });
        c("skip.fifo.interrupted", r -> {
            InputStream in = Channels.newInputStream(fifoWithData(r, 100));
            Thread.currentThread().interrupt();
            return in.skip(10);
        });
        c("skip.fifo.interrupted.zero", r -> {
            InputStream in = Channels.newInputStream(fifoWithData(r, 100));
            Thread.currentThread().interrupt();
            return in.skip(0);
        });
        c("skip.fifo.filesNewInputStream", r -> {
            InputStream in = fifoWithData(1000, p -> r.closeLater(Files.newInputStream(p)));
            return in.skip(MAX) + "," + in.read();
        });
        c("skip.fifo.fis", r -> {
            FileInputStream fis = fifoWithData(1000,
                    p -> r.closeLater(new FileInputStream(p.toFile())));
            InputStream in = Channels.newInputStream(fis.getChannel());
            return in.skip(MAX) + "," + in.read();
        });
        c("skip.fifo.raf", r -> {
            RandomAccessFile raf = fifoWithData(1000,
                    p -> r.closeLater(new RandomAccessFile(p.toFile(), "r")));
            InputStream in = Channels.newInputStream(raf.getChannel());
            return in.skip(500) + "," + in.skip(MAX) + "," + in.read();
        });

        // devices
        c("skip.devZero", r -> Channels.newInputStream(r.open(Path.of("/dev/zero"), READ))
                .skip(64 << 20));
        c("skip.devZero.negative", r -> Channels.newInputStream(
                r.open(Path.of("/dev/zero"), READ)).skip(-1));
        c("skip.devNull", r -> Channels.newInputStream(r.open(Path.of("/dev/null"), READ))
                .skip(MAX));
        c("skip.devUrandom", r -> Channels.newInputStream(r.open(Path.of("/dev/urandom"), READ))
                .skip(100000));

        // Pipe
        for (long n : counts) {
            c("skip.pipe." + pos(n), r -> {
                Pipe p = pipeWithData(r, 1000, true);
                InputStream in = Channels.newInputStream(p.source());
                long s = in.skip(n);
                r.extra = "rest=" + crc(in.readAllBytes());
                return s;
            });
        }
        c("skip.pipe.nonBlocking", r -> {
            Pipe p = pipeWithData(r, 1000, true);
            p.source().configureBlocking(false);
            return Channels.newInputStream(p.source()).skip(10);
        });
        c("skip.pipe.nonBlocking.zero", r -> {
            Pipe p = pipeWithData(r, 1000, true);
            p.source().configureBlocking(false);
            return Channels.newInputStream(p.source()).skip(0);
        });
        c("skip.pipe.closed", r -> {
            Pipe p = pipeWithData(r, 1000, true);
            p.source().close();
            return Channels.newInputStream(p.source()).skip(10);
        });
        c("skip.pipe.closed.nonBlocking", r -> {
            Pipe p = pipeWithData(r, 1000, true);
            p.source().configureBlocking(false);
            p.source().close();
            return Channels.newInputStream(p.source()).skip(10);
        });
        c("skip.pipe.interrupted", r -> {
            Pipe p = pipeWithData(r, 1000, false);
            InputStream in = Channels.newInputStream(p.source());
            Thread.currentThread().interrupt();
            return in.skip(10);
        });
        c("skip.pipe.sinkOpen.available", r -> {
            Pipe p = pipeWithData(r, 1000, false);
            return Channels.newInputStream(p.source()).skip(1000);
        });
        c("skip.pipe.afterOtherCall.closed", r -> {
            Pipe p = pipeWithData(r, 1000, true);
            InputStream in = Channels.newInputStream(p.source());
            long s = in.skip(10);
            p.source().close();
            return s + "," + in.skip(10);
        });
    }

    static void hugeCases(boolean sparseFile) {
        // one read or write is capped by the kernel at 0x7ffff000 bytes (MAX_RW_COUNT)
        c("huge.pread.devZero@0", r -> r.open(Path.of("/dev/zero"), READ).read(huge(r), 0));
        c("huge.pwrite.devNull@0", r -> {
            FileChannel fc = r.open(Path.of("/dev/null"), WRITE);
            ByteBuffer bb = huge(r);
            return fc.write(bb, 0);
        });
        c("huge.pwrite.devNull@MAX", r -> r.open(Path.of("/dev/null"), WRITE)
                .write(huge(r), MAX));
        c("huge.pread.devZero@MAX", r -> r.open(Path.of("/dev/zero"), READ).read(huge(r), MAX));
        if (!sparseFile)
            return;
        // a sparse 3 GiB file with DATA across the cap (reading fills 2 GiB of page cache)
        c("huge.pread.sparse@0", r -> sparse(r).read(huge(r), 0));
        c("huge.pread.sparse@3GiB-100", r -> sparse(r).read(huge(r), 3 * GIB - 100));
        c("huge.pread.sparse@P63", r -> sparse(r).read(huge(r), P63_4K));
    }

    static FileChannel sparse(Rec r) throws IOException {
        Path p = dir.resolve("sparse" + (++fileCount));
        try (FileChannel fc = FileChannel.open(p, CREATE_NEW, WRITE)) {
            fc.write(ByteBuffer.wrap(DATA), 0x7ffff000L - SIZE / 2);
            fc.write(ByteBuffer.wrap(DATA), GIB + 0x7ffff000L - SIZE / 2);
            fc.write(ByteBuffer.wrap(DATA, 0, 1), 3 * GIB - 1);
        }
        r.file = p;
        return r.open(p, READ);
    }
}

/*
 * Copyright (c) 2026, nio-uring contributors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  Oracle designates this
 * particular file as subject to the "Classpath" exception as provided
 * by Oracle in the LICENSE file that accompanied this code.
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

package sun.nio.ch;

import java.io.FileDescriptor;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import jdk.internal.access.JavaIOFileDescriptorAccess;
import jdk.internal.access.JavaLangAccess;
import jdk.internal.access.SharedSecrets;
import jdk.internal.misc.Blocker;
import jdk.internal.misc.CarrierThread;
import jdk.internal.misc.Unsafe;

/**
 * File reads and positional writes for the Linux FileDispatcherImpl, through
 * io_uring where a virtual thread would otherwise block its carrier.
 *
 * <p> The system property {@code jdk.nio.file.ioUring}, read once, selects the
 * mode. In {@code auto} (the default) platform threads and all writes use
 * read/pread/pwrite, as upstream. A virtual thread's buffered read first asks
 * for the data with {@code preadv2(RWF_NOWAIT)}, which reads cached data. A
 * read that would block (EAGAIN, or no RWF_NOWAIT here) is submitted to
 * io_uring, and the thread parks until its completion, if other virtual
 * threads will want the carrier meanwhile (threads are parked on the rings,
 * or the scheduler has tasks queued: {@link CarrierThread#hasQueuedTasks});
 * else it blocks the carrier in pread, as upstream, which returns sooner than
 * a completion reaches a parked thread. A virtual thread's O_DIRECT read
 * takes the same rule, and blocks with compensation, as upstream, where it
 * does not park. {@code always} sends every read and positional write to
 * io_uring; {@code never} is upstream's path; {@code compensate}, for
 * comparison, compensates every read that would block.
 *
 * <p> io_uring is probed at first use; if it cannot be used (ENOSYS, EPERM from
 * seccomp or kernel.io_uring_disabled, ENOMEM, ...) every operation uses
 * read/pread/pwrite, and so does every operation of a ring that fails later.
 * {@code -Djdk.nio.file.ioUring.debug=true} prints the mode, the probe result
 * and a ring's failure to System.err, and at exit how many reads took each
 * path. Test-only properties: {@code jdk.nio.file.ioUring.testUnavailable=
 * <reason>} fails the probe, {@code jdk.nio.file.ioUring.depth=<n>} limits a
 * ring's operations in flight, {@code jdk.nio.file.ioUring.testFault=
 * submit:<n>|wait:<n>|busy:<n>} fails the n-th submission or reaper wait,
 * or has the kernel take nothing of the n-th submission.
 */
final class IoUringFileIO {
    private IoUringFileIO() { }

    private static final JavaLangAccess JLA = SharedSecrets.getJavaLangAccess();
    private static final JavaIOFileDescriptorAccess FD_ACCESS =
            SharedSecrets.getJavaIOFileDescriptorAccess();

    // the most one read(2) or pread(2) transfers: Linux MAX_RW_COUNT
    private static final int MAX_RW_COUNT = Integer.MAX_VALUE & -Unsafe.getUnsafe().pageSize();

    private static final List<String> MODES = List.of("never", "auto", "always", "compensate");
    private static final int NEVER = 0, AUTO = 1, ALWAYS = 2, COMPENSATE = 3;

    // how many operations took each path (a read that the probe returns: none)
    private static final LongAdder WOULD_BLOCK = new LongAdder();   // probes that said so
    private static final LongAdder BLOCKED = new LongAdder();       // carrier blocked in pread
    private static final LongAdder COMPENSATED = new LongAdder();   // blocked with compensation
    private static final LongAdder RING = new LongAdder();          // done through a ring
    private static final LongAdder FALLBACKS = new LongAdder();     // a ring could not do it
    private static final boolean DEBUG = Boolean.getBoolean("jdk.nio.file.ioUring.debug");
    private static final int MODE;
    static {
        int mode = MODES.indexOf(System.getProperty("jdk.nio.file.ioUring", "auto"));
        MODE = (mode < 0) ? AUTO : mode;
        if (DEBUG) {
            String status = (MODE == NEVER || MODE == COMPENSATE)
                    ? "using pread/pwrite" : IoUring.status();
            System.err.println("jdk.nio.file.ioUring=" + MODES.get(MODE) + ": " + status);
            try {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println(
                        "jdk.nio.file.ioUring: wouldBlock=" + WOULD_BLOCK.sum()
                        + " blocked=" + BLOCKED.sum() + " compensated=" + COMPENSATED.sum()
                        + " ring=" + RING.sum()
                        + " fallback=" + FALLBACKS.sum())));
            } catch (IllegalStateException e) {
                // shutting down already
            }
        }
    }

    /**
     * Reads at the given position, as pread0, or if it is -1 at the file's
     * current position, as read0, from a file not opened for direct I/O. For
     * the latter the caller holds the channel's position lock: io_uring reads
     * at the current position (IORING_FEAT_RW_CUR_POS) and leaves the file
     * offset where read(2) would leave it.
     */
    static int pread(FileDescriptor fd, long address, int len, long position)
        throws IOException
    {
        if (MODE == ALWAYS)
            return transfer(false, fd, address, len, position);
        if (MODE != NEVER && Thread.currentThread().isVirtual())
            return readVirtual(fd, address, len, position);
        return plainRead(fd, address, len, position);
    }

    static int read(FileDescriptor fd, long address, int len) throws IOException {
        return pread(fd, address, len, -1);
    }

    /**
     * Reads at the given position from a file opened for direct I/O, as
     * pread0. When preadDirectParks() was true, the caller did not compensate
     * for blocking, and this method takes care of the carrier.
     */
    static int preadDirect(FileDescriptor fd, long address, int len, long position)
        throws IOException
    {
        if (MODE == ALWAYS)
            return transfer(false, fd, address, len, position);
        if (MODE == AUTO && Thread.currentThread().isVirtual()) {
            if (othersWaiting()) {
                int n = ringTransfer(false, fd, address, len, position);
                if (n != IoUring.FALLBACK)
                    return n;
            }
            COMPENSATED.increment();
            return blockingTransfer(false, fd, address, len, position);
        }
        return UnixFileDispatcherImpl.pread0(fd, address, len, position);
    }

    /**
     * Returns true if preadDirect takes care of the current virtual thread's
     * carrier itself (parks or compensates): the caller must not compensate.
     */
    static boolean preadDirectParks() {
        return (MODE == AUTO || MODE == ALWAYS) && Thread.currentThread().isVirtual()
                && IoUring.ring() != null;
    }

    /**
     * Writes at the given position, as pwrite0. When pwriteParks() was true,
     * the caller did not compensate for blocking, and this method takes care
     * of the carrier.
     */
    static int pwrite(FileDescriptor fd, long address, int len, long position)
        throws IOException
    {
        if (MODE == ALWAYS)
            return transfer(true, fd, address, len, position);
        return UnixFileDispatcherImpl.pwrite0(fd, address, len, position);
    }

    /**
     * Returns true if pwrite takes care of the current virtual thread's
     * carrier itself: the caller must not compensate.
     */
    static boolean pwriteParks() {
        return MODE == ALWAYS && Thread.currentThread().isVirtual() && IoUring.ring() != null;
    }

    /**
     * A buffered read by a virtual thread in auto or compensate mode, as the
     * class comment says. Returns what pread (read at position -1) would: a
     * short count only at end of file or, from a file that is not regular,
     * what it had.
     */
    private static int readVirtual(FileDescriptor fd, long address, int len, long position)
        throws IOException
    {
        // as pread, which transfers at most MAX_RW_COUNT bytes
        if (len > MAX_RW_COUNT)
            len = MAX_RW_COUNT;
        int total = 0;
        int n = IoUring.preadNoWait0(fd, address, len, position);
        while (n > 0) {
            total += n;
            if (total == len)
                return total;
            n = IoUring.preadNoWait0(fd, address + total, len - total,
                                     advance(position, total));
        }
        if (n == IOStatus.EOF || n == IOStatus.INTERRUPTED)
            return (total > 0) ? total : n;
        // a FIFO or a device: read(2) returns what is there
        if (total > 0 && !IoUring.isFileOrBlockDevice(fd))
            return total;
        // would block, or RWF_NOWAIT is not supported here
        WOULD_BLOCK.increment();
        try {
            n = readWouldBlock(fd, address + total, len - total, advance(position, total));
        } catch (IOException e) {
            if (total > 0)
                return total;
            throw e;
        }
        if (n > 0)
            return total + n;
        return (total > 0) ? total : n;
    }

    /**
     * The part of a virtual thread's buffered read that would block: through
     * a ring while other virtual threads want the carrier, else pread (read)
     * blocking the carrier, with compensation in compensate mode.
     */
    private static int readWouldBlock(FileDescriptor fd, long address, int len, long position)
        throws IOException
    {
        if (MODE == COMPENSATE) {
            COMPENSATED.increment();
            return blockingTransfer(false, fd, address, len, position);
        }
        if (othersWaiting()) {
            int n = ringTransfer(false, fd, address, len, position);
            if (n != IoUring.FALLBACK)
                return n;
        }
        BLOCKED.increment();
        return plainRead(fd, address, len, position);
    }

    /**
     * Returns true if other virtual threads will want the current one's
     * carrier while it waits for a device: threads are parked on the rings
     * (their completions make them runnable), or the scheduler has tasks
     * queued; always true under a scheduler that does not say.
     */
    private static boolean othersWaiting() {
        return IoUring.parked() > 0
                || !(JLA.currentCarrierThread() instanceof CarrierThread carrier)
                || carrier.hasQueuedTasks();
    }

    /**
     * Reads or writes through io_uring, or if it cannot, with pread0/pwrite0
     * (compensated for a virtual thread). Returns as pread0/pwrite0; position
     * -1 reads at the current position, as read0.
     */
    private static int transfer(boolean write, FileDescriptor fd, long address, int len,
                                long position)
        throws IOException
    {
        int n = ringTransfer(write, fd, address, len, position);
        if (n != IoUring.FALLBACK)
            return n;
        if (Thread.currentThread().isVirtual())
            return blockingTransfer(write, fd, address, len, position);
        return write ? UnixFileDispatcherImpl.pwrite0(fd, address, len, position)
                     : plainRead(fd, address, len, position);
    }

    /**
     * Reads or writes through io_uring and returns as pread0/pwrite0, or
     * returns FALLBACK if io_uring is not available, cannot do it for this
     * file (not a regular file or block device; a read at the current
     * position before Linux 5.6), or the ring failed.
     */
    private static int ringTransfer(boolean write, FileDescriptor fd, long address, int len,
                                    long position)
        throws IOException
    {
        IoUring ring = IoUring.ring();
        // only regular files and block devices: io_uring ignores the offset
        // where pread/pwrite fail with ESPIPE (pipes, FIFOs, sockets, ttys),
        // and returns short counts for character devices
        if (ring != null && (position != -1 || ring.readsAtCurrentPosition())
                && IoUring.isFileOrBlockDevice(fd)) {
            int res = ring.execute(write, FD_ACCESS.get(fd), address, len, position);
            if (res > 0) {
                RING.increment();
                return res;
            }
            if (res == 0) {
                RING.increment();
                return write ? 0 : IOStatus.EOF;
            }
            if (res != IoUring.FALLBACK) {
                int n = IoUring.error0(res, !write);
                if (n != IOStatus.UNAVAILABLE) {
                    RING.increment();
                    return n;
                }
            }
            FALLBACKS.increment();
        }
        return IoUring.FALLBACK;
    }

    /**
     * pread0/pwrite0 with compensation for the blocked carrier, as
     * FileChannelImpl does for O_DIRECT (a no-op if it compensates already).
     */
    private static int blockingTransfer(boolean write, FileDescriptor fd, long address,
                                        int len, long position)
        throws IOException
    {
        boolean attempted = Blocker.begin();
        try {
            return write ? UnixFileDispatcherImpl.pwrite0(fd, address, len, position)
                         : plainRead(fd, address, len, position);
        } finally {
            Blocker.end(attempted);
        }
    }

    // pread0 at the given position, or read0 at the current position (-1)
    private static int plainRead(FileDescriptor fd, long address, int len, long position)
        throws IOException
    {
        return (position == -1) ? UnixFileDispatcherImpl.read0(fd, address, len)
                                : UnixFileDispatcherImpl.pread0(fd, address, len, position);
    }

    // the position of a read's next part, done bytes into it (-1: relative)
    private static long advance(long position, int done) {
        return (position == -1) ? -1 : position + done;
    }
}

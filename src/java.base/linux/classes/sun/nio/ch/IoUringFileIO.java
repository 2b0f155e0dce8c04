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
import jdk.internal.access.JavaIOFileDescriptorAccess;
import jdk.internal.access.JavaLangAccess;
import jdk.internal.access.SharedSecrets;
import jdk.internal.event.FileDispatchEvent;
import jdk.internal.misc.Blocker;
import jdk.internal.misc.CarrierThread;
import jdk.internal.misc.Unsafe;

/**
 * File reads and positional writes for the Linux FileDispatcherImpl, through
 * io_uring where a virtual thread would otherwise block its carrier.
 *
 * <p> The system property {@code jdk.nio.file.ioUring}, read once, selects the
 * mode: {@code auto} (the default) or {@code never}. In {@code auto} platform
 * threads and all writes use read/pread/pwrite, as FileDispatcherImpl does
 * without io_uring. A virtual thread's buffered read parks on io_uring if it
 * would block and other virtual threads will want the carrier meanwhile
 * (threads are parked on the rings, or the carrier has tasks queued:
 * {@link CarrierThread#hasKnownQueuedWork}). So if none will, the read is a
 * pread, which returns sooner than a completion reaches a parked thread.
 * Else it first asks for the data with {@code preadv2(RWF_NOWAIT)}, which
 * reads cached data, and what would block (EAGAIN, or no RWF_NOWAIT here) is
 * submitted to io_uring, the thread parking until its completion. A virtual
 * thread's O_DIRECT read takes the same rule, and blocks with compensation
 * where it does not park. {@code never} reads and writes
 * with read/pread/pwrite only, compensated as FileChannelImpl compensates.
 *
 * <p> io_uring is probed at first use; if it cannot be used (ENOSYS, EPERM from
 * seccomp or kernel.io_uring_disabled, ENOMEM, ...) every operation uses
 * read/pread/pwrite, and so does every operation of a ring that fails later.
 * {@code -Djdk.nio.file.ioUring.debug=true} prints the mode, the probe result
 * and a ring's failure to System.err.
 *
 * <p> Which way each operation went is recorded, when JFR's
 * {@code jdk.FileDispatch} event is enabled, as the event's route:
 * {@code page cache} (the probe returned it), {@code blocked} (read/pread/
 * pwrite blocked the thread, or its carrier), {@code compensated} (blocked
 * with compensation), {@code io_uring} (completed through a ring) or
 * {@code fallback} (a ring could not do it: read/pread/pwrite). One event per
 * call of the dispatcher; when the event is disabled, an operation pays one
 * check of {@code FileDispatchEvent.enabled()}.
 *
 * <p> Properties for tests and measurements only, not supported, all read
 * once: {@code jdk.internal.nio.ioUring.mode} overrides the mode with
 * {@code never}, {@code auto}, {@code always} (every read and positional
 * write through io_uring) or {@code compensate} (every read that would block
 * is compensated), the controls of the benchmarks;
 * {@code jdk.internal.nio.ioUring.rings=<n>} and {@code .depth=<n>} set the
 * number of rings and the operations one has in flight;
 * {@code jdk.internal.nio.ioUring.testUnavailable=<reason>} fails the probe;
 * {@code jdk.internal.nio.ioUring.testFault=submit:<n>|wait:<n>|busy:<n>}
 * fails the n-th submission or reaper wait, or has the kernel take nothing of
 * the n-th submission; {@code jdk.internal.nio.ioUring.testNoSyncCancel=true}
 * has a dying ring wait for its operations without cancelling them.
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

    // the routes of the jdk.FileDispatch event
    static final String PAGE_CACHE = "page cache";
    static final String BLOCKED = "blocked";
    static final String COMPENSATED = "compensated";
    static final String RING = "io_uring";
    static final String FALLBACK = "fallback";

    // ringTransfer: no ring for this operation (none, or not a regular file
    // or block device), where FALLBACK is a ring that could not do it
    private static final int NO_RING = Integer.MIN_VALUE + 1;

    private static final int MODE;
    static {
        int mode = MODES.indexOf(System.getProperty("jdk.internal.nio.ioUring.mode", ""));
        if (mode < 0)
            mode = (System.getProperty("jdk.nio.file.ioUring", "").equals("never")) ? NEVER : AUTO;
        MODE = mode;
        if (Boolean.getBoolean("jdk.nio.file.ioUring.debug")) {
            String status = (MODE == NEVER || MODE == COMPENSATE)
                    ? "using pread/pwrite" : IoUring.status();
            System.err.println("jdk.nio.file.ioUring=" + MODES.get(MODE) + ": " + status);
        }
    }

    /**
     * Returns the mode: never, auto, always or compensate.
     */
    static String mode() {
        return MODES.get(MODE);
    }

    /**
     * Returns the start time of a jdk.FileDispatch event, or 0 if the event
     * is not enabled.
     */
    static long traceStart() {
        return FileDispatchEvent.enabled() ? FileDispatchEvent.timestamp() : 0L;
    }

    /**
     * Records a jdk.FileDispatch event that started at start (none if 0)
     * and returns n, an operation's result.
     */
    static int trace(long start, String route, boolean write, int n) {
        if (start != 0L)
            FileDispatchEvent.offer(start, route, write, Math.max(n, 0));
        return n;
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
        long start = traceStart();
        if (MODE == ALWAYS)
            return transfer(start, false, fd, address, len, position);
        if (MODE != NEVER && Thread.currentThread().isVirtual())
            return readVirtual(start, fd, address, len, position);
        return trace(start, BLOCKED, false, plainRead(fd, address, len, position));
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
        long start = traceStart();
        if (MODE == ALWAYS)
            return transfer(start, false, fd, address, len, position);
        if (MODE == AUTO && Thread.currentThread().isVirtual())
            return ringOrBlock(start, othersWaiting(), true, false, fd, address, len, position);
        return trace(start, BLOCKED, false, UnixFileDispatcherImpl.pread0(fd, address, len, position));
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
        long start = traceStart();
        if (MODE == ALWAYS)
            return transfer(start, true, fd, address, len, position);
        return trace(start, BLOCKED, true, UnixFileDispatcherImpl.pwrite0(fd, address, len, position));
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
    private static int readVirtual(long start, FileDescriptor fd, long address, int len,
                                   long position)
        throws IOException
    {
        // nothing else wants the carrier: pread, cached or not
        if (MODE == AUTO && !othersWaiting())
            return trace(start, BLOCKED, false, plainRead(fd, address, len, position));
        // as pread, which transfers at most MAX_RW_COUNT bytes
        if (len > MAX_RW_COUNT)
            len = MAX_RW_COUNT;
        int total = 0;
        int n = IoUring.preadNoWait0(fd, address, len, position);
        while (n > 0) {
            total += n;
            if (total == len)
                return trace(start, PAGE_CACHE, false, total);
            n = IoUring.preadNoWait0(fd, address + total, len - total,
                                     advance(position, total));
        }
        if (n == IOStatus.EOF || n == IOStatus.INTERRUPTED)
            return trace(start, PAGE_CACHE, false, (total > 0) ? total : n);
        // a FIFO or a device: read(2) returns what is there
        if (total > 0 && !IoUring.isFileOrBlockDevice(fd))
            return trace(start, PAGE_CACHE, false, total);
        // would block, or RWF_NOWAIT is not supported here
        try {
            n = readWouldBlock(start, fd, address + total, len - total, advance(position, total));
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
     * The part of a virtual thread's buffered read that would block, while
     * other virtual threads want the carrier: through a ring, or if it cannot,
     * pread (read) blocking the carrier; with compensation in compensate mode.
     */
    private static int readWouldBlock(long start, FileDescriptor fd, long address, int len,
                                      long position)
        throws IOException
    {
        if (MODE == COMPENSATE)
            return trace(start, COMPENSATED, false,
                         blockingTransfer(false, fd, address, len, position));
        return ringOrBlock(start, true, false, false, fd, address, len, position);
    }

    /**
     * Returns true if other virtual threads will want the current one's
     * carrier while it waits for a device: threads are parked on the rings
     * (their completions make them runnable), or the carrier has tasks
     * queued that it could run; always true under a scheduler that does not
     * say.
     */
    private static boolean othersWaiting() {
        return IoUring.parked() > 0
                || !(JLA.currentCarrierThread() instanceof CarrierThread)
                || CarrierThread.hasKnownQueuedWork();
    }

    /**
     * Reads or writes through io_uring, or if it cannot, with pread0/pwrite0
     * (compensated for a virtual thread). Returns as pread0/pwrite0; position
     * -1 reads at the current position, as read0.
     */
    private static int transfer(long start, boolean write, FileDescriptor fd, long address,
                                int len, long position)
        throws IOException
    {
        return ringOrBlock(start, true, Thread.currentThread().isVirtual(), write,
                           fd, address, len, position);
    }

    /**
     * Reads or writes through io_uring if useRing and a ring does it, else
     * with pread0/pwrite0 (read0 at position -1), compensated if compensate;
     * records the route taken.
     */
    private static int ringOrBlock(long start, boolean useRing, boolean compensate,
                                   boolean write, FileDescriptor fd, long address, int len,
                                   long position)
        throws IOException
    {
        int n = useRing ? ringTransfer(write, fd, address, len, position) : NO_RING;
        if (n != IoUring.FALLBACK && n != NO_RING)
            return trace(start, RING, write, n);
        String route = (n == IoUring.FALLBACK) ? FALLBACK : compensate ? COMPENSATED : BLOCKED;
        if (compensate)
            return trace(start, route, write, blockingTransfer(write, fd, address, len, position));
        return trace(start, route, write,
                     write ? UnixFileDispatcherImpl.pwrite0(fd, address, len, position)
                           : plainRead(fd, address, len, position));
    }

    /**
     * Reads or writes through io_uring and returns as pread0/pwrite0, or
     * returns NO_RING if io_uring is not available or cannot do it for this
     * file (not a regular file or block device; a read at the current
     * position before Linux 5.6), or FALLBACK if the ring did not do it or
     * failed.
     */
    private static int ringTransfer(boolean write, FileDescriptor fd, long address, int len,
                                    long position)
        throws IOException
    {
        IoUring ring = IoUring.ring();
        // only regular files and block devices: io_uring ignores the offset
        // where pread/pwrite fail with ESPIPE (pipes, FIFOs, sockets, ttys),
        // and returns short counts for character devices
        if (ring == null || (position == -1 && !ring.readsAtCurrentPosition())
                || !IoUring.isFileOrBlockDevice(fd))
            return NO_RING;
        int res = ring.execute(write, FD_ACCESS.get(fd), address, len, position);
        if (res > 0)
            return res;
        if (res == 0)
            return write ? 0 : IOStatus.EOF;
        if (res != IoUring.FALLBACK) {
            int n = IoUring.error0(res, !write);
            if (n != IOStatus.UNAVAILABLE)
                return n;
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

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
import java.util.concurrent.ThreadLocalRandom;
import jdk.internal.access.JavaIOFileDescriptorAccess;
import jdk.internal.access.JavaLangAccess;
import jdk.internal.access.SharedSecrets;
import jdk.internal.misc.CarrierThread;
import jdk.internal.misc.Unsafe;

/**
 * Positional file reads and writes for the Linux FileDispatcherImpl, through
 * io_uring where that helps.
 *
 * <p> The system property {@code jdk.nio.file.ioUring}, read once, selects the
 * policy:
 * <ul>
 * <li> {@code auto} (default): platform threads and writes use pread/pwrite.
 *   A virtual thread reading first tries preadv2(RWF_NOWAIT); only when that
 *   would block is the read submitted to io_uring, and the virtual thread parks,
 *   releasing its carrier, until the completion arrives. Once a file's data
 *   has been found in the page cache by many probes in a row, its reads use
 *   plain pread, which is cheaper, and probe again one time in 32. An O_DIRECT
 *   read by a virtual thread goes to io_uring directly, without the carrier
 *   compensation upstream uses for it. </li>
 * <li> {@code always}: every positional read and write goes through io_uring. </li>
 * <li> {@code never}: pread/pwrite, as upstream. </li>
 * </ul>
 * io_uring is probed at first use; if it cannot be used (not built, ENOSYS,
 * EPERM from seccomp or kernel.io_uring_disabled, ENOMEM, ...) every operation
 * uses pread/pwrite for the life of the VM. With
 * {@code -Djdk.nio.file.ioUring.debug=true} the mode and the probe result are
 * printed once to System.err. The test-only properties
 * {@code jdk.nio.file.ioUring.testUnavailable=<reason>} and
 * {@code jdk.nio.file.ioUring.depth=<n>} make the probe fail and limit the
 * operations in flight per ring.
 */
final class IoUringFileIO {
    private IoUringFileIO() { }

    private static final JavaLangAccess JLA = SharedSecrets.getJavaLangAccess();
    private static final JavaIOFileDescriptorAccess FD_ACCESS =
            SharedSecrets.getJavaIOFileDescriptorAccess();

    // the most one read(2) or pread(2) transfers: Linux MAX_RW_COUNT
    private static final int MAX_RW_COUNT =
            Integer.MAX_VALUE & ~(Unsafe.getUnsafe().pageSize() - 1);

    private static final int NEVER = 0;
    private static final int AUTO = 1;
    private static final int ALWAYS = 2;

    // Virtual-thread reads in auto mode keep, per file descriptor number (a
    // hash: a collision or a reused number only costs a probe or a blocking
    // pread), the count of consecutive RWF_NOWAIT probes that found the data
    // in the page cache. At STREAK, reads use plain pread and probe one time in
    // PROBE_MASK + 1; a probe that would block sets the count back to 0. The
    // array is read and written without synchronization: a lost update only
    // changes which of two correct paths a read takes.
    private static final int HINT_SLOTS = 256;
    private static final int STREAK = 16;
    private static final int PROBE_MASK = 31;
    private static final int[] HINTS = new int[HINT_SLOTS];

    private static final String MODE_NAME;
    private static final int MODE;
    static {
        String s = System.getProperty("jdk.nio.file.ioUring", "auto");
        int mode = switch (s) {
            case "never" -> NEVER;
            case "always" -> ALWAYS;
            default -> AUTO;
        };
        MODE = mode;
        MODE_NAME = (mode == NEVER) ? "never" : (mode == ALWAYS) ? "always" : "auto";
        if (Boolean.getBoolean("jdk.nio.file.ioUring.debug")) {
            String status = (mode == NEVER) ? "using pread/pwrite" : Rings.STATUS;
            System.err.println("jdk.nio.file.ioUring=" + MODE_NAME + ": " + status);
        }
    }

    /**
     * Reads at the given position, as pread0.
     */
    static int pread(FileDescriptor fd, long address, int len, long position)
        throws IOException
    {
        if (MODE == AUTO) {
            if (Thread.currentThread().isVirtual())
                return preadVirtual(fd, address, len, position);
        } else if (MODE == ALWAYS) {
            return transfer(false, fd, address, len, position);
        }
        return UnixFileDispatcherImpl.pread0(fd, address, len, position);
    }

    /**
     * Reads at the given position from a file opened for direct I/O, as pread0.
     */
    static int preadDirect(FileDescriptor fd, long address, int len, long position)
        throws IOException
    {
        if (MODE == ALWAYS || (MODE == AUTO && Thread.currentThread().isVirtual()))
            return transfer(false, fd, address, len, position);
        return UnixFileDispatcherImpl.pread0(fd, address, len, position);
    }

    /**
     * Returns true if preadDirect parks the current thread, when it is a
     * virtual thread, for the device, rather than holding its carrier.
     */
    static boolean preadDirectParks() {
        return MODE != NEVER && Thread.currentThread().isVirtual() && Rings.ring() != null;
    }

    /**
     * Writes at the given position, as pwrite0.
     */
    static int pwrite(FileDescriptor fd, long address, int len, long position)
        throws IOException
    {
        if (MODE == ALWAYS)
            return transfer(true, fd, address, len, position);
        return UnixFileDispatcherImpl.pwrite0(fd, address, len, position);
    }

    /**
     * Returns the carrier of the current virtual thread if it is compensating
     * for a blocking operation (Blocker.begin: an O_DIRECT or O_SYNC/O_DSYNC
     * write, or an O_DIRECT read when preadDirect does not park), else null.
     */
    private static CarrierThread compensatingCarrier() {
        if (Thread.currentThread().isVirtual()
                && JLA.currentCarrierThread() instanceof CarrierThread ct
                && ct.isCompensating()) {
            return ct;
        }
        return null;
    }

    /**
     * Read by a virtual thread in auto mode: what the page cache has without
     * blocking, the rest through io_uring; or plain pread while the file's
     * data keeps being found in the page cache. Returns what pread would
     * return: a short count only at end of file.
     */
    private static int preadVirtual(FileDescriptor fd, long address, int len, long position)
        throws IOException
    {
        int slot = FD_ACCESS.get(fd) & (HINT_SLOTS - 1);
        int hits = HINTS[slot];
        if (hits >= STREAK && (ThreadLocalRandom.current().nextInt() & PROBE_MASK) != 0)
            return UnixFileDispatcherImpl.pread0(fd, address, len, position);

        // as pread, which transfers at most MAX_RW_COUNT bytes
        if (len > MAX_RW_COUNT)
            len = MAX_RW_COUNT;
        int n = IoUring.preadNoWait0(fd, address, len, position);
        if (n == len) {
            if (hits < STREAK)
                HINTS[slot] = hits + 1;
            return n;
        }
        if (n == IOStatus.EOF || n == IOStatus.INTERRUPTED)
            return n;
        if (hits != 0)
            HINTS[slot] = 0;
        int total = 0;
        while (n > 0) {
            total += n;
            if (total == len)
                return total;
            n = IoUring.preadNoWait0(fd, address + total, len - total, position + total);
        }
        if (n == IOStatus.EOF || n == IOStatus.INTERRUPTED)
            return (total > 0) ? total : n;

        // would block (IOS_UNAVAILABLE) or RWF_NOWAIT not supported
        try {
            n = transfer(false, fd, address + total, len - total, position + total);
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
     * Reads or writes through io_uring, or with pread0/pwrite0 if io_uring
     * is not available. Returns as pread0/pwrite0.
     */
    private static int transfer(boolean write, FileDescriptor fd, long address, int len,
                                long position)
        throws IOException
    {
        IoUring ring = Rings.ring();
        // only regular files and block devices: io_uring ignores the offset
        // where pread/pwrite fail with ESPIPE (pipes, FIFOs, sockets, ttys),
        // and returns short counts for character devices
        if (ring != null && IoUring.isFileOrBlockDevice0(FD_ACCESS.get(fd))) {
            // A virtual thread must not unmount while its carrier compensates
            // (Blocker.begin); waiting for the completion unmounted makes the
            // compensation unnecessary, so end it now. Blocker.end, on whichever
            // carrier the thread then runs, finds nothing to end.
            CarrierThread ct = compensatingCarrier();
            if (ct != null)
                ct.endBlocking();
            int res = ring.execute(write, FD_ACCESS.get(fd), address, len, position);
            if (res > 0)
                return res;
            if (res == 0)
                return write ? 0 : IOStatus.EOF;
            if (res != IoUring.SUBMIT_FAILED) {
                int n = IoUring.error0(res, !write);
                if (n != IOStatus.UNAVAILABLE)
                    return n;
            }
        }
        return write ? UnixFileDispatcherImpl.pwrite0(fd, address, len, position)
                     : UnixFileDispatcherImpl.pread0(fd, address, len, position);
    }

    /**
     * The shared rings, created and probed at first use.
     */
    private static class Rings {
        // in-flight operations per ring
        private static final int DEPTH;

        private static final IoUring[] RINGS;
        static final String STATUS;

        static {
            int count = intProperty("jdk.nio.file.ioUring.rings",
                    Math.clamp(Runtime.getRuntime().availableProcessors() / 4, 1, 4), 64);
            // test-only: a shallow ring makes submitters wait for free slots
            DEPTH = intProperty("jdk.nio.file.ioUring.depth", 4096, 4096);
            String fail = System.getProperty("jdk.nio.file.ioUring.testUnavailable");
            IoUring[] rings = new IoUring[count];
            int created = 0;
            String reason = null;
            if (fail != null) {
                reason = fail + " (simulated)";
            } else {
                try {
                    while (created < count) {
                        rings[created] = IoUring.create(DEPTH, "IoUring-Reaper-" + created);
                        created++;
                    }
                } catch (IOException | OutOfMemoryError e) {
                    reason = e.getMessage();
                }
            }
            if (created == 0) {
                RINGS = null;
                STATUS = "io_uring unavailable (" + reason + "), using pread/pwrite";
            } else {
                if (created < count) {
                    IoUring[] a = new IoUring[created];
                    System.arraycopy(rings, 0, a, 0, created);
                    rings = a;
                }
                RINGS = rings;
                STATUS = "using io_uring (" + created + " ring(s) of depth " + DEPTH
                        + ((reason != null) ? "; ring " + (created + 1) + " of " + count
                                              + ": " + reason : "") + ")";
            }
        }

        /**
         * Returns the value of an integer property clamped to [1, max], or the
         * default if it is not set or not a number.
         */
        private static int intProperty(String name, int def, int max) {
            String s = System.getProperty(name);
            if (s != null) {
                try {
                    return Math.clamp(Integer.parseInt(s), 1, max);
                } catch (NumberFormatException e) {
                    // ignore
                }
            }
            return def;
        }

        /**
         * Returns the ring for the current thread, or null if io_uring is not
         * available.
         */
        static IoUring ring() {
            IoUring[] rings = RINGS;
            if (rings == null)
                return null;
            if (rings.length == 1)
                return rings[0];
            long id = Thread.currentThread().threadId();
            return rings[(int) Long.remainderUnsigned(id, rings.length)];
        }
    }
}

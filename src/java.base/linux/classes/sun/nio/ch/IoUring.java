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
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import jdk.internal.misc.InnocuousThread;
import jdk.internal.misc.Unsafe;

/**
 * A shared io_uring instance for positional file reads and writes.
 *
 * <p> A thread submits its operation under the ring's lock, with the index of
 * a free slot and the slot's sequence number as {@code user_data}, and then
 * waits, parked, until the ring's reaper thread has the completion, stores the
 * result in the slot and unparks it. The caller does not return before the
 * completion has arrived, so the buffer and the file descriptor stay valid for
 * as long as the kernel may use them; an interrupt only requests cancellation
 * ({@code IORING_OP_ASYNC_CANCEL}) and the wait continues. When all slots are
 * in use, submitters wait for one to be freed.
 */
final class IoUring {
    private static final Unsafe UNSAFE = Unsafe.getUnsafe();

    // user_data of cancel requests; their completions are ignored
    private static final long CANCEL_TAG = -1L;

    // returned by execute when the operation could not be submitted
    static final int SUBMIT_FAILED = Integer.MIN_VALUE;

    // number of completions the reaper takes from the CQ ring at a time
    private static final int REAP_BATCH = 64;

    /**
     * An operation slot. The submitter owns the slot from allocation until it
     * has seen {@code done}; the reaper writes {@code result} and then
     * {@code done} for the completion whose user_data matches.
     */
    private static final class Slot {
        final int index;
        int seq;                   // guarded by the ring's lock
        volatile long userData;    // written by the owner before submission
        volatile Thread thread;    // written by the owner before submission
        int result;
        volatile boolean done;
        Slot(int index) {
            this.index = index;
        }
    }

    private final long address;
    private final Slot[] slots;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition slotFreed = lock.newCondition();
    private final int[] free;      // stack of free slot indexes, guarded by lock
    private int freeCount;

    private IoUring(long address, int depth) {
        this.address = address;
        this.slots = new Slot[depth];
        this.free = new int[depth];
        for (int i = 0; i < depth; i++) {
            slots[i] = new Slot(i);
            free[i] = depth - 1 - i;
        }
        this.freeCount = depth;
    }

    /**
     * Creates a ring with room for {@code depth} operations in flight, checks
     * that it supports what is needed, and starts its reaper thread.
     * @throws IOException with the reason if io_uring cannot be used
     */
    static IoUring create(int depth, String name) throws IOException {
        long address = create0(Math.min(depth, 256), depth * 2);
        probe0(address);
        IoUring ring = new IoUring(address, depth);
        Thread reaper = InnocuousThread.newSystemThread(name, ring::reaperLoop);
        reaper.setDaemon(true);
        reaper.setUncaughtExceptionHandler((t, e) -> e.printStackTrace());
        reaper.start();
        return ring;
    }

    /**
     * Reads or writes through this ring and waits for the completion.
     * Returns the CQE's result: bytes transferred or -errno, or SUBMIT_FAILED
     * if the operation could not be queued (then it was not started).
     */
    int execute(boolean write, int fd, long bufAddress, int len, long position) {
        Thread thread = Thread.currentThread();
        Slot slot;
        lock.lock();
        try {
            while (freeCount == 0) {
                slotFreed.awaitUninterruptibly();
            }
            slot = slots[free[--freeCount]];
            int seq = ++slot.seq & 0x7fffffff;
            slot.userData = ((long) seq << 32) | slot.index;
            slot.thread = thread;
            slot.done = false;
            int res = submit0(address, write, fd, bufAddress, len, position, slot.userData);
            if (res < 0) {
                // nothing was queued
                slot.thread = null;
                free[freeCount++] = slot.index;
                slotFreed.signal();
                return SUBMIT_FAILED;
            }
        } finally {
            lock.unlock();
        }

        boolean interrupted = false;
        while (!slot.done) {
            LockSupport.park(this);
            if (!slot.done && Thread.interrupted()) {
                // clear the interrupt so that park blocks again, and ask
                // the kernel to cancel; the CQE still has to arrive
                if (!interrupted) {
                    interrupted = true;
                    cancel(slot.userData);
                }
            }
        }
        int result = slot.result;

        lock.lock();
        try {
            slot.thread = null;
            free[freeCount++] = slot.index;
            slotFreed.signal();
        } finally {
            lock.unlock();
        }
        if (interrupted)
            thread.interrupt();
        return result;
    }

    private void cancel(long userData) {
        lock.lock();
        try {
            cancel0(address, userData, CANCEL_TAG);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes completions from the CQ ring and hands each result to the
     * thread waiting in its slot.
     */
    private void reaperLoop() {
        long buf = UNSAFE.allocateMemory(REAP_BATCH * 16L);
        for (;;) {
            int n = reap0(address, buf, REAP_BATCH);
            if (n < 0)
                throw new InternalError("io_uring_wait_cqe failed: " + n);
            for (int i = 0; i < n; i++) {
                long userData = UNSAFE.getLong(buf + i * 16L);
                int res = (int) UNSAFE.getLong(buf + i * 16L + 8);
                if (userData == CANCEL_TAG)
                    continue;
                Slot slot = slots[(int) userData];
                if (slot.userData != userData || slot.done)
                    continue;   // not in flight: cannot happen
                Thread thread = slot.thread;
                slot.result = res;
                slot.done = true;
                LockSupport.unpark(thread);
            }
        }
    }

    static {
        IOUtil.load();
    }

    // -- Native methods --

    private static native long create0(int sqEntries, int cqEntries) throws IOException;

    private static native void probe0(long address) throws IOException;

    private static native int submit0(long address, boolean write, int fd, long bufAddress,
                                      int len, long position, long userData);

    private static native int cancel0(long address, long userData, long cancelTag);

    private static native int reap0(long address, long bufAddress, int max);

    /**
     * preadv2 with RWF_NOWAIT; returns as pread0 does, IOS_UNAVAILABLE if the
     * read would block, IOS_UNSUPPORTED_CASE if RWF_NOWAIT cannot be used.
     */
    static native int preadNoWait0(FileDescriptor fd, long address, int len,
                                   long position) throws IOException;

    /**
     * Returns true if fd is a regular file or a block device, false if it is
     * anything else or fstat fails.
     */
    static native boolean isFileOrBlockDevice0(int fd);

    /**
     * Maps a negative CQE result to an IOStatus code, or throws the
     * IOException that pread0/pwrite0 throw for that errno.
     */
    static native int error0(int res, boolean reading) throws IOException;
}

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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import jdk.internal.misc.InnocuousThread;
import jdk.internal.misc.Unsafe;

/**
 * A shared io_uring instance for positional file reads and writes.
 *
 * <p> A thread submits its operation under the ring's submit lock, with the
 * index of a free slot and the slot's sequence number as {@code user_data}.
 * It then takes what the CQ ring already holds, in the same native call
 * unless another thread is taking completions: a read of cached data
 * completes during the submission, and its submitter needs no other thread.
 * Otherwise it parks until its completion has been taken from the CQ ring,
 * by the reaper thread or by another submitter, and stored in its slot. The
 * reaper waits in the kernel only while a submitter is parked, so that
 * completions that their submitters take themselves wake no thread.
 *
 * <p> Once submitted, an operation is waited for until its completion has
 * arrived, whatever happens to the thread meanwhile, so that the buffer and
 * the file descriptor stay valid for as long as the kernel may use them. An
 * interrupt does not cancel it: a read or write of a regular file is not
 * interruptible with pread/pwrite either. When all slots are in use,
 * submitters wait for one to be freed.
 *
 * <p> A ring that fails (a submission the kernel refuses, a reaper that
 * cannot wait for completions or dies) is dead: it takes no new operation,
 * the kernel is asked to cancel what it still has, and every operation in
 * flight ends with {@link #FALLBACK}, so that its caller does it with
 * pread/pwrite instead.
 */
final class IoUring {
    private static final Unsafe UNSAFE = Unsafe.getUnsafe();

    // returned by execute when the operation was not done: use pread/pwrite
    static final int FALLBACK = Integer.MIN_VALUE;

    // number of completions taken from the CQ ring at a time
    private static final int REAP_BATCH = 64;

    // times a submitter looks for its completion before it parks, while
    // another thread is taking completions
    private static final int SPINS = 64;

    // how long a dead ring's reaper polls for completions when the kernel
    // cannot cancel synchronously, before it gives up on them (ms)
    private static final long DEATH_POLL_MILLIS = 10_000;

    /**
     * An operation slot. The submitter owns the slot from allocation until it
     * has seen {@code done}; whoever takes the completion whose user_data
     * matches writes {@code result} and then {@code done}, under the reap lock.
     */
    private static final class Slot {
        final int index;
        int seq;                   // guarded by submitLock
        volatile long userData;    // written by the owner before submission
        volatile Thread thread;    // written by the owner before submission
        int result;
        volatile boolean done;
        Slot(int index) {
            this.index = index;
        }
    }

    private final long address;
    private final String name;
    private final Slot[] slots;
    private final boolean curPos;  // reads at offset -1 use the file position

    // the SQ ring and the free slots
    private final ReentrantLock submitLock = new ReentrantLock(true);
    private final Condition slotFreed = submitLock.newCondition();
    private final int[] free;      // stack of free slot indexes, guarded by submitLock
    private int freeCount;
    // platform threads waiting for the submit lock, which a fair lock gives in turn
    private final AtomicInteger platformWaiters = new AtomicInteger();

    // the CQ ring, and the native buffer its completions are copied to
    private final ReentrantLock reapLock = new ReentrantLock();
    private final long reapBuffer;

    // submitters parked until the reaper takes their completion
    private final AtomicInteger waiters = new AtomicInteger();
    private volatile boolean reaperIdle;
    private Thread reaper;

    private volatile boolean dead;
    private String deathReason;    // guarded by this

    private IoUring(long address, int depth, String name) {
        this.address = address;
        this.name = name;
        this.curPos = curPos0(address);
        this.slots = new Slot[depth];
        this.free = new int[depth];
        for (int i = 0; i < depth; i++) {
            slots[i] = new Slot(i);
            free[i] = depth - 1 - i;
        }
        this.freeCount = depth;
        this.reapBuffer = UNSAFE.allocateMemory(REAP_BATCH * 16L);
    }

    /**
     * Creates a ring with room for {@code depth} operations in flight, checks
     * that it supports what is needed, and starts its reaper thread.
     * @throws IOException with the reason if io_uring cannot be used
     */
    static IoUring create(int depth, String name) throws IOException {
        long address = create0(Math.min(depth, 256), depth * 2);
        probe0(address);
        IoUring ring = new IoUring(address, depth, name);
        Thread reaper = InnocuousThread.newSystemThread(name, ring::reaperLoop);
        reaper.setDaemon(true);
        ring.reaper = reaper;
        reaper.start();
        return ring;
    }

    /**
     * Returns true if a read at position -1 reads at the file's current
     * position and advances it, as read(2) does (IORING_FEAT_RW_CUR_POS).
     */
    boolean readsAtCurrentPosition() {
        return curPos;
    }

    /**
     * Returns true if this ring has failed and takes no new operation.
     */
    boolean isDead() {
        return dead;
    }

    /**
     * Returns the number of submitters parked until their completion arrives.
     */
    int waiters() {
        return waiters.get();
    }

    /**
     * Reads or writes through this ring and waits for the completion.
     * Returns the CQE's result, bytes transferred or -errno, or FALLBACK if
     * the operation was not done.
     */
    int execute(boolean write, int fd, long bufAddress, int len, long position) {
        Slot slot;
        Throwable failure = null;
        lockSubmit();
        try {
            while (freeCount == 0 && !dead) {
                slotFreed.awaitUninterruptibly();
            }
            if (dead)
                return FALLBACK;
            slot = slots[free[--freeCount]];
            int seq = ++slot.seq & 0x7fffffff;
            slot.userData = ((long) seq << 32) | slot.index;
            slot.thread = Thread.currentThread();
            slot.done = false;
            int res;
            if (reapLock.tryLock()) {
                try {
                    res = submitDrain0(address, write, fd, bufAddress, len, position,
                                       slot.userData, reapBuffer, REAP_BATCH);
                    if (res > 0) {
                        try {
                            handOut(res);
                            if (res == REAP_BATCH)
                                drain();
                        } catch (Throwable e) {
                            failure = e;
                        }
                    }
                } finally {
                    reapLock.unlock();
                }
            } else {
                res = submit0(address, write, fd, bufAddress, len, position, slot.userData);
            }
            if (res < 0) {
                // not submitted, and the SQE is now a NOP: this ring is done
                slot.thread = null;
                free[freeCount++] = slot.index;
                dead = true;
                slotFreed.signalAll();
                die("io_uring_enter: " + errorString0(-res));
                return FALLBACK;
            }
            if (slot.done && failure == null) {
                // completed during its submission
                int result = slot.result;
                slot.thread = null;
                free[freeCount++] = slot.index;
                slotFreed.signal();
                return result;
            }
        } finally {
            submitLock.unlock();
        }
        return await(slot, failure);
    }

    /**
     * Waits for the completion of the operation in the given slot, frees the
     * slot and returns the result. Does not return before the completion has
     * arrived, whatever is thrown meanwhile; the given failure, if not null,
     * or else the first such throwable is rethrown then. The interrupt status
     * is kept.
     */
    private int await(Slot slot, Throwable failure) {
        boolean interrupted = false;
        boolean waiting = false;
        while (!slot.done) {
            try {
                if (!waiting) {
                    // a completion that is already there needs no other thread;
                    // if another thread is taking completions, it may be ours
                    for (int i = 0; !slot.done && !tryReap() && i < SPINS; i++) {
                        Thread.onSpinWait();
                    }
                    if (slot.done)
                        break;
                    waiters.incrementAndGet();
                    waiting = true;
                    if (reaperIdle)
                        LockSupport.unpark(reaper);
                } else {
                    LockSupport.park(this);
                    if (Thread.interrupted())
                        interrupted = true;
                }
            } catch (Throwable e) {
                if (failure == null)
                    failure = e;
            }
        }
        if (waiting)
            waiters.decrementAndGet();
        int result = slot.result;

        lockSubmit();
        try {
            slot.thread = null;
            free[freeCount++] = slot.index;
            slotFreed.signal();
        } finally {
            submitLock.unlock();
        }
        if (interrupted)
            Thread.currentThread().interrupt();
        throwIfUnchecked(failure);
        return result;
    }

    /**
     * Takes the submit lock. The virtual threads of one carrier can take it
     * back to back, and a thread parked waiting for it, woken when it is
     * released, then rarely finds it free first: a platform thread sharing a
     * ring with such a carrier (in always mode) waited for seconds. So the
     * lock is taken out of turn while no platform thread waits for it, and in
     * turn while one does. Virtual threads are not waited for in turn: a
     * queue of them would make every read park until it empties.
     */
    private void lockSubmit() {
        if (platformWaiters.get() == 0 && submitLock.tryLock())
            return;
        if (Thread.currentThread().isVirtual()) {
            submitLock.lock();
        } else {
            platformWaiters.incrementAndGet();
            try {
                submitLock.lock();
            } finally {
                platformWaiters.decrementAndGet();
            }
        }
    }

    /**
     * Takes what the CQ ring holds, unless another thread is doing so.
     * Returns false if another thread is.
     */
    private boolean tryReap() {
        if (reapLock.tryLock()) {
            try {
                drain();
            } finally {
                reapLock.unlock();
            }
            return true;
        }
        return false;
    }

    /**
     * Takes every completion the CQ ring holds and hands each result to its
     * slot. The caller holds the reap lock.
     */
    private void drain() {
        int n;
        do {
            n = drain0(address, reapBuffer, REAP_BATCH);
            handOut(n);
        } while (n == REAP_BATCH);
    }

    /**
     * Hands each of the n completions copied to the reap buffer to its slot.
     * The caller holds the reap lock. They have left the CQ ring, so each is
     * handed out even if unparking the owner of another throws; the first
     * such throwable is rethrown then.
     */
    private void handOut(int n) {
        Throwable failure = null;
        for (int i = 0; i < n; i++) {
            long userData = UNSAFE.getLong(reapBuffer + i * 16L);
            int res = (int) UNSAFE.getLong(reapBuffer + i * 16L + 8);
            try {
                complete(slots[(int) userData & 0x7fffffff], userData, res);
            } catch (Throwable e) {
                if (failure == null)
                    failure = e;
            }
        }
        throwIfUnchecked(failure);
    }

    /**
     * Throws the given throwable, caught while waiting for or handing out
     * completions, if it is an Error or a RuntimeException; nothing that is
     * called there throws a checked exception.
     */
    private static void throwIfUnchecked(Throwable failure) {
        if (failure instanceof Error e)
            throw e;
        if (failure instanceof RuntimeException e)
            throw e;
    }

    /**
     * Stores the result in the slot if the slot still waits for the
     * completion with this user_data, and unparks its owner.
     */
    private void complete(Slot slot, long userData, int res) {
        if (slot.userData != userData || slot.done)
            return;     // not in flight: cannot happen
        Thread thread = slot.thread;
        slot.result = res;
        slot.done = true;
        if (thread != Thread.currentThread())
            LockSupport.unpark(thread);
    }

    /**
     * The reaper: while some submitter is parked, waits in the kernel for
     * completions and takes them; otherwise parks until a submitter needs
     * it. A failure, or anything thrown, kills the ring; it never leaves a
     * submitter waiting.
     */
    private void reaperLoop() {
        try {
            for (;;) {
                if (waiters.get() == 0) {
                    reaperIdle = true;
                    if (waiters.get() == 0)
                        LockSupport.park(this);
                    reaperIdle = false;
                    continue;
                }
                int res = wait0(address);
                if (res < 0) {
                    die("io_uring_enter (waiting for completions): " + errorString0(-res));
                    return;
                }
                if (!reapLock.tryLock()) {
                    // a submitter is taking completions: leave them to it
                    // rather than queue for the lock, which would make its
                    // unlock wake this thread
                    Thread.yield();
                    continue;
                }
                try {
                    drain();
                } finally {
                    reapLock.unlock();
                }
            }
        } catch (Throwable e) {
            die("reaper: " + e);
        }
    }

    /**
     * Kills the ring: no new operation is submitted. Called by a submitter
     * whose submission failed, the reaper goes on handing out the completions
     * of the operations in flight (and kills the ring itself if it cannot).
     * Called by the reaper, the kernel is asked to cancel what it still has
     * and to wait until it is done with each, the completions that are there
     * are handed out, and every operation still in flight after that ends
     * with FALLBACK.
     */
    private void die(String reason) {
        dead = true;
        synchronized (this) {
            if (deathReason == null) {
                deathReason = reason;
                IoUringFileIO.ringDied(name, reason);
            }
        }
        // no submission is in progress after this, and none follows
        submitLock.lock();
        try {
            slotFreed.signalAll();
        } finally {
            submitLock.unlock();
        }
        if (Thread.currentThread() != reaper)
            return;

        // without synchronous cancellation (before Linux 6.0), poll for a while
        boolean cancelled = cancelAll0(address) == 0;
        long deadline = System.nanoTime() + DEATH_POLL_MILLIS * 1_000_000L;
        for (;;) {
            reapLock.lock();
            try {
                try {
                    drain();
                } catch (Throwable e) {
                    // what it took was handed out; go on
                }
                if (cancelled || !inFlight() || System.nanoTime() - deadline > 0) {
                    // what is left is not coming: its caller does it again
                    for (Slot slot : slots) {
                        if (slot.thread != null && !slot.done) {
                            try {
                                complete(slot, slot.userData, FALLBACK);
                            } catch (Throwable e) {
                                // the others still get theirs
                            }
                        }
                    }
                    return;
                }
            } finally {
                reapLock.unlock();
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                // keep polling
            }
        }
    }

    /**
     * Returns true if some slot waits for a completion. The caller holds the
     * reap lock.
     */
    private boolean inFlight() {
        for (Slot slot : slots) {
            if (slot.thread != null && !slot.done)
                return true;
        }
        return false;
    }

    /**
     * Test-only: the n-th submission from now fails as if io_uring_enter were
     * denied after the SQE was queued (kind 0), or the n-th wait of a reaper
     * for completions fails with EBADR (kind 1).
     */
    static void setTestFault(int kind, int n) {
        setTestFault0(kind, n);
    }

    static {
        IOUtil.load();
        init0();
    }

    // -- Native methods --

    private static native void init0();

    private static native long create0(int sqEntries, int cqEntries) throws IOException;

    private static native void probe0(long address) throws IOException;

    private static native boolean curPos0(long address);

    private static native int submit0(long address, boolean write, int fd, long bufAddress,
                                      int len, long position, long userData);

    private static native int wait0(long address);

    private static native int drain0(long address, long bufAddress, int max);

    private static native int submitDrain0(long address, boolean write, int fd,
                                           long bufAddress, int len, long position,
                                           long userData, long outAddress, int max);

    private static native int cancelAll0(long address);

    private static native void setTestFault0(int kind, int n);

    /**
     * Returns the system's message for the given errno value.
     */
    private static native String errorString0(int errno);

    /**
     * preadv2 with RWF_NOWAIT; returns as pread0 does, IOS_UNAVAILABLE if the
     * read would block, IOS_UNSUPPORTED_CASE if the file does not support
     * RWF_NOWAIT, IOS_UNSUPPORTED if the system does not.
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

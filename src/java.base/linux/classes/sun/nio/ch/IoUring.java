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
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import jdk.internal.misc.InnocuousThread;
import jdk.internal.misc.TerminatingThreadLocal;
import jdk.internal.access.JavaIOFileDescriptorAccess;
import jdk.internal.access.SharedSecrets;
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
 * and the kernel is asked to cancel what it still has. An operation that it
 * cancels ends with {@link #FALLBACK}, so that its caller does it with
 * pread/pwrite instead; any other still ends with its completion.
 *
 * <p> An operation submitted with {@link #submit} has no thread waiting for
 * it: its slot holds a {@link Completion} instead. Such operations are
 * queued, and the reaper submits them, as fio's one thread does: a buffered
 * read that misses the page cache is finished in the kernel by task work in
 * the thread that submitted it, and the reaper, which waits in the kernel for
 * completions, runs that work where it waits, instead of the kernel waking
 * the thread that queued the read (an executor's thread, often idle) first.
 * A thread that queues an operation while the reaper waits in the kernel
 * wakes it with a NOP. Whoever takes a completion from the CQ ring queues the
 * slot; the reaper, with none of the ring's locks held, frees the slot and
 * runs the completion, which only hands the result to another thread, so
 * that nothing of the operation runs inside another caller's read. The
 * reaper waits in the kernel while such an operation is queued or in flight.

 */
final class IoUring {
    private static final Unsafe UNSAFE = Unsafe.getUnsafe();
    private static final JavaIOFileDescriptorAccess FD_ACCESS =
            SharedSecrets.getJavaIOFileDescriptorAccess();

    // returned by execute when the operation was not done: use pread/pwrite
    static final int FALLBACK = Integer.MIN_VALUE;

    // returned by the submitting natives when the kernel did not take the
    // SQE for want of memory or of CQ ring space (EAGAIN, EBUSY): the SQE is
    // a NOP, and the ring goes on
    static final int BUSY = Integer.MIN_VALUE + 1;

    // number of completions taken from the CQ ring at a time
    private static final int REAP_BATCH = 64;

    // times a submitter looks for its completion before it parks, while
    // another thread is taking completions
    private static final int SPINS = 64;

    // turns the reaper leaves completions to a submitter that holds the reap
    // lock before it waits for the lock
    private static final int REAPER_YIELDS = 16;

    // permits a dying ring gives, so that every submitter waiting for a slot
    // finds the ring dead: more than there can be threads
    private static final int DEAD_PERMITS = 1 << 30;

    // how long a dead ring's reaper waits for the completions of operations
    // the kernel could not cancel before it reports them (with debug)
    private static final long STUCK_REPORT_NANOS = 10_000_000_000L;

    // test-only: a dying ring does not cancel synchronously, as before Linux 6.0
    private static final boolean TEST_NO_SYNC_CANCEL =
            Boolean.getBoolean("jdk.nio.file.ioUring.testNoSyncCancel");

    private static final boolean DEBUG = Boolean.getBoolean("jdk.nio.file.ioUring.debug");

    /**
     * An operation slot. The submitter owns the slot from allocation until it
     * has seen {@code done}; whoever takes the completion whose user_data
     * matches writes {@code result} and then {@code done}, under the reap lock.
     * A new operation writes {@code userData} first, so that a thread that
     * reads the slot without a lock (completedFor) can tell whether what it
     * read belongs to one operation. The slot of an operation submitted with
     * {@link #submit} has an action and no thread: it is freed by the reaper
     * once it has run the action. A thread waiting for its operation parks
     * with the slot as its blocker.
     */
    private static final class Slot {
        final int index;
        int seq;                   // guarded by submitLock
        volatile long userData;    // written by the owner first, before submission
        int fd;                    // written by the owner before thread, read after it
        volatile Thread thread;    // written by the owner before submission
        volatile Completion action; // written by submit before submission
        int result;                // written before done
        volatile boolean done;
        Slot(int index) {
            this.index = index;
        }

        /**
         * Returns true if this slot holds an operation of the given thread on
         * the given file descriptor that the kernel has completed with a
         * count. The fields are read without a lock, between two reads of
         * userData, as StampedLock validates a stamp: if userData has not
         * changed, they belong to one operation.
         */
        boolean completedFor(int fd, Thread thread) {
            long userData = this.userData;
            boolean completed = done && this.thread == thread && this.fd == fd && result >= 0;
            VarHandle.acquireFence();
            return completed && this.userData == userData;
        }
    }

    /**
     * What is done with the completion of an operation submitted with
     * {@link #submit}, instead of waking a thread.
     */
    interface Completion {
        /**
         * Receives the operation's result: the CQE's result, bytes
         * transferred or -errno, or FALLBACK if the operation was not done.
         * Called once, with none of the ring's locks held, by the reaper
         * after the slot has been freed or, if the ring died before the
         * operation was queued, by the thread that queued it. It must only
         * hand the result off to another thread: it must not block, and it
         * must not run the application's code.
         */
        void completed(int result);
    }

    /**
     * An operation queued by submit.
     */
    private record Request(boolean write, int fd, long bufAddress, int len, long position,
                           Completion action) { }

    private final long address;
    private final String name;
    private final Slot[] slots;
    private final boolean curPos;  // reads at offset -1 use the file position

    // the SQ ring and the free slots
    private final ReentrantLock submitLock = new ReentrantLock(true);
    private final int[] free;      // stack of free slot indexes, guarded by submitLock
    private int freeCount;
    // a permit for each free slot, taken before the submit lock: a thread
    // waits for a slot holding no lock (and no place in the lock's queue)
    private final Semaphore freeSlots;
    // platform threads waiting for the submit lock or holding it, which a
    // fair lock gives in turn (see lockSubmit)
    private final AtomicInteger platformUsers = new AtomicInteger();

    // the CQ ring, and the native buffer its completions are copied to
    private final ReentrantLock reapLock = new ReentrantLock();
    private final long reapBuffer;

    // submitters parked until the reaper takes their completion
    private final AtomicInteger waiters = new AtomicInteger();
    private volatile boolean reaperIdle;
    private Thread reaper;

    // operations submitted with submit whose completion has not arrived
    private final AtomicInteger pending = new AtomicInteger();

    // slots of operations submitted with submit whose completion has been
    // taken, to be freed and their actions run (see runCompletions)
    private final ConcurrentLinkedQueue<Slot> finished = new ConcurrentLinkedQueue<>();

    // operations queued by submit, to be submitted by the reaper
    private final ConcurrentLinkedQueue<Request> requests = new ConcurrentLinkedQueue<>();
    // true while the reaper waits in the kernel and no NOP has been sent to wake it
    private final AtomicBoolean reaperInKernel = new AtomicBoolean();

    private volatile boolean dead;
    private boolean permitsReleased;   // guarded by submitLock
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
        this.freeSlots = new Semaphore(depth, true);
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
        IoUring ring = null;
        try {
            ring = new IoUring(address, depth, name);
            Thread reaper = InnocuousThread.newSystemThread(name, ring::reaperLoop);
            reaper.setDaemon(true);
            ring.reaper = reaper;
            reaper.start();
        } catch (Throwable e) {
            // no thread (OutOfMemoryError): nothing was submitted to the ring
            if (ring != null)
                UNSAFE.freeMemory(ring.reapBuffer);
            destroy0(address);
            throw e;
        }
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
     * Returns the number of operations queued with submit that the reaper has
     * submitted and whose completion has not arrived.
     */
    int pending() {
        return pending.get();
    }

    /**
     * Reads or writes through this ring and waits for the completion.
     * Returns the CQE's result, bytes transferred or -errno, or FALLBACK if
     * the operation was not done.
     */
    int execute(boolean write, int fd, long bufAddress, int len, long position) {
        Slot slot;
        Throwable failure = null;
        boolean killed = false;
        freeSlots.acquireUninterruptibly();
        lockSubmit();
        try {
            if (dead)
                return FALLBACK;    // die released permits for all
            slot = slots[free[--freeCount]];
            int seq = ++slot.seq & 0x7fffffff;
            slot.userData = ((long) seq << 32) | slot.index;
            // done, then fd, then thread: see completedFor
            slot.done = false;
            slot.fd = fd;
            slot.thread = Thread.currentThread();
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
            if (res == BUSY) {
                // not submitted, and the SQE is now a NOP: done with pread/pwrite
                slot.thread = null;
                freeSlot(slot);
                return FALLBACK;
            }
            if (res < 0) {
                // not submitted, and the SQE is now a NOP: this ring is done
                slot.thread = null;
                freeSlot(slot);
                dead = true;
                killed = true;
                die("io_uring_enter: " + errorString0(-res));
                return FALLBACK;
            }
            if (slot.done && failure == null) {
                // completed during its submission
                int result = slot.result;
                slot.thread = null;
                freeSlot(slot);
                return result;
            }
        } finally {
            unlockSubmit();
            // what was queued before the ring died is the reaper's to end
            if (killed)
                LockSupport.unpark(reaper);
            completionsTaken();
        }
        return await(slot, failure);
    }

    /**
     * Submits a read or write and returns without waiting for it: its
     * completion runs the given action, with the result or, if the ring is
     * dead or dies before the kernel has taken the operation, FALLBACK. The
     * operation is queued for the reaper, which submits it while slots are
     * free. The buffer must stay valid until the action has run. If this
     * method throws, the operation was not queued.
     */
    void submit(boolean write, int fd, long bufAddress, int len, long position,
                Completion action) {
        requests.add(new Request(write, fd, bufAddress, len, position, action));
        try {
            if (!dead)
                wakeReaper();
        } catch (Throwable e) {
            // no NOP (OutOfMemoryError): the reaper waits in the kernel for
            // an operation in flight, and submits this one when it wakes
        }
        if (dead)
            refuseQueued();
    }

    /**
     * Makes the reaper look at the queued operations: unparks it if it is
     * idle, or, if it waits in the kernel, submits a NOP, whose completion
     * wakes it.
     */
    private void wakeReaper() {
        if (reaperIdle) {
            LockSupport.unpark(reaper);
        } else if (reaperInKernel.get() && reaperInKernel.compareAndSet(true, false)) {
            lockSubmit();
            try {
                if (!dead) {
                    // a NOP the kernel did not take (BUSY) leaves the reaper
                    // waiting for the operations in flight, which wake it
                    int res = nop0(address);
                    if (res < 0 && res != BUSY)
                        die("io_uring_enter: " + errorString0(-res));
                }
            } finally {
                unlockSubmit();
            }
            // what was queued before the ring died is the reaper's to end
            if (dead)
                LockSupport.unpark(reaper);
        }
    }

    /**
     * The reaper's turn at submitting: submits the queued operations while
     * slots are free. Returns 1 if some are left queued for want of a free
     * slot, else 0, or -errno if the kernel refused a submission: the ring is
     * then dead, and the reaper is to kill it (see die). Once the ring is
     * dead, the queued operations end with FALLBACK.
     */
    private int submitQueued() {
        int failure = 0;
        lockSubmit();
        try {
            while (!dead && !requests.isEmpty() && freeSlots.tryAcquire()) {
                Request r = requests.poll();
                if (r == null) {
                    freeSlots.release();
                    break;
                }
                Slot slot = slots[free[--freeCount]];
                slot.userData = ((long) (++slot.seq & 0x7fffffff) << 32) | slot.index;
                slot.action = r.action();
                slot.done = false;
                pending.incrementAndGet();
                // the completion is left to the reaper, which wakes for it
                int res = submit0(address, r.write(), r.fd(), r.bufAddress(), r.len(),
                                  r.position(), slot.userData);
                if (res == BUSY) {
                    // not submitted, and the SQE is now a NOP: submitted
                    // again once completions have been taken
                    slot.action = null;
                    pending.decrementAndGet();
                    freeSlot(slot);
                    requests.add(r);
                    break;
                }
                if (res < 0) {
                    // not submitted, and the SQE is now a NOP: this ring is done
                    slot.action = null;
                    pending.decrementAndGet();
                    freeSlot(slot);
                    requests.add(r);
                    dead = true;
                    failure = res;
                }
            }
        } finally {
            unlockSubmit();
        }
        if (dead) {
            refuseQueued();
            return failure;
        }
        return requests.isEmpty() ? 0 : 1;
    }

    /**
     * Returns true if a slot is free.
     */
    private boolean slotFree() {
        return freeSlots.availablePermits() > 0;
    }

    /**
     * Puts the slot back on the free stack and gives back its permit. The
     * caller holds the submit lock.
     */
    private void freeSlot(Slot slot) {
        free[freeCount++] = slot.index;
        freeSlots.release();
    }

    /**
     * Ends each queued operation with FALLBACK: the ring is dead, and the
     * kernel has not taken them.
     */
    private void refuseQueued() {
        Request r;
        while ((r = requests.poll()) != null) {
            try {
                r.action().completed(FALLBACK);
            } catch (Throwable e) {
                // the action's own failure
            }
        }
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
                    // the slot as blocker: see completedFor
                    LockSupport.park(slot);
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
            freeSlot(slot);
        } finally {
            unlockSubmit();
        }
        // operations queued for want of a slot
        if (!requests.isEmpty())
            wakeReaper();
        if (interrupted)
            Thread.currentThread().interrupt();
        throwIfUnchecked(failure);
        return result;
    }

    /**
     * Takes the submit lock. A virtual thread never queues for it, and never
     * takes it while a platform thread waits for it or holds it: it spins
     * until the lock is free and no platform thread is there. A queue of
     * parked virtual threads hands the lock on only as fast as each of them
     * is scheduled, and a platform thread behind such a queue (the virtual
     * threads of a carrier reading back to back, in always mode) waited for
     * seconds where pread takes microseconds; and a virtual thread that
     * yields its carrier while others wait in the queue can keep a queued
     * one from being scheduled at all. Platform threads, the reaper among
     * them, take the lock in turn, so that one waits for the holder and the
     * platform threads ahead of it. No holder parks or unmounts while it
     * holds the lock (a submitter waits for a free slot before it takes the
     * lock), so a spinning virtual thread waits only for a running thread.
     */
    private void lockSubmit() {
        if (Thread.currentThread().isVirtual()) {
            while (platformUsers.get() > 0 || !submitLock.tryLock()) {
                Thread.onSpinWait();
            }
        } else {
            platformUsers.incrementAndGet();
            submitLock.lock();
        }
    }

    /**
     * Releases the submit lock taken with lockSubmit.
     */
    private void unlockSubmit() {
        submitLock.unlock();
        if (!Thread.currentThread().isVirtual())
            platformUsers.decrementAndGet();
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
                // what was taken, even if drain threw, is the reaper's to run
                completionsTaken();
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
     * completion with this user_data, and unparks its owner, or queues the
     * slot if it has an action.
     */
    private void complete(Slot slot, long userData, int res) {
        if (slot.userData != userData || slot.done)
            return;     // not in flight: cannot happen
        if (slot.action != null) {
            slot.result = res;
            slot.done = true;
            pending.decrementAndGet();
            finished.add(slot);
            return;
        }
        Thread thread = slot.thread;
        slot.result = res;
        slot.done = true;
        if (thread != Thread.currentThread())
            LockSupport.unpark(thread);
    }

    /**
     * Called by a thread other than the reaper once it has taken completions
     * and released the ring's locks: the actions of the slots it queued run
     * on the reaper, not in another caller's read, so the reaper is woken if
     * some are queued.
     */
    private void completionsTaken() {
        if (!finished.isEmpty())
            wakeReaper();
    }

    /**
     * Frees the slots that complete queued, and runs their actions. Called by
     * the reaper, with none of the ring's locks held. The slots are freed a
     * batch at a time, under one hold of the submit lock. An action only
     * hands off, and what it throws is not the ring's to handle.
     */
    private void runCompletions() {
        if (finished.isEmpty())
            return;
        Completion[] actions = new Completion[REAP_BATCH];
        int[] results = new int[REAP_BATCH];
        int[] indexes = new int[REAP_BATCH];
        for (;;) {
            int n = 0;
            Slot slot;
            while (n < REAP_BATCH && (slot = finished.poll()) != null) {
                actions[n] = slot.action;
                results[n] = slot.result;
                indexes[n] = slot.index;
                slot.action = null;
                n++;
            }
            if (n == 0)
                return;
            lockSubmit();
            try {
                for (int i = 0; i < n; i++) {
                    free[freeCount++] = indexes[i];
                }
                freeSlots.release(n);
            } finally {
                unlockSubmit();
            }
            // operations queued for want of a slot
            if (!requests.isEmpty())
                wakeReaper();
            for (int i = 0; i < n; i++) {
                try {
                    actions[i].completed(results[i]);
                } catch (Throwable e) {
                    // the action's own failure: the ring goes on
                }
                actions[i] = null;
            }
        }
    }

    /**
     * The reaper: submits the operations queued by submit; while some
     * submitter is parked or such an operation is in flight, waits in the
     * kernel for completions and takes them; otherwise parks until a
     * submitter needs it. A failure, or anything thrown, kills the ring; it
     * never leaves a submitter waiting.
     */
    private void reaperLoop() {
        int busy = 0;   // turns in a row that found the reap lock held
        try {
            for (;;) {
                // what other threads took, and this one is to run
                runCompletions();
                int queued = requests.isEmpty() ? 0 : submitQueued();
                if (queued < 0) {
                    die("io_uring_enter: " + errorString0(-queued));
                    return;
                }
                boolean full = queued > 0;
                if (waiters.get() == 0 && pending.get() == 0 && finished.isEmpty()) {
                    if (full) {
                        // the slots are all being freed by their submitters,
                        // which wake this thread if it is idle then
                        Thread.yield();
                        continue;
                    }
                    reaperIdle = true;
                    if (waiters.get() == 0 && pending.get() == 0 && requests.isEmpty()
                            && finished.isEmpty())
                        LockSupport.park(this);
                    reaperIdle = false;
                    continue;
                }
                // a thread that queues an operation or frees a slot from now
                // on wakes this one with a NOP; one that did so before is
                // seen here
                reaperInKernel.set(true);
                boolean wait = finished.isEmpty() && (full ? !slotFree() : requests.isEmpty());
                int res = wait ? wait0(address) : 0;
                reaperInKernel.set(false);
                if (res < 0) {
                    die("io_uring_enter (waiting for completions): " + errorString0(-res));
                    return;
                }
                if (!reapLock.tryLock()) {
                    // a submitter is taking completions: leave them to it
                    // rather than queue for the lock, which would make its
                    // unlock wake this thread; but only for a few turns, as
                    // a submitter may hold the lock across a submission that
                    // blocks in the kernel (a full device queue)
                    if (++busy < REAPER_YIELDS) {
                        Thread.yield();
                        continue;
                    }
                    reapLock.lock();
                }
                busy = 0;
                try {
                    drain();
                } finally {
                    reapLock.unlock();
                }
                runCompletions();
            }
        } catch (Throwable e) {
            die("reaper: " + e);
        }
    }

    /**
     * Kills the ring: no new operation is submitted. Called by a submitter
     * whose submission failed, the reaper goes on handing out the completions
     * of the operations in flight (and kills the ring itself if it cannot),
     * and ends the queued operations with FALLBACK. Called by the reaper, the queued operations end with
     * FALLBACK, the kernel is asked to cancel what it still has (an operation
     * it cancels ends with FALLBACK too), and every completion is waited for,
     * however long it takes, as pread/pwrite would wait: no operation
     * returns, and no memory it names is reused, before its completion has
     * arrived. Before Linux 6.0, which cannot cancel synchronously, or for a
     * request that cannot be cancelled, that is a poll of the CQ ring; after
     * 10 seconds, the operations still in the kernel are reported
     * (jdk.nio.file.ioUring.debug).
     */
    private void die(String reason) {
        dead = true;
        synchronized (this) {
            if (deathReason == null) {
                deathReason = reason;
                report(name + " failed (" + reason + "), using pread/pwrite");
            }
        }
        // no submission is in progress after this, and none follows
        submitLock.lock();
        try {
            // a submitter waiting for a slot finds the ring dead (once)
            if (!permitsReleased) {
                permitsReleased = true;
                freeSlots.release(DEAD_PERMITS);
            }
        } finally {
            submitLock.unlock();
        }
        if (Thread.currentThread() != reaper)
            return;

        // an operation queued before the submitter could see the ring dead
        // is this thread's to end: the submitter left it to the reaper
        refuseQueued();
        if (!TEST_NO_SYNC_CANCEL)
            cancelAll0(address);
        long start = System.nanoTime();
        boolean reported = false;
        for (long pause = 1; ; pause = Math.min(2 * pause, 64)) {
            reapLock.lock();
            try {
                try {
                    drain();
                } catch (Throwable e) {
                    // what it took was handed out; go on
                }
                int left = inFlight();
                if (left == 0)
                    return;
                if (!reported && System.nanoTime() - start > STUCK_REPORT_NANOS) {
                    reported = true;
                    report(name + ": " + left + " operation(s) still in the"
                                         + " kernel after 10 s; their threads wait for them");
                }
            } finally {
                reapLock.unlock();
                runCompletions();
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                // keep polling
            }
        }
    }

    /**
     * Returns the number of slots that wait for a completion. The caller
     * holds the reap lock.
     */
    private int inFlight() {
        int n = 0;
        for (Slot slot : slots) {
            if ((slot.thread != null || slot.action != null) && !slot.done)
                n++;
        }
        return n;
    }

    // Whether a file descriptor is a regular file or a block device, the
    // files io_uring reads and writes at a position as pread/pwrite do, kept
    // per file descriptor number so that a ring operation needs no fstat. An
    // entry answers for the FileDescriptor object it was made for while that
    // object keeps the number: until it is closed, it refers to one open
    // file. Entries are immutable and the array is read and written without
    // synchronization: a lost update only costs another fstat.
    private record FileKind(WeakReference<FileDescriptor> fdo, int fd, boolean fileOrBlockDevice) { }
    private static final int KIND_SLOTS = 256;
    private static final FileKind[] KINDS = new FileKind[KIND_SLOTS];

    /**
     * Returns true if fd is a regular file or a block device, false if it is
     * anything else or fstat fails.
     */
    static boolean isFileOrBlockDevice(FileDescriptor fdo) {
        int fd = FD_ACCESS.get(fdo);
        int slot = fd & (KIND_SLOTS - 1);
        FileKind kind = KINDS[slot];
        if (kind != null && kind.fd() == fd && kind.fdo().get() == fdo)
            return kind.fileOrBlockDevice();
        boolean result = isFileOrBlockDevice0(fd);
        KINDS[slot] = new FileKind(new WeakReference<>(fdo), fd, result);
        return result;
    }

    // the shared rings, once set up (read without setting them up)
    private static volatile IoUring[] created;

    /**
     * Returns the shared ring for the current thread, setting the rings up at
     * the first call, or null if io_uring is not available or the ring has
     * failed.
     */
    static IoUring ring() {
        return Shared.ring();
    }

    /**
     * Prints what happened to a ring (it failed, it still waits for the
     * kernel), if asked to (jdk.nio.file.ioUring.debug).
     */
    static void report(String message) {
        if (DEBUG)
            System.err.println("jdk.nio.file.ioUring: " + message);
    }

    /**
     * Returns what the shared rings are, or why there are none, setting them
     * up at the first call.
     */
    static String status() {
        return Shared.STATUS;
    }

    /**
     * Returns true if the given thread is parked on a ring for an operation
     * on the given file descriptor that the kernel has completed with a count
     * (not an error, nor a cancellation, after which the thread reads or
     * writes again with pread/pwrite): the thread no longer uses the
     * descriptor, and only waits to be scheduled. The thread's blocker names
     * the slot while it is parked for it; the slot is then read as a whole
     * (Slot.completedFor), so that a slot that has meanwhile been freed and
     * taken for another operation is not mistaken for the thread's.
     */
    static boolean completedFor(FileDescriptor fdo, Thread thread) {
        return LockSupport.getBlocker(thread) instanceof Slot slot
                && slot.completedFor(FD_ACCESS.get(fdo), thread);
    }

    /**
     * Returns the number of threads parked on the shared rings, waiting for a
     * completion. Does not set up the rings.
     */
    static int parked() {
        IoUring[] rings = created;
        int n = 0;
        if (rings != null) {
            for (IoUring ring : rings)
                n += ring.waiters();
        }
        return n;
    }

    /**
     * The rings shared by FileDispatcherImpl's operations, created and probed
     * at first use.
     */
    private static class Shared {
        // in-flight operations per ring
        private static final int DEPTH;

        private static final IoUring[] RINGS;
        static final String STATUS;

        // the number of live threads each ring was given to
        private static final AtomicIntegerArray USERS;

        // the ring of each carrier (and platform thread), given at its first
        // use: the ring that the fewest live threads have. Nothing here may
        // block: a virtual thread that blocked would unmount from the carrier
        // whose value is being initialized.
        private static final TerminatingThreadLocal<IoUring> RING = new TerminatingThreadLocal<>() {
            @Override
            protected IoUring initialValue() {
                for (;;) {
                    int best = 0;
                    int min = USERS.get(0);
                    for (int i = 1; i < USERS.length(); i++) {
                        int n = USERS.get(i);
                        if (n < min) {
                            best = i;
                            min = n;
                        }
                    }
                    // two carriers that start together must not take the same ring
                    if (USERS.compareAndSet(best, min, min + 1))
                        return RINGS[best];
                }
            }
            @Override
            protected void threadTerminated(IoUring ring) {
                for (int i = 0; i < RINGS.length; i++) {
                    if (RINGS[i] == ring)
                        USERS.decrementAndGet(i);
                }
            }
        };

        static {
            // a ring per carrier of the default scheduler (one per CPU), so
            // that carriers do not take turns at submitting; at most 8, each
            // ring having its reaper thread and its locked memory
            int count = intProperty("jdk.nio.file.ioUring.rings",
                    Math.min(Runtime.getRuntime().availableProcessors(), 8), 64);
            // test-only: a shallow ring makes submitters wait for free slots,
            // and queued operations stay queued until one is freed
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
                        rings[created] = create(DEPTH, "IoUring-Reaper-" + created);
                        created++;
                    }
                } catch (IOException | OutOfMemoryError e) {
                    reason = e.getMessage();
                }
            }
            // test-only: "submit:<n>", "wait:<n>" or "busy:<n>", the n-th
            // submission or reaper wait from now fails, or the n-th
            // submission is not taken (BUSY)
            String fault = System.getProperty("jdk.nio.file.ioUring.testFault", "");
            int colon = fault.indexOf(':');
            if (colon > 0 && created > 0) {
                try {
                    int n = Integer.parseInt(fault.substring(colon + 1));
                    setTestFault0(fault.startsWith("submit") ? 0
                                  : fault.startsWith("wait") ? 1 : 2, n);
                } catch (NumberFormatException e) {
                    // not a fault to inject
                }
            }
            if (created == 0) {
                RINGS = null;
                USERS = null;
                STATUS = "io_uring unavailable (" + reason + "), using pread/pwrite";
            } else {
                if (created < count) {
                    IoUring[] a = new IoUring[created];
                    System.arraycopy(rings, 0, a, 0, created);
                    rings = a;
                }
                RINGS = rings;
                USERS = new AtomicIntegerArray(rings.length);
                IoUring.created = rings;
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
         * available or the ring has failed. A virtual thread takes its
         * carrier's ring: the kernel serializes the submissions to one ring
         * (and does a read of cached data inside the submission), so carriers
         * that share no ring submit in parallel. Each carrier is given the
         * ring that the fewest live threads have (an index in the scheduler's
         * pool would not do: a worker's index is random, and two carriers may
         * fall on the same ring).
         */
        static IoUring ring() {
            IoUring[] rings = RINGS;
            if (rings == null)
                return null;
            IoUring ring = (rings.length == 1) ? rings[0] : RING.get();
            return ring.isDead() ? null : ring;
        }
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

    private static native int nop0(long address);

    private static native int drain0(long address, long bufAddress, int max);

    private static native int submitDrain0(long address, boolean write, int fd,
                                           long bufAddress, int len, long position,
                                           long userData, long outAddress, int max);

    private static native int cancelAll0(long address);

    private static native void destroy0(long address);

    /**
     * Test-only: the n-th submission from now fails as if io_uring_enter were
     * denied after the SQE was queued (kind 0), the n-th wait of a reaper for
     * completions fails with EBADR (kind 1), or the kernel takes nothing of
     * the n-th submission (kind 2, BUSY).
     */
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

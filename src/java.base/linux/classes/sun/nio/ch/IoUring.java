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
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import jdk.internal.misc.InnocuousThread;
import jdk.internal.misc.TerminatingThreadLocal;
import jdk.internal.access.JavaIOFileDescriptorAccess;
import jdk.internal.access.SharedSecrets;
import jdk.internal.misc.Unsafe;

/**
 * A shared io_uring instance for positional file reads and writes.
 *
 * <p> One thread, the ring's reaper, submits every operation and takes every
 * completion, as fio's thread does: a thread queues its operation, wakes the
 * reaper if it waits in the kernel, and parks until the reaper has stored the
 * result and unparked it. The reaper submits what is queued in one system
 * call that also waits for completions when there is nothing else to do, so
 * that under load many operations are submitted and reaped per call. A
 * buffered read that misses the page cache is finished by task work in the
 * thread that submitted it, the reaper, and no other thread is woken or
 * interrupted for it. While it waits in the kernel, a thread
 * that queues an operation wakes it by writing to an eventfd that the ring
 * reads.
 *
 * <p> Once submitted, an operation is waited for until its completion has
 * arrived, whatever happens to the thread meanwhile, so that the buffer and
 * the file descriptor stay valid for as long as the kernel may use them. An
 * interrupt does not cancel it: a read or write of a regular file is not
 * interruptible with pread/pwrite either. Operations beyond the ring's depth
 * stay queued until slots are free.
 *
 * <p> A ring that fails (a submission the kernel refuses, a wait for
 * completions that fails, a reaper that dies) is dead: it takes no new
 * operation, the queued ones end with {@link #FALLBACK}, so that their
 * callers do them with pread/pwrite instead, and the kernel is asked to
 * cancel what it still has (an operation it cancels ends with FALLBACK too);
 * any other still ends with its completion. An operation the kernel does not
 * take for want of memory or of CQ ring space (EAGAIN, EBUSY) ends with
 * FALLBACK, and the ring goes on.
 *
 * <p> An operation submitted with {@link #submit} has no thread waiting for
 * it: its completion runs an action on the reaper, which only hands the
 * result to another thread.
 */
final class IoUring {
    private static final Unsafe UNSAFE = Unsafe.getUnsafe();
    private static final JavaIOFileDescriptorAccess FD_ACCESS =
            SharedSecrets.getJavaIOFileDescriptorAccess();

    // returned by execute when the operation was not done: use pread/pwrite
    static final int FALLBACK = Integer.MIN_VALUE;

    // number of completions taken from the CQ ring at a time
    private static final int REAP_BATCH = 64;

    // how long a dead ring's reaper waits for the completions of operations
    // the kernel could not cancel before it reports them (with debug)
    private static final long STUCK_REPORT_NANOS = 10_000_000_000L;

    // test-only: a dying ring does not cancel synchronously, as before Linux 6.0
    private static final boolean TEST_NO_SYNC_CANCEL =
            Boolean.getBoolean("jdk.internal.nio.ioUring.testNoSyncCancel");

    private static final boolean DEBUG = Boolean.getBoolean("jdk.nio.file.ioUring.debug");

    /**
     * A read or write, from its queueing until its completion. It either has
     * a thread, parked with the operation as its blocker until {@code done},
     * or an action that its completion runs. Never reused.
     */
    private static final class Operation {
        final boolean write;
        final int fd;
        final long address;
        final int len;
        final long position;
        final Thread thread;
        final Completion action;
        int result;                // written before done
        volatile boolean done;

        Operation(boolean write, int fd, long address, int len, long position,
                  Thread thread, Completion action) {
            this.write = write;
            this.fd = fd;
            this.address = address;
            this.len = len;
            this.position = position;
            this.thread = thread;
            this.action = action;
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
         * Called once, by the reaper or, if the ring died before the
         * operation was submitted, by a thread that found it dead. It must
         * only hand the result off to another thread: it must not block,
         * and it must not run the application's code.
         */
        void completed(int result);
    }

    private final long address;
    private final String name;
    private final int depth;
    private final boolean curPos;  // reads at offset -1 use the file position

    // operations queued for the reaper
    private final ConcurrentLinkedQueue<Operation> queue = new ConcurrentLinkedQueue<>();
    // true while the reaper waits in the kernel and no thread has woken it
    private final AtomicBoolean reaperWaiting = new AtomicBoolean();

    // the reaper's: operations in flight by slot (the index is the SQE's
    // user_data), the stack of free slots, and the buffer that completions
    // are copied to, (user_data, result) pairs after one for the error
    private final Operation[] inFlight;
    private final int[] free;
    private int freeCount;
    private final long reapBuffer;
    private final int reapCapacity;

    // threads parked until their operation completes
    private final AtomicInteger waiters = new AtomicInteger();
    // operations submitted with submit whose action has not run
    private final AtomicInteger pending = new AtomicInteger();

    private volatile boolean dead;
    private String deathReason;    // guarded by this

    private IoUring(long address, int depth, String name) {
        this.address = address;
        this.name = name;
        this.curPos = curPos0(address);
        this.depth = depth;
        this.inFlight = new Operation[depth];
        this.free = new int[depth];
        for (int i = 0; i < depth; i++)
            free[i] = depth - 1 - i;
        this.freeCount = depth;
        // refused SQEs (at most the SQ ring's size) and a batch of CQEs
        this.reapCapacity = sqEntries(depth) + REAP_BATCH;
        this.reapBuffer = UNSAFE.allocateMemory((reapCapacity + 1) * 16L);
    }

    private static int sqEntries(int depth) {
        return Math.min(depth, 256);
    }

    /**
     * Creates a ring with room for {@code depth} operations in flight, checks
     * that it supports what is needed, and starts its reaper thread.
     * @throws IOException with the reason if io_uring cannot be used
     */
    static IoUring create(int depth, String name) throws IOException {
        long address = create0(sqEntries(depth), depth * 2);
        probe0(address);
        IoUring ring = null;
        try {
            ring = new IoUring(address, depth, name);
            Thread reaper = InnocuousThread.newSystemThread(name, ring::reaperLoop);
            reaper.setDaemon(true);
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
     * Returns the number of threads parked until their operation completes.
     */
    int waiters() {
        return waiters.get();
    }

    /**
     * Returns the number of operations submitted with submit whose
     * completion has not run.
     */
    int pending() {
        return pending.get();
    }

    /**
     * Reads or writes through this ring and waits for the completion.
     * Returns the CQE's result, bytes transferred or -errno, or FALLBACK if
     * the operation was not done. Does not return before the completion has
     * arrived; the interrupt status is kept.
     */
    int execute(boolean write, int fd, long bufAddress, int len, long position) {
        Operation op = new Operation(write, fd, bufAddress, len, position,
                                     Thread.currentThread(), null);
        enqueue(op);
        boolean interrupted = false;
        Throwable failure = null;
        waiters.incrementAndGet();
        while (!op.done) {
            try {
                // the operation as blocker: see completedFor
                LockSupport.park(op);
                if (Thread.interrupted())
                    interrupted = true;
            } catch (Throwable e) {
                if (failure == null)
                    failure = e;
            }
        }
        waiters.decrementAndGet();
        if (interrupted)
            Thread.currentThread().interrupt();
        throwIfUnchecked(failure);
        return op.result;
    }

    /**
     * Submits a read or write and returns without waiting for it: its
     * completion runs the given action, with the result or FALLBACK. The
     * buffer must stay valid until the action has run. If this method
     * throws, the operation was not queued.
     */
    void submit(boolean write, int fd, long bufAddress, int len, long position,
                Completion action) {
        Operation op = new Operation(write, fd, bufAddress, len, position, null, action);
        pending.incrementAndGet();
        enqueue(op);
    }

    /**
     * Queues an operation for the reaper and wakes it. If the ring is dead,
     * the reaper may have ended the queued operations already: they are
     * ended here.
     */
    private void enqueue(Operation op) {
        queue.add(op);
        if (reaperWaiting.get() && reaperWaiting.compareAndSet(true, false))
            wake0(address);
        if (dead)
            refuseQueued();
    }

    /**
     * Ends each queued operation with FALLBACK: the ring is dead, and the
     * kernel has not taken them.
     */
    private void refuseQueued() {
        Operation op;
        while ((op = queue.poll()) != null) {
            try {
                complete(op, FALLBACK);
            } catch (Throwable e) {
                // an action's own failure, or no unpark: go on
            }
        }
    }

    /**
     * Stores the result of an operation and unparks its thread, or runs its
     * action.
     */
    private void complete(Operation op, int res) {
        if (op.action != null) {
            pending.decrementAndGet();
            op.action.completed(res);
        } else {
            op.result = res;
            op.done = true;
            LockSupport.unpark(op.thread);
        }
    }

    /**
     * The reaper: in turns, gives the kernel the
     * queued operations while slots are free, in the system call that takes
     * the completions, waiting for one if there is nothing else to do, and
     * hands the completions out. A failure, or anything thrown, kills the
     * ring; it never leaves a thread waiting.
     */
    private void reaperLoop() {
        try {
            for (;;) {
                boolean room = prepareQueued();
                // wait unless more can be submitted now; a thread that queues
                // an operation from now on wakes this one
                boolean wait = !room || queue.isEmpty();
                if (wait) {
                    reaperWaiting.set(true);
                    if (room && !queue.isEmpty()) {
                        reaperWaiting.set(false);
                        wait = false;
                    }
                }
                int n = enter0(address, wait, true, reapBuffer, reapCapacity);
                if (wait)
                    reaperWaiting.set(false);
                handOut(n);
                int error = (int) UNSAFE.getLong(reapBuffer);
                if (error != 0) {
                    die("io_uring_enter: " + errorString0(error));
                    return;
                }
            }
        } catch (Throwable e) {
            die("reaper: " + e);
        }
    }

    /**
     * Writes an SQE for each queued operation while a slot is free and the
     * SQ ring has room. Returns false if a queued operation was left for
     * want of a slot or of SQ ring space.
     */
    private boolean prepareQueued() {
        Operation op;
        while ((op = queue.peek()) != null) {
            if (freeCount == 0)
                return false;
            int slot = free[freeCount - 1];
            if (!prep0(address, op.write, op.fd, op.address, op.len, op.position, slot))
                return false;
            queue.poll();
            freeCount--;
            inFlight[slot] = op;
        }
        return true;
    }

    /**
     * Hands each of the n results that enter0 copied to the reap buffer to
     * its operation, and frees its slot. They have left the ring, so each is
     * handed out even if another's throws; the first such throwable is
     * rethrown then.
     */
    private void handOut(int n) {
        Throwable failure = null;
        for (int i = 1; i <= n; i++) {
            int slot = (int) UNSAFE.getLong(reapBuffer + i * 16L);
            int res = (int) UNSAFE.getLong(reapBuffer + i * 16L + 8);
            Operation op = inFlight[slot];
            inFlight[slot] = null;
            free[freeCount++] = slot;
            try {
                complete(op, res);
            } catch (Throwable e) {
                if (failure == null)
                    failure = e;
            }
        }
        throwIfUnchecked(failure);
    }

    /**
     * Throws the given throwable if it is an Error or a RuntimeException;
     * nothing that is called where it was caught throws a checked exception.
     */
    private static void throwIfUnchecked(Throwable failure) {
        if (failure instanceof Error e)
            throw e;
        if (failure instanceof RuntimeException e)
            throw e;
    }

    /**
     * Kills the ring, on the reaper: no new operation is submitted, the
     * queued ones end with FALLBACK, the kernel is asked to cancel what it
     * still has (an operation it cancels ends with FALLBACK too), and every
     * completion is waited for, however long it takes, as pread/pwrite would
     * wait: no operation returns, and no memory it names is reused, before
     * its completion has arrived. Before Linux 6.0, which cannot cancel
     * synchronously, or for a request that cannot be cancelled, that is a
     * poll of the ring; after 10 seconds, the operations still in the kernel
     * are reported (jdk.nio.file.ioUring.debug).
     */
    private void die(String reason) {
        dead = true;
        synchronized (this) {
            if (deathReason == null) {
                deathReason = reason;
                report(name + " failed (" + reason + "), using pread/pwrite");
            }
        }
        // a thread that queues an operation from now on ends it itself
        refuseQueued();
        if (!TEST_NO_SYNC_CANCEL)
            cancelAll0(address);
        long start = System.nanoTime();
        boolean reported = false;
        for (long pause = 1; ; pause = Math.min(2 * pause, 64)) {
            try {
                handOut(enter0(address, false, false, reapBuffer, reapCapacity));
            } catch (Throwable e) {
                // what was taken was handed out; go on
            }
            int left = depth - freeCount;
            if (left == 0)
                return;
            if (!reported && System.nanoTime() - start > STUCK_REPORT_NANOS) {
                reported = true;
                report(name + ": " + left + " operation(s) still in the"
                                     + " kernel after 10 s; their threads wait for them");
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                // keep polling
            }
        }
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
     * descriptor, and only waits to be scheduled. The thread's blocker is
     * the operation while it is parked for it; an operation is never reused.
     */
    static boolean completedFor(FileDescriptor fdo, Thread thread) {
        return LockSupport.getBlocker(thread) instanceof Operation op
                && op.done && op.thread == thread && op.fd == FD_ACCESS.get(fdo)
                && op.result >= 0;
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
            // that the reapers share the kernel's work of submitting and
            // completing; at most 8, each ring having its reaper thread and
            // its locked memory
            int count = intProperty("jdk.internal.nio.ioUring.rings",
                    Math.min(Runtime.getRuntime().availableProcessors(), 8), 64);
            // test-only: a shallow ring makes submitters wait for free slots,
            // and queued operations stay queued until one is freed
            DEPTH = intProperty("jdk.internal.nio.ioUring.depth", 4096, 4096);
            String fail = System.getProperty("jdk.internal.nio.ioUring.testUnavailable");
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
            // test-only: "submit:<n>", "wait:<n>" or "busy:<n>": the submission
            // of the n-th operation or the n-th reaper wait from now fails, or
            // the kernel takes nothing of the submission of the n-th operation
            String fault = System.getProperty("jdk.internal.nio.ioUring.testFault", "");
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
         * carrier's ring, so that the carriers' operations spread over the
         * reapers, which do the kernel's work of submitting and completing
         * them. Each carrier is given the
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

    /**
     * Creates a ring and its eventfd.
     */
    private static native long create0(int sqEntries, int cqEntries) throws IOException;

    /**
     * Frees a ring that create0 made and probe0 accepted, to which nothing
     * was submitted.
     */
    private static native void destroy0(long address);

    /**
     * Checks that the ring can be used; if it throws, the ring is destroyed.
     */
    private static native void probe0(long address) throws IOException;

    private static native boolean curPos0(long address);

    /**
     * Writes an SQE for a read or write with the given user_data. Returns
     * false if the SQ ring is full.
     */
    private static native boolean prep0(long address, boolean write, int fd, long bufAddress,
                                        int len, long position, int userData);

    /**
     * Submits the SQEs written since the last call, runs the ring's task work,
     * waits for a completion if asked to, and copies up to cap - 1 results as
     * (user_data, result) pairs of longs after the first pair, whose first
     * long is 0 or the errno of a failure that kills the ring. An SQE the
     * kernel did not take is made a NOP and its result is FALLBACK, as is a
     * cancelled operation's. With arm, the eventfd read that wakes the
     * reaper is submitted again once it has completed. Returns the number of
     * pairs.
     */
    private static native int enter0(long address, boolean wait, boolean arm,
                                     long bufAddress, int cap);

    /**
     * Wakes the ring's reaper waiting in enter0 (writes to its eventfd).
     */
    private static native void wake0(long address);

    private static native int cancelAll0(long address);

    /**
     * Test-only: the submission of the n-th operation from now fails as if
     * io_uring_enter were denied (kind 0), the n-th wait of a reaper for
     * completions fails with EBADR (kind 1), or the kernel takes nothing of
     * the submission of the n-th operation (kind 2).
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

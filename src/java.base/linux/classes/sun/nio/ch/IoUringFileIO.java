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
import java.util.Arrays;
import java.util.Iterator;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import jdk.internal.access.JavaIOFileDescriptorAccess;
import jdk.internal.access.JavaLangAccess;
import jdk.internal.access.SharedSecrets;
import jdk.internal.misc.Blocker;
import jdk.internal.misc.InnocuousThread;
import jdk.internal.misc.TerminatingThreadLocal;
import jdk.internal.misc.Unsafe;
import jdk.internal.vm.ThreadContainer;
import jdk.internal.vm.ThreadContainers;
import jdk.internal.vm.annotation.DontInline;

/**
 * Positional file reads and writes for the Linux FileDispatcherImpl, through
 * io_uring where that helps.
 *
 * <p> The system property {@code jdk.nio.file.ioUring}, read once, selects the
 * policy:
 * <ul>
 * <li> {@code auto} (default): platform threads and writes use pread/pwrite,
 *   as upstream. So does a virtual thread reading while no other virtual
 *   thread would want its carrier, or while few would: blocking it in pread
 *   is faster than parking, whose completion takes longer to reach the
 *   reader than a blocked pread takes to return. When many want one (more
 *   than 8 times the scheduler's parallelism, or 32 if that is more, have
 *   lately been parked on the rings at once, or wait for carriers), the
 *   virtual thread tries preadv2(RWF_NOWAIT), and only the part that would
 *   block is submitted to io_uring, while the virtual thread parks,
 *   releasing its carrier, until the completion arrives. Once a file's data
 *   has been found in the page cache by many probes in a row, its reads use
 *   plain pread, and the first in each tick of 20 ms is timed: a slow one
 *   ends the streak. An
 *   O_DIRECT read by a virtual thread blocks its carrier with compensation,
 *   as upstream, while no more than 8 times the scheduler's parallelism, or
 *   32 if that is more, such reads have lately been in progress at once.
 *   While more have, it does so while no more than 5/2 of the parallelism
 *   block, and goes to io_uring beyond, so that the scheduler keeps at most
 *   three times its parallelism in carriers. </li>
 * <li> {@code always}: every positional read and write goes through io_uring. </li>
 * <li> {@code never}: pread/pwrite, as upstream. </li>
 * </ul>
 * io_uring is probed at first use; if it cannot be used (not built, ENOSYS,
 * EPERM from seccomp or kernel.io_uring_disabled, ENOMEM, ...) every operation
 * uses pread/pwrite for the life of the VM, and so does every operation of a
 * ring that fails later. With {@code -Djdk.nio.file.ioUring.debug=true} the
 * mode, the probe result and a ring's failure are printed once to System.err.
 * The test-only properties {@code jdk.nio.file.ioUring.testUnavailable=<reason>},
 * {@code jdk.nio.file.ioUring.depth=<n>} and
 * {@code jdk.nio.file.ioUring.testFault=submit:<n>|wait:<n>} make the probe
 * fail, limit the operations in flight per ring, and make the n-th submission
 * or reaper wait fail.
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
    // pread), the count of consecutive RWF_NOWAIT probes or timed reads that
    // found the data in the page cache. At STREAK the count is replaced by
    // the streak clock's tick, greater than STREAK: while it is the current
    // tick, reads use plain pread without the policy's checks; the first read
    // after the clock has moved on is timed, and either puts the new tick in
    // its place or, if slow, sets the count back to 0. A probe that would
    // block sets it back to 0 too, and NO_NOWAIT marks a file whose file
    // system does not support RWF_NOWAIT.
    // The array is read and written without synchronization: a lost update
    // only changes which of two correct paths a read takes.
    private static final int HINT_SLOTS = 256;
    private static final int STREAK = 16;
    private static final int NO_NOWAIT = -1;
    private static final int PROBE_MASK = 31;
    private static final int[] HINTS = new int[HINT_SLOTS];

    // The streak clock: a daemon thread that advances the tick every
    // TICK_MILLIS while files are read at their streak, so that each such
    // file has one read timed a tick, at no cost to the others. It is started
    // when a file reaches or keeps its streak and the clock is not running,
    // and ends after IDLE_TICKS ticks in which that did not happen, advancing
    // the tick once more so that no file keeps a streak that nothing checks.
    private static final long TICK_MILLIS = 20;
    private static final int IDLE_TICKS = 50;
    private static volatile int streakTick = STREAK + 1;
    private static volatile boolean ticked;   // a file took the tick since the clock's last look
    private static final AtomicBoolean CLOCK_RUNNING = new AtomicBoolean();

    // The one read in PROBE_MASK + 1 that takes the policy's checks although
    // few virtual threads are alive, or that probes a file whose file system
    // does not support RWF_NOWAIT, is chosen by a count kept per carrier
    // (indexed by the carrier's id, a cache line apart), which steps by an
    // odd number near 2^32 divided by the golden ratio: the reads of any
    // short repeating pattern, such as two files read in turn, are chosen
    // about equally often. Unlike ThreadLocalRandom it has no state that a
    // new virtual thread sets up at its first read, a branch that compiled
    // code may not have seen (an uncommon trap). Slot 0 is left unused, so
    // that no count shares a cache line with the array's header. Read and
    // written without synchronization: a lost update only changes which read
    // is chosen.
    private static final int SAMPLE_SLOTS = 64;
    private static final int SAMPLE_STRIDE = 16;
    private static final int SAMPLE_STEP = 0x9E3779B9;
    private static final int SAMPLE_SHIFT = Integer.numberOfLeadingZeros(PROBE_MASK);
    private static final int[] SAMPLES = new int[(SAMPLE_SLOTS + 1) * SAMPLE_STRIDE];

    // Whether a file descriptor is a regular file or a block device, the
    // files io_uring reads and writes at a position as pread/pwrite do, kept
    // per file descriptor number so that a ring operation needs no fstat. An
    // entry answers for the FileDescriptor object it was made for while that
    // object keeps the number: until it is closed, it refers to one open
    // file. Entries are immutable and the array is read and written without
    // synchronization: a lost update only costs another fstat.
    private record FileKind(WeakReference<FileDescriptor> fdo, int fd, boolean fileOrBlockDevice) { }
    private static final FileKind[] KINDS = new FileKind[HINT_SLOTS];

    // the rings, once set up (read without setting them up)
    private static volatile IoUring[] createdRings;

    // A read that blocks its carrier without a probe counts as a hit when it
    // takes less than HIT_NANOS plus a nanosecond for every 4 bytes: much
    // less than a device read, more than a copy from the page cache
    private static final long HIT_NANOS = 10_000;

    // A read through a ring reaches its parked reader later than a blocked
    // pread returns (the kernel finishes it in the submitting carrier, then
    // the reaper and a carrier for the reader are woken), which only many
    // more reads in the device's queue than there are carriers pay for; how
    // many does not shrink with the parallelism. Few readers are at most
    // FEW_READERS times the parallelism, or FEW_READERS_MIN if that is more.
    // Peaks of readers are kept for the current period and the one before
    // (see Peak).
    private static final int FEW_READERS = 8;
    private static final int FEW_READERS_MIN = 32;
    private static final long PERIOD_NANOS = 500_000_000L;

    // A buffered read by a virtual thread that would block goes to a ring,
    // rather than block its carrier, only while more than few threads are
    // parked on the rings, or a task waits for its carrier while more than
    // few have been parked on the rings at once lately, or more than few
    // tasks wait for carriers. For the first EXPLORE_NANOS of each period, a
    // read goes to a ring whenever a task waits for its carrier, so that the
    // peak shows how many would park: blocked carriers keep the other
    // readers from reading at all. There is no spell while no more than few
    // virtual threads are alive, since no more than few could then park, nor
    // while no more than half of few distinct threads have read in the last
    // READER_SETS periods counted and no more than few virtual threads want
    // a carrier: many threads that are alive but idle would keep a few
    // readers in spells that find nothing. Half of few, over about a second:
    // blocked carriers hide the readers that wait for them on a lock or a
    // semaphore, so that under pread many show as a few at a time; the first
    // READER_SETS counts, before the sets cover that time, count as many.
    // Only threads that were alive at the last count are counted: a program
    // that starts a thread for each request has as many readers a second as
    // requests, but only those in progress at a count are counted in the
    // next period, so that a few requests at a time hold no spells that find
    // nothing.
    // Readers that wait to enter a monitor (a convoy on the channel's
    // NativeThreadSet) may not read at all, and are counted as blocked. All
    // are counted at most once a period (countedPeriod, manyThreads).
    private static final long EXPLORE_NANOS = 10_000_000L;
    private static final Peak RING_PEAK = new Peak(0);
    private static volatile long countedPeriod;
    private static volatile boolean manyThreads;

    // The end of the period whose count found no more than few virtual
    // threads alive, or a time that is no period's end (the start of the
    // period). Until that period ends, a read by a thread made before the
    // count blocks its carrier without the policy's checks: no more than few
    // threads can then want a carrier. One such read in PROBE_MASK + 1 takes
    // the checks, so that the first after the period's end begins the next
    // period and counts again. Threads made since the count take the checks,
    // so that a burst of new readers is seen at once; a read that finds that
    // parking pays sets the quiet period's end back (threads made before the
    // count may have been started since).
    private static volatile long quietPeriodEnd = RING_PEAK.periodStart();

    // The threads that read lately, each as one bit chosen by a hash of its
    // id, in a set per period counted; readers go to READERS[readerSet]. The
    // sets are read and written without synchronization: a lost bit or a
    // collision only makes a reader be counted later, or not at all.
    private static final int READER_SETS = 2;
    private static final int READER_BITS = 4096;
    private static final long[][] READERS = new long[READER_SETS][READER_BITS / 64];
    private static volatile int readerSet;
    private static int readerCounts;

    // A thread id greater than that of every thread alive at the last count
    // (thread ids grow with the threads' creation), 0 before the first
    // count; readers with a greater id are not counted. Taken at each count
    // from a virtual thread made then and never started, whose task is NO_TASK.
    private static volatile long countedThreads;
    private static final Runnable NO_TASK = () -> { };

    // the most threads looked at by one count of virtual threads
    private static final int COUNT_BUDGET = 4096;

    // O_DIRECT reads by virtual threads in auto mode: in progress, and
    // blocking their carrier
    private static final AtomicInteger DIRECT_READERS = new AtomicInteger();
    private static final AtomicInteger DIRECT_BLOCKED = new AtomicInteger();

    // While no more than few O_DIRECT reads by virtual threads have been in
    // progress at once, in this period and the one before, each is
    // compensated for. The peaks start high, so that a burst at start-up is
    // compensated for only up to the lower limit; at most few reads block
    // carriers in any case.
    private static final Peak DIRECT_PEAK = new Peak(Integer.MAX_VALUE);

    private static final boolean DEBUG = Boolean.getBoolean("jdk.nio.file.ioUring.debug");
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
        if (DEBUG) {
            String status = (mode == NEVER) ? "using pread/pwrite" : Rings.STATUS;
            System.err.println("jdk.nio.file.ioUring=" + MODE_NAME + ": " + status);
        }
    }

    /**
     * Called once by a ring that fails: prints why, if asked to.
     */
    static void ringDied(String name, String reason) {
        if (DEBUG)
            System.err.println("jdk.nio.file.ioUring: " + name + " failed (" + reason
                               + "), using pread/pwrite");
    }

    /**
     * Reads at the given position, as pread0.
     */
    static int pread(FileDescriptor fd, long address, int len, long position)
        throws IOException
    {
        if (MODE == AUTO) {
            if (Thread.currentThread().isVirtual()) {
                if (atStreak(fd))
                    return UnixFileDispatcherImpl.pread0(fd, address, len, position);
                return preadVirtual(fd, address, len, position);
            }
        } else if (MODE == ALWAYS) {
            return transfer(false, fd, address, len, position, false);
        }
        return UnixFileDispatcherImpl.pread0(fd, address, len, position);
    }

    /**
     * Reads at the file's current position, as read0, from a file not opened
     * for direct I/O. The caller holds the channel's position lock: io_uring
     * reads at the current position (IORING_FEAT_RW_CUR_POS) and leaves the
     * file offset where read(2) would leave it.
     */
    static int read(FileDescriptor fd, long address, int len) throws IOException {
        if (MODE == AUTO) {
            if (Thread.currentThread().isVirtual()) {
                if (atStreak(fd))
                    return UnixFileDispatcherImpl.read0(fd, address, len);
                return preadVirtual(fd, address, len, -1);
            }
        } else if (MODE == ALWAYS) {
            return transfer(false, fd, address, len, -1, false);
        }
        return UnixFileDispatcherImpl.read0(fd, address, len);
    }

    /**
     * Reads at the given position from a file opened for direct I/O, as
     * pread0. When preadDirectParks() was true, the caller did not compensate
     * for blocking, and this method takes care of the carrier.
     */
    static int preadDirect(FileDescriptor fd, long address, int len, long position)
        throws IOException
    {
        if (MODE == NEVER || !Thread.currentThread().isVirtual()) {
            if (MODE == ALWAYS)
                return transfer(false, fd, address, len, position, false);
            return UnixFileDispatcherImpl.pread0(fd, address, len, position);
        }
        if (MODE == AUTO) {
            int readers = DIRECT_READERS.incrementAndGet();
            try {
                ForkJoinPool pool = carrierPool();
                int limit = (pool != null) ? directLimit(readers, pool.getParallelism()) : 0;
                if (DIRECT_BLOCKED.incrementAndGet() <= limit) {
                    // compensate, as upstream does
                    try {
                        return blockingTransfer(false, fd, address, len, position);
                    } finally {
                        DIRECT_BLOCKED.decrementAndGet();
                    }
                }
                DIRECT_BLOCKED.decrementAndGet();
                return transfer(false, fd, address, len, position, true);
            } finally {
                DIRECT_READERS.decrementAndGet();
            }
        }
        return transfer(false, fd, address, len, position, true);
    }

    /**
     * Returns how many O_DIRECT reads by virtual threads may block their
     * carriers with compensation, given the number of such reads in progress,
     * this one included, and the scheduler's parallelism. While few have been
     * in progress at once lately, all of them: a read through a ring reaches
     * its parked reader later than a blocked pread returns (the completion
     * wakes the submitting carrier, then the reaper, then a carrier for the
     * reader), which a shallow device queue does not hide. While many have,
     * 5/2 of the parallelism: the scheduler starts a spare carrier only for a
     * carrier that blocks while no more than half its parallelism (its
     * default minimum of runnable carriers) runs, so it then keeps at most
     * three times its parallelism in carriers.
     */
    private static int directLimit(int readers, int parallelism) {
        int few = fewReaders(parallelism);
        return (DIRECT_PEAK.record(readers, System.nanoTime()) <= few) ? few : 5 * parallelism / 2;
    }

    /**
     * Returns true if preadDirect, called by the current thread, takes care
     * of the carrier itself when the current thread is virtual: it parks for
     * the device or compensates for blocking, so the caller must not
     * compensate.
     */
    static boolean preadDirectParks() {
        return MODE != NEVER && Thread.currentThread().isVirtual() && Rings.ring() != null;
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
            return transfer(true, fd, address, len, position, Thread.currentThread().isVirtual());
        return UnixFileDispatcherImpl.pwrite0(fd, address, len, position);
    }

    /**
     * Returns true if pwrite, called by the current thread, takes care of the
     * carrier itself when the current thread is virtual (the caller must not
     * compensate for an O_DIRECT or O_SYNC/O_DSYNC write).
     */
    static boolean pwriteParks() {
        return MODE == ALWAYS && Thread.currentThread().isVirtual() && Rings.ring() != null;
    }

    /**
     * Returns the number of threads parked waiting for a completion. Does not
     * set up the rings.
     */
    private static int ringsWaiting() {
        IoUring[] rings = createdRings;
        int n = 0;
        if (rings != null) {
            for (IoUring ring : rings)
                n += ring.waiters();
        }
        return n;
    }

    /**
     * Returns the pool of the current virtual thread's carrier, or null if it
     * is not a ForkJoinPool (a custom scheduler).
     */
    private static ForkJoinPool carrierPool() {
        return (JLA.currentCarrierThread() instanceof ForkJoinWorkerThread w) ? w.getPool() : null;
    }

    /**
     * The highest count of some readers seen at once in the current period
     * and in the one before. Updated without synchronization: a lost update
     * only moves a read between two correct paths.
     */
    private static final class Peak {
        private volatile int current;
        private volatile int last;
        private volatile long periodEnd = System.nanoTime();

        Peak(int initial) {
            current = initial;
            last = initial;
        }

        /**
         * Records a count of readers at the given time, and returns the
         * highest count of the current period and the one before.
         */
        int record(int count, long now) {
            int peak = current;
            if (now - periodEnd > 0) {
                periodEnd = now + PERIOD_NANOS;
                last = peak;
                peak = count;
                current = count;
            } else if (count > peak) {
                peak = count;
                current = count;
            }
            return Math.max(peak, last);
        }

        /**
         * Returns true if the current period began less than the given
         * number of nanoseconds before the given time.
         */
        boolean periodBegan(long now, long nanos) {
            return now - periodStart() < nanos;
        }

        /**
         * Returns the time the current period began.
         */
        long periodStart() {
            return periodEnd - PERIOD_NANOS;
        }

        /**
         * Returns the time the current period ends.
         */
        long periodEnd() {
            return periodEnd;
        }
    }

    /**
     * Returns how many readers are few for the given parallelism.
     */
    private static int fewReaders(int parallelism) {
        return Math.max(FEW_READERS * parallelism, FEW_READERS_MIN);
    }

    /**
     * Returns true if, at the first call in the current period of RING_PEAK,
     * which counts them, more than the given number of virtual threads were
     * alive, and more than half that number of distinct threads had read in
     * the last READER_SETS periods counted (see recordReader) or more than
     * that number of virtual threads wanted a carrier. Virtual threads are in
     * the root thread container or in one below it, walked as a thread dump
     * walks them, stopping once there are more or COUNT_BUDGET threads have
     * been looked at; when the root one does not track them
     * (jdk.trackAllThreads=false), they are assumed to be many. Two threads
     * that count at once both begin a reader set: readers are then counted
     * over a shorter time.
     */
    private static boolean manyVirtualThreads(int few) {
        long period = RING_PEAK.periodStart();
        if (countedPeriod != period) {
            countedPeriod = period;
            int readers = recentReaders();
            if (!ThreadContainers.trackAllThreads()) {
                manyThreads = true;
            } else {
                ThreadContainer root = ThreadContainers.root();
                boolean alive = countVirtualThreads(root, few + 1, false) > few;
                quietPeriodEnd = alive ? period : RING_PEAK.periodEnd();
                manyThreads = alive
                        && (readers > few / 2 || countVirtualThreads(root, few + 1, true) > few);
            }
        }
        return manyThreads;
    }

    /**
     * Records that the current thread reads, in the current reader set if it
     * was alive at the last count. Returns true if it was.
     */
    private static boolean recordReader() {
        long id = Thread.currentThread().threadId();
        if (id > countedThreads)
            return false;
        int bit = (int) ((id * 0x9E3779B97F4A7C15L)
                         >>> (64 - Integer.numberOfTrailingZeros(READER_BITS)));
        long[] set = READERS[readerSet];
        long word = set[bit >>> 6];
        if ((word & (1L << bit)) == 0)
            set[bit >>> 6] = word | (1L << bit);
        return true;
    }

    /**
     * Returns true if the last count, in the current period, found no more
     * than few virtual threads alive, and the current thread was made before
     * it (see quietPeriodEnd). Records the current thread as a reader.
     */
    private static boolean quietReader() {
        return quietPeriodEnd == RING_PEAK.periodEnd() && recordReader();
    }

    /**
     * Returns the number of distinct threads recorded in the reader sets, or
     * Integer.MAX_VALUE until the sets have been counted READER_SETS times
     * (until then, who reads is not known), and makes the oldest set,
     * emptied, the one that the readers alive now go to.
     */
    private static int recentReaders() {
        int n = 0;
        for (int i = 0; i < READER_BITS / 64; i++) {
            long word = 0;
            for (long[] set : READERS)
                word |= set[i];
            n += Long.bitCount(word);
        }
        int next = (readerSet + 1) % READER_SETS;
        Arrays.fill(READERS[next], 0L);
        readerSet = next;
        // a thread made now has a greater id than every thread made before
        countedThreads = Thread.ofVirtual().inheritInheritableThreadLocals(false)
                .unstarted(NO_TASK).threadId();
        if (readerCounts < READER_SETS) {
            readerCounts++;
            return Integer.MAX_VALUE;
        }
        return n;
    }

    /**
     * Returns the number of live virtual threads in the given container and
     * in those below it, or only of those that want a carrier (runnable: in
     * a read or waiting for a carrier, or blocked on a monitor), or the given
     * limit if that is less, looking at no more than COUNT_BUDGET threads.
     */
    private static long countVirtualThreads(ThreadContainer root, long limit, boolean wanting) {
        return countVirtualThreads(root, limit, wanting, new int[] { COUNT_BUDGET });
    }

    /**
     * countVirtualThreads, looking at no more than budget[0] threads and
     * taking those it looks at from it.
     */
    private static long countVirtualThreads(ThreadContainer container, long limit,
                                            boolean wanting, int[] budget) {
        long n = 0;
        Iterator<Thread> threads = container.threads().iterator();
        while (n < limit && budget[0] > 0 && threads.hasNext()) {
            Thread t = threads.next();
            budget[0]--;
            if (t.isVirtual()) {
                Thread.State state;
                if (!wanting || (state = t.getState()) == Thread.State.RUNNABLE
                        || state == Thread.State.BLOCKED)
                    n++;
            }
        }
        Iterator<ThreadContainer> children = container.children().iterator();
        while (n < limit && budget[0] > 0 && children.hasNext())
            n += countVirtualThreads(children.next(), limit - n, wanting, budget);
        return n;
    }

    /**
     * Returns true if parking the current virtual thread, rather than
     * blocking its carrier in a read, pays: more than few threads are parked
     * on the rings (their completions will want carriers), or a task waits
     * for the carrier while more than few have lately been parked on the
     * rings at once, or while the period has just begun and more than few
     * virtual threads are alive, enough of which read or want a carrier
     * (manyVirtualThreads), or more than few tasks wait for carriers. A
     * custom scheduler is assumed to have many such tasks. Records the
     * current thread as a reader. now is the value of System.nanoTime() at
     * the call.
     */
    private static boolean parkingPays(long now) {
        ForkJoinPool pool = carrierPool();
        if (pool == null)
            return true;
        recordReader();
        int few = fewReaders(pool.getParallelism());
        int parked = ringsWaiting();
        int peak = RING_PEAK.record(parked, now);
        if (parked > few)
            return true;
        if (peak > few || (RING_PEAK.periodBegan(now, EXPLORE_NANOS) && manyVirtualThreads(few)))
            return pool.hasQueuedSubmissions() || pool.getQueuedTaskCount() > 0;
        return pool.getQueuedTaskCount() + pool.getQueuedSubmissionCount() > few;
    }

    /**
     * Returns true if fd is a regular file or a block device, false if it is
     * anything else or fstat fails.
     */
    private static boolean isFileOrBlockDevice(FileDescriptor fdo) {
        int fd = FD_ACCESS.get(fdo);
        int slot = fd & (HINT_SLOTS - 1);
        FileKind kind = KINDS[slot];
        if (kind != null && kind.fd() == fd && kind.fdo().get() == fdo)
            return kind.fileOrBlockDevice();
        boolean result = IoUring.isFileOrBlockDevice0(fd);
        KINDS[slot] = new FileKind(new WeakReference<>(fdo), fd, result);
        return result;
    }

    /**
     * pread0 at the given position, or read0 at the current position if the
     * position is -1.
     */
    private static int plainRead(FileDescriptor fd, long address, int len, long position)
        throws IOException
    {
        return (position == -1) ? UnixFileDispatcherImpl.read0(fd, address, len)
                                : UnixFileDispatcherImpl.pread0(fd, address, len, position);
    }

    /**
     * Returns the position of the next part of a read at the given position,
     * done bytes into it: -1, the current position, if the read is relative.
     */
    private static long advance(long position, int done) {
        return (position == -1) ? -1 : position + done;
    }

    /**
     * Returns true if the data of the file keeps being found in the page
     * cache and has been at this tick of the streak clock: a virtual thread's
     * read then blocks its carrier, as upstream, without the policy's checks.
     * Small enough to be inlined into the caller's read path.
     */
    private static boolean atStreak(FileDescriptor fd) {
        return HINTS[FD_ACCESS.get(fd) & (HINT_SLOTS - 1)] == streakTick;
    }

    /**
     * Read by a virtual thread in auto mode, at the given position or, if it
     * is -1, at the current position, of a file not at this tick of its
     * streak. Plain pread (read), timed, if the file was at its streak at an
     * earlier tick, or while parking would not pay (few other virtual threads
     * want a carrier); otherwise what the page cache has without blocking,
     * and the rest through io_uring. Returns what pread (read) would return:
     * a short count only at end of file, or for a file that is not regular,
     * what it had.
     *
     * Not inlined: some branches in the methods it calls are taken rarely (a
     * hint's streak begins or ends, a period begins, a thread made since the
     * last count reads), and the compiler's uncommon trap at one of them
     * deoptimizes the compiled code that contains it. Kept out of
     * FileChannelImpl's read path, a trap deoptimizes this method at most,
     * not the caller's whole read path, into which only atStreak is inlined.
     */
    @DontInline
    private static int preadVirtual(FileDescriptor fd, long address, int len, long position)
        throws IOException
    {
        int slot = FD_ACCESS.get(fd) & (HINT_SLOTS - 1);
        int hits = HINTS[slot];
        if (hits >= STREAK) {
            // the data kept being cached until an earlier tick
            return timedRead(fd, address, len, position, slot);
        }
        return offStreak(fd, address, len, position, slot, hits);
    }

    /**
     * A plain read of a file whose streak was at an earlier tick, timed: one
     * that took no longer than a copy from the page cache gives the file the
     * current tick, a slower one ends the streak, and the file's next reads
     * take the policy's checks (offStreak).
     */
    private static int timedRead(FileDescriptor fd, long address, int len, long position,
                                 int slot)
        throws IOException
    {
        long start = System.nanoTime();
        int n = plainRead(fd, address, len, position);
        if (System.nanoTime() - start < HIT_NANOS + (len >>> 2)) {
            HINTS[slot] = tick();
        } else {
            HINTS[slot] = 0;
        }
        return n;
    }

    /**
     * Returns the new count of a file's hints after a probe or a timed read
     * that found its data in the page cache: the count plus one, or the
     * current tick once the count reaches STREAK.
     */
    private static int hit(int hits) {
        if (hits < 0)
            return 1;
        return (hits + 1 < STREAK) ? hits + 1 : tick();
    }

    /**
     * Returns the streak clock's current tick, for a file that reaches or
     * keeps its streak, and starts the clock if it is not running; 0, no
     * streak, if the clock's thread cannot be started. The tick is read
     * before the clock's state: a clock that ends advances the tick after it
     * has said that it is not running, so a file given the tick it left
     * starts the next one.
     */
    private static int tick() {
        int tick = streakTick;
        ticked = true;
        if (!CLOCK_RUNNING.get() && CLOCK_RUNNING.compareAndSet(false, true)) {
            try {
                Thread clock = InnocuousThread.newSystemThread("IoUring-Streak-Clock",
                                                               IoUringFileIO::streakClock);
                clock.setDaemon(true);
                clock.start();
            } catch (Throwable e) {
                // no thread (OutOfMemoryError): the file takes the policy's checks
                CLOCK_RUNNING.set(false);
                return 0;
            }
        }
        return tick;
    }

    /**
     * The streak clock's thread: advances the tick every TICK_MILLIS, and
     * ends after IDLE_TICKS ticks in which no file reached or kept its
     * streak.
     */
    private static void streakClock() {
        int idle = 0;
        for (;;) {
            try {
                Thread.sleep(TICK_MILLIS);
            } catch (InterruptedException e) {
                // a system thread: not interrupted
            }
            streakTick = nextTick(streakTick);
            if (ticked) {
                ticked = false;
                idle = 0;
            } else if (++idle >= IDLE_TICKS) {
                CLOCK_RUNNING.set(false);
                streakTick = nextTick(streakTick);
                return;
            }
        }
    }

    /**
     * Returns the tick after the given one: greater than STREAK.
     */
    private static int nextTick(int tick) {
        return (tick == Integer.MAX_VALUE) ? STREAK + 1 : tick + 1;
    }

    /**
     * Read by a virtual thread of a file not at its streak: a plain read
     * while few virtual threads are alive (see quietReader), but for one in
     * PROBE_MASK + 1; otherwise probeOrPark's choice.
     */
    @DontInline
    private static int offStreak(FileDescriptor fd, long address, int len, long position,
                                 int slot, int hits)
        throws IOException
    {
        if (!sampled() && quietReader())
            return plainRead(fd, address, len, position);
        return probeOrPark(fd, address, len, position, slot, hits);
    }

    /**
     * Returns true for one read by a virtual thread in PROBE_MASK + 1 on
     * each carrier (see SAMPLES).
     */
    private static boolean sampled() {
        int carrier = (int) JLA.currentCarrierThread().threadId() & (SAMPLE_SLOTS - 1);
        int i = (carrier + 1) * SAMPLE_STRIDE;
        int count = SAMPLES[i] + SAMPLE_STEP;
        SAMPLES[i] = count;
        return (count >>> SAMPLE_SHIFT) == 0;
    }

    /**
     * The rest of offStreak, kept out of preadVirtual so that the path of
     * cached data stays short: decides whether to block the carrier, probe
     * the page cache or go to io_uring, and keeps the file's hint.
     */
    private static int probeOrPark(FileDescriptor fd, long address, int len, long position,
                                   int slot, int hits)
        throws IOException
    {
        // one clock read for the policy and for timing a blocking read
        long start = System.nanoTime();
        if (!parkingPays(start)) {
            // few other virtual threads would use the carrier while this read
            // blocks it: as upstream; a read that took no longer than a copy
            // from the page cache counts as a hit
            int n = plainRead(fd, address, len, position);
            if (System.nanoTime() - start < HIT_NANOS + (len >>> 2)) {
                if (hits < STREAK)
                    HINTS[slot] = hit(hits);
            } else if (hits > 0) {
                HINTS[slot] = 0;
            }
            return n;
        }
        // many want a carrier: no read takes the plain path without checks
        long quiet = quietPeriodEnd;
        if (quiet == RING_PEAK.periodEnd())
            quietPeriodEnd = quiet - PERIOD_NANOS;
        if (position == -1 && !isFileOrBlockDevice(fd)) {
            // a FIFO or a device: read(2) returns what is there, and the
            // ring would not read at the current position
            return plainRead(fd, address, len, position);
        }
        if (hits == NO_NOWAIT && !sampled())
            return transfer(false, fd, address, len, position, false);

        // as pread, which transfers at most MAX_RW_COUNT bytes
        if (len > MAX_RW_COUNT)
            len = MAX_RW_COUNT;
        int total = 0;
        int n = IoUring.preadNoWait0(fd, address, len, position);
        while (n > 0) {
            total += n;
            if (total == len) {
                if (hits < STREAK)
                    HINTS[slot] = hit(hits);
                return total;
            }
            n = IoUring.preadNoWait0(fd, address + total, len - total,
                                     advance(position, total));
        }
        if (n == IOStatus.EOF || n == IOStatus.INTERRUPTED)
            return (total > 0) ? total : n;

        // would block, or RWF_NOWAIT is not supported for this file
        if (n == IOStatus.UNAVAILABLE) {
            if (hits != 0)
                HINTS[slot] = 0;
        } else if (hits != NO_NOWAIT) {
            HINTS[slot] = NO_NOWAIT;
        }
        try {
            n = transfer(false, fd, address + total, len - total,
                         advance(position, total), false);
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
     * Reads or writes through io_uring, or with pread0/pwrite0 if io_uring is
     * not available or the ring could not do it; the fallback compensates for
     * blocking if the caller relied on this method to park. Returns as
     * pread0/pwrite0. A read at position -1 reads at the current position,
     * as read0; a ring that cannot (before Linux 5.6) leaves it to read0.
     */
    private static int transfer(boolean write, FileDescriptor fd, long address, int len,
                                long position, boolean parks)
        throws IOException
    {
        IoUring ring = Rings.ring();
        // only regular files and block devices: io_uring ignores the offset
        // where pread/pwrite fail with ESPIPE (pipes, FIFOs, sockets, ttys),
        // and returns short counts for character devices
        if (ring != null && (position != -1 || ring.readsAtCurrentPosition())
                && isFileOrBlockDevice(fd)) {
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
        }
        if (parks)
            return blockingTransfer(write, fd, address, len, position);
        return write ? UnixFileDispatcherImpl.pwrite0(fd, address, len, position)
                     : plainRead(fd, address, len, position);
    }

    /**
     * pread0/pwrite0 with compensation for the blocked carrier, as
     * FileChannelImpl does for O_DIRECT and O_SYNC/O_DSYNC (a no-op if the
     * carrier compensates already).
     */
    private static int blockingTransfer(boolean write, FileDescriptor fd, long address,
                                        int len, long position)
        throws IOException
    {
        boolean attempted = Blocker.begin();
        try {
            return write ? UnixFileDispatcherImpl.pwrite0(fd, address, len, position)
                         : UnixFileDispatcherImpl.pread0(fd, address, len, position);
        } finally {
            Blocker.end(attempted);
        }
    }

    /**
     * The shared rings, created and probed at first use.
     */
    private static class Rings {
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
            // test-only: "submit:<n>" or "wait:<n>", the n-th submission or
            // reaper wait from now fails
            String fault = System.getProperty("jdk.nio.file.ioUring.testFault");
            if (fault != null && created > 0) {
                int colon = fault.indexOf(':');
                int n = Integer.parseInt(fault.substring(colon + 1));
                IoUring.setTestFault(fault.startsWith("submit") ? 0 : 1, n);
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
                createdRings = rings;
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
}

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
package org.openjdk.bench.java.nio;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import com.sun.nio.file.ExtendedOpenOption;
import static java.nio.file.StandardOpenOption.*;

import org.openjdk.jmh.annotations.*;

/**
 * Random positional FileChannel reads and writes by platform or virtual
 * threads, buffered or O_DIRECT, with a hot or cold page
 * cache. Each invocation performs {@code BATCH} operations shared by the
 * worker threads: with {@code -p drive=batch} (default) the workers wait for
 * each invocation to hand them the batch and wake the benchmark thread when it
 * is done; with {@code -p drive=free} they read without stopping, and an
 * invocation waits until they have done {@code BATCH} more operations (read
 * every 100 us; what is done beyond counts for the next invocation), so that
 * no thread parks or wakes between batches; with {@code -p drive=request}
 * there are no workers: the benchmark thread starts a new thread for each
 * request of {@code REQUEST_OPS} operations, keeping as many requests in
 * progress as {@code threads} says, as a server that handles each request on a
 * new virtual thread would. Each worker (request) reads the positions
 * of its own random sequence, the same in every iteration of every fork, or
 * with {@code -p seeds=fork} new ones in each iteration. With {@code -p
 * idle=N}, N more virtual threads stay parked through each iteration, as the
 * threads of idle connections of a server would. The io_uring policy
 * is chosen on the command line, e.g.
 * {@code -jvmArgsAppend -Djdk.internal.nio.ioUring.mode=always}; the baseline JDK
 * ignores it. The peak number of live OS threads of the VM during each
 * iteration is printed ("peak OS threads"), and the peak number of those that
 * carry virtual threads or reap io_uring completions ("peak carrier+reaper
 * threads": the threads named ForkJoinPool-N-worker-M and IoUring-Reaper-N),
 * and, when io_uring was used, the CPU time its reaper threads spent per
 * operation.
 *
 * <p> With {@code -p op=search} each operation is one request of a search
 * engine that reads its index through positional reads into heap buffers, as
 * Lucene's NIOFSDirectory does: a term's entry (1 KiB), its postings (4 KiB)
 * and {@code SEARCH_DOCS} stored documents of 1 to 16 KiB, each at a random
 * position of the file. With {@code -p cache=evict200} the file is evicted
 * before the iteration and every 200 ms during it, as an index larger than
 * what stays cached would be ({@code evictN}: every N ms; with reads of a
 * file on a fast device, {@code evict100} keeps them cold). The process CPU time per operation of each
 * iteration is printed ("process CPU per op (ns)").
 *
 * <p> Half cached: every other 8 MiB chunk is read into the page cache after
 * the file is evicted. Cold cache: the file is evicted (posix_fadvise DONTNEED through
 * {@code dd iflag=nocache count=0}) before each iteration; the file must be
 * much larger than what an iteration reads ({@code -p fileSize=...}, default 2 GiB,
 * created once in {@code /var/tmp}). Writes go to a 256 MiB file beside it,
 * written back and evicted before each iteration.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 2, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
public class FileChannelUring {
    static final int BATCH = 2048;
    static final int REQUEST_OPS = 4;
    static final int SEARCH_DOCS = 4;
    // heap buffers of 1, 2, 4, 8 and 16 KiB for op=search, one set per thread
    static final ThreadLocal<ByteBuffer[]> SEARCH_BUFFERS = ThreadLocal.withInitial(() ->
            new ByteBuffer[] { ByteBuffer.allocate(1024), ByteBuffer.allocate(2048),
                               ByteBuffer.allocate(4096), ByteBuffer.allocate(8192),
                               ByteBuffer.allocate(16384) });

    @Param({"read"})
    public String op;                // read | write | search

    @Param({"4096"})
    public int blockSize;

    @Param({"V256"})
    public String threads;           // P<n> platform, V<n> virtual threads, e.g. P1, V256

    @Param({"cold"})
    public String cache;             // hot | cold | half | evictN (reads: evicted every N ms)

    @Param({"false"})
    public boolean direct;           // O_DIRECT

    @Param({"false"})
    public boolean dsync;            // DSYNC (writes)

    @Param({"direct"})
    public String buffer;            // heap | direct

    @Param({"2147483648"})
    public long fileSize;

    @Param({"/var/tmp/nio-uring-bench.dat"})
    public String file;

    @Param({"batch"})
    public String drive;             // batch | free | request

    @Param({"fixed"})
    public String seeds;             // fixed (every iteration reads the same positions) | fork

    @Param({"0"})
    public int idle;                 // virtual threads parked through the iteration

    private Path path;
    private FileChannel fc;
    private List<Thread> workers;
    private List<Thread> idlers;
    private CountDownLatch release;
    private final Semaphore start = new Semaphore(0);
    private final AtomicInteger remaining = new AtomicInteger();
    private volatile CountDownLatch done;
    private final LongAdder completed = new LongAdder();
    private long consumed;
    private boolean free;            // drive=free
    private ArrayBlockingQueue<ByteBuffer> requestBuffers;  // drive=request: one per request
    private boolean virtual;
    private long blocks;
    private long seedBase;
    private long requests;
    private boolean write;           // op=write
    private boolean search;          // op=search
    private volatile boolean stop;
    private volatile int peakThreads;
    private volatile int peakCarriers;
    private volatile long peakRssKiB;
    private long reaperTicks;
    private long cpuStart;
    private Thread evicter;
    private long iterationOps;
    private Thread sampler;

    @Setup(Level.Trial)
    public void createFile() throws IOException {
        path = Path.of(file + (op.equals("write") ? ".w" : ""));
        long size = op.equals("write") ? (256L << 20) : fileSize;
        if (!Files.exists(path) || Files.size(path) != size) {
            try (FileChannel out = FileChannel.open(path, CREATE, WRITE, TRUNCATE_EXISTING)) {
                ByteBuffer bb = ByteBuffer.allocateDirect(1 << 20);
                SplittableRandom r = new SplittableRandom(42);
                for (long pos = 0; pos < size; pos += bb.capacity()) {
                    bb.clear();
                    while (bb.hasRemaining())
                        bb.putLong(r.nextLong());
                    bb.flip();
                    while (bb.hasRemaining())
                        out.write(bb);
                }
            }
        }
    }

    @Setup(Level.Iteration)
    public void startWorkers() throws Exception {
        List<OpenOption> opts = new ArrayList<>(List.of(op.equals("write") ? WRITE : READ));
        if (direct)
            opts.add(ExtendedOpenOption.DIRECT);
        if (dsync)
            opts.add(DSYNC);
        if (!op.equals("write")) {
            switch (cache) {
                case "cold" -> evict(path);
                case "half" -> warmHalf(path);
                default -> {
                    if (cache.startsWith("evict"))
                        evict(path);
                    else
                        warm(path);
                }
            }
        } else {
            clean(path);
        }
        fc = FileChannel.open(path, opts.toArray(new OpenOption[0]));
        virtual = threads.startsWith("V");
        int n = Integer.parseInt(threads.substring(1));
        long blocks = Files.size(path) / blockSize;
        this.blocks = blocks;
        stop = false;
        completed.reset();
        consumed = 0;
        free = drive.equals("free");
        write = op.equals("write");
        search = op.equals("search");
        workers = new ArrayList<>();
        long base = seeds.equals("fork") ? new SplittableRandom().nextLong() : 7;
        seedBase = base;
        requests = 0;
        requestBuffers = null;
        if (drive.equals("request")) {
            requestBuffers = new ArrayBlockingQueue<>(n);
            for (int i = 0; i < n; i++)
                requestBuffers.add(newBuffer());
            n = 0;
        }
        for (int i = 0; i < n; i++) {
            long seed = i * 31L + base;
            Runnable task = free ? () -> workFree(new SplittableRandom(seed), blocks)
                                 : () -> work(new SplittableRandom(seed), blocks);
            workers.add(virtual ? Thread.ofVirtual().start(task) : Thread.ofPlatform().start(task));
        }
        release = new CountDownLatch(1);
        idlers = new ArrayList<>();
        for (int i = 0; i < idle; i++) {
            idlers.add(Thread.ofVirtual().start(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
            }));
        }
        peakThreads = 0;
        peakCarriers = 0;
        peakRssKiB = 0;
        evicter = null;
        if (cache.startsWith("evict")) {
            // the file is larger than what stays cached: drop it every N ms
            long period = Long.parseLong(cache.substring("evict".length()));
            evicter = Thread.ofPlatform().daemon().start(() -> {
                while (!stop) {
                    try {
                        Thread.sleep(period);
                        evict(path);
                    } catch (Exception e) {
                        return;
                    }
                }
            });
        }
        cpuStart = processCpuNanos();
        reaperTicks = reaperCpuTicks();
        iterationOps = 0;
        sampler = Thread.ofPlatform().daemon().start(() -> {
            for (int i = 0; !stop; i++) {
                peakThreads = Math.max(peakThreads, liveOsThreads());
                peakRssKiB = Math.max(peakRssKiB, rssKiB());
                if (i % 10 == 0)
                    peakCarriers = Math.max(peakCarriers, carrierAndReaperThreads());
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    @TearDown(Level.Iteration)
    public void stopWorkers() throws Exception {
        long cpu = processCpuNanos() - cpuStart;
        stop = true;
        if (evicter != null)
            evicter.join();
        start.release(workers.size());
        for (Thread t : workers)
            t.join();
        release.countDown();
        for (Thread t : idlers)
            t.join();
        sampler.join();
        start.drainPermits();
        fc.close();
        if (iterationOps > 0)
            System.out.println("process CPU per op (ns): " + cpu / iterationOps);
        System.out.println("peak OS threads: " + peakThreads);
        System.out.println("peak carrier+reaper threads: " + peakCarriers);
        System.out.println("peak RSS KiB: " + peakRssKiB);
        if (free)
            System.out.println("operations done: " + completed.sum()
                               + ", counted: " + iterationOps);
        long ticks = reaperCpuTicks() - reaperTicks;
        if (ticks > 0 && iterationOps > 0) {
            // clock ticks are 10 ms (USER_HZ 100)
            System.out.println("peak reaper CPU per op (ns): " + ticks * 10_000_000L / iterationOps);
        }
    }

    private void work(SplittableRandom r, long blocks) {
        ByteBuffer bb = newBuffer();
        try {
            for (;;) {
                start.acquireUninterruptibly();
                if (stop)
                    return;
                while (remaining.getAndDecrement() > 0) {
                    operate(bb, r, blocks);
                }
                done.countDown();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void workFree(SplittableRandom r, long blocks) {
        ByteBuffer bb = newBuffer();
        try {
            while (!stop) {
                operate(bb, r, blocks);
                completed.increment();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ByteBuffer newBuffer() {
        return buffer.equals("heap")
                ? ByteBuffer.allocate(blockSize)
                : ByteBuffer.allocateDirect(blockSize + 4096).alignedSlice(4096)
                            .limit(blockSize).slice();
    }

    /**
     * One read or write of a block at a random position; with {@code op=search},
     * one request of a search engine that reads its index with positional reads
     * into heap buffers: a term's entry (1 KiB), its postings (4 KiB), and
     * SEARCH_DOCS stored documents of 1 to 16 KiB, each at a random position.
     */
    private void operate(ByteBuffer bb, SplittableRandom r, long blocks) throws IOException {
        if (search) {
            long size = blocks * blockSize;
            fc.read(SEARCH_BUFFERS.get()[0].clear(), r.nextLong(size - 1024));
            fc.read(SEARCH_BUFFERS.get()[2].clear(), r.nextLong(size - 4096));
            for (int i = 0; i < SEARCH_DOCS; i++) {
                ByteBuffer doc = SEARCH_BUFFERS.get()[r.nextInt(5)].clear();
                fc.read(doc, r.nextLong(size - doc.capacity()));
            }
            return;
        }
        long position = r.nextLong(blocks) * blockSize;
        bb.clear();
        if (write) {
            fc.write(bb, position);
        } else {
            fc.read(bb, position);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void ops() throws InterruptedException {
        if (requestBuffers != null) {
            for (int i = 0; i < BATCH; i += REQUEST_OPS) {
                ByteBuffer bb = requestBuffers.take();
                SplittableRandom r = new SplittableRandom(requests++ * 31L + seedBase);
                Runnable request = () -> {
                    try {
                        for (int k = 0; k < REQUEST_OPS; k++)
                            operate(bb, r, blocks);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    } finally {
                        requestBuffers.add(bb);
                    }
                };
                if (virtual) {
                    Thread.ofVirtual().start(request);
                } else {
                    Thread.ofPlatform().start(request);
                }
            }
            // wait for the last requests
            List<ByteBuffer> all = new ArrayList<>();
            for (int i = 0, n = Integer.parseInt(threads.substring(1)); i < n; i++)
                all.add(requestBuffers.take());
            requestBuffers.addAll(all);
            iterationOps += BATCH;
            return;
        }
        if (free) {
            consumed += BATCH;
            while (completed.sum() < consumed)
                LockSupport.parkNanos(100_000);
            iterationOps += BATCH;
            return;
        }
        int n = workers.size();
        CountDownLatch latch = new CountDownLatch(n);
        done = latch;
        remaining.set(BATCH);
        start.release(n);
        latch.await();
        iterationOps += BATCH;
    }

    static void evict(Path f) throws Exception {
        new ProcessBuilder("dd", "if=" + f, "iflag=nocache", "count=0")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start()
                .waitFor();
    }

    /**
     * Writes back what earlier iterations, cases or forks left dirty and drops the file from the
     * page cache, so that every write iteration starts from the same state and no writeback of
     * another run's pages competes with the one measured.
     */
    static void clean(Path f) throws Exception {
        try (FileChannel out = FileChannel.open(f, WRITE)) {
            out.force(false);
        }
        evict(f);
    }

    static void warm(Path f) throws IOException {
        try (FileChannel in = FileChannel.open(f, READ)) {
            ByteBuffer bb = ByteBuffer.allocateDirect(1 << 20);
            long pos = 0;
            int n;
            while ((n = in.read(bb.clear(), pos)) > 0)
                pos += n;
        }
    }

    /**
     * Leaves about half of the file in the page cache, so that about half of
     * the random reads miss: the file is evicted, then every other 8 MiB
     * chunk is read (readahead past a chunk's end caches a little more).
     */
    static void warmHalf(Path f) throws Exception {
        evict(f);
        int chunk = 8 << 20;
        try (FileChannel in = FileChannel.open(f, READ)) {
            ByteBuffer bb = ByteBuffer.allocateDirect(chunk);
            long size = in.size();
            for (long pos = 0; pos < size; pos += 2L * chunk) {
                bb.clear();
                while (bb.hasRemaining() && in.read(bb, pos + bb.position()) > 0) { }
            }
        }
    }

    /**
     * Counts the threads of this process whose (kernel, abbreviated) name is
     * that of a virtual thread scheduler's carrier or an io_uring reaper.
     */
    static int carrierAndReaperThreads() {
        int count = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String name;
                try {
                    name = procFile(task.resolve("comm"));
                } catch (IOException e) {
                    continue;   // the thread has exited
                }
                if (name.startsWith("ForkJoi")
                        || name.startsWith("IoUring")) {
                    count++;
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return count;
    }

    /**
     * Returns the user + system CPU time, in clock ticks, of the io_uring
     * reaper threads of this process, 0 if there are none.
     */
    static long reaperCpuTicks() {
        long ticks = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    if (!procFile(task.resolve("comm")).startsWith("IoUring"))
                        continue;
                    String stat = procFile(task.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);   // utime, stime
                } catch (IOException e) {
                    // the thread has exited
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return ticks;
    }

    /**
     * Reads a file of /proc with FileInputStream, read(2): through a
     * FileChannel, the sampler and the benchmark thread would read it through
     * io_uring in always mode, on a ring shared with a busy carrier.
     */
    static String procFile(Path file) throws IOException {
        try (FileInputStream in = new FileInputStream(file.toFile())) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    /** The CPU time, user and system, of this process in nanoseconds. */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static int liveOsThreads() {
        return (int) procStatus("Threads:");
    }

    /** The resident set size of this process in KiB. */
    static long rssKiB() {
        return procStatus("VmRSS:");
    }

    /** The number after the given field of /proc/self/status, -1 if there is none. */
    static long procStatus(String field) {
        try {
            for (String line : procFile(Path.of("/proc/self/status")).lines().toList()) {
                if (line.startsWith(field))
                    return Long.parseLong(line.substring(field.length()).trim().split(" ")[0]);
            }
        } catch (IOException e) {
            // ignore
        }
        return -1;
    }
}

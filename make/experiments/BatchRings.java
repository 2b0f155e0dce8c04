/*
 * Diagnostic, not a benchmark: FileChannelUring's default drive in a plain
 * program. A given number of virtual threads, made anew every second (as JMH
 * iterations make new workers), wait on a semaphore for batches of 2048
 * random 4 KiB reads, which they share through a countdown; a latch counted
 * down by each ends the batch. A given number of idle virtual threads stay
 * parked throughout, and the file is evicted from the page cache at the
 * start of every second. Prints, about every half second (at the end of a
 * batch), the reads that returned and the ring completions the process's
 * io_uring instances posted since the last line (ColdRingShare's helpers,
 * found by the source launcher in this directory).
 *
 * Usage (the source launcher):
 *   <jdk>/bin/java make/experiments/BatchRings.java <file> <workers> <idle> <seconds>
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

public class BatchRings {
    static final int BATCH = 2048;

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        int workers = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[3]);
        List<Thread> idlers = ColdRingShare.startIdle(Integer.parseInt(args[2]));
        AtomicLong reads = new AtomicLong();
        long start = System.nanoTime();
        long lastReads = 0;
        long lastCompletions = ColdRingShare.completions();
        long nextPrint = start + 500_000_000L;
        try (FileChannel fc = FileChannel.open(path)) {
            long blocks = fc.size() / 4096;
            for (int s = 0; s < seconds; s++) {
                ColdRingShare.evict(path);
                Semaphore go = new Semaphore(0);
                AtomicInteger remaining = new AtomicInteger();
                CountDownLatch[] done = new CountDownLatch[1];
                boolean[] stop = new boolean[1];
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < workers; i++) {
                    SplittableRandom r = new SplittableRandom(i * 31L + s);
                    threads.add(Thread.ofVirtual().start(() -> {
                        ByteBuffer bb = ByteBuffer.allocateDirect(4096);
                        try {
                            for (;;) {
                                go.acquireUninterruptibly();
                                if (stop[0])
                                    return;
                                while (remaining.getAndDecrement() > 0) {
                                    fc.read(bb.clear(), r.nextLong(blocks) * 4096);
                                    reads.incrementAndGet();
                                }
                                done[0].countDown();
                            }
                        } catch (Exception e) {
                            throw new RuntimeException(e);
                        }
                    }));
                }
                long end = System.nanoTime() + 1_000_000_000L;
                while (System.nanoTime() - end < 0) {
                    // the semaphore's release publishes done[0] and remaining
                    done[0] = new CountDownLatch(workers);
                    remaining.set(BATCH);
                    go.release(workers);
                    done[0].await();
                    long now = System.nanoTime();
                    if (now - nextPrint >= 0) {
                        long c = ColdRingShare.completions();
                        System.out.printf("%6d ms  reads %7d  ring completions %7d%n",
                                          (now - start) / 1_000_000, reads.get() - lastReads,
                                          c - lastCompletions);
                        lastReads = reads.get();
                        lastCompletions = c;
                        nextPrint = now + 500_000_000L;
                    }
                }
                stop[0] = true;
                go.release(workers);
                for (Thread t : threads)
                    t.join();
            }
        }
        ColdRingShare.endIdle(idlers);
    }
}

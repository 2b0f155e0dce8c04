/*
 * Diagnostic, not a benchmark: requests of 4 reads, each on a new virtual
 * thread, a given number at a time, beside a given number of idle virtual
 * threads, for the given milliseconds, on a file evicted from the page cache
 * first. Prints, every half second, the reads that returned and the ring
 * completions the process's io_uring instances posted in it (ColdRingShare's
 * helpers, found by the source launcher in this directory), then the totals.
 *
 * Usage (the source launcher):
 *   <jdk>/bin/java make/experiments/RequestRings.java <file> <requests> <idle> <millis>
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

public class RequestRings {
    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        int conc = Integer.parseInt(args[1]);
        int idle = Integer.parseInt(args[2]);
        long millis = Long.parseLong(args[3]);
        List<Thread> idlers = ColdRingShare.startIdle(idle);
        ColdRingShare.evict(path);
        AtomicLong reads = new AtomicLong();
        Semaphore slots = new Semaphore(conc);
        long c0 = ColdRingShare.completions();
        long start = System.nanoTime();
        long end = start + millis * 1_000_000L;
        long seed = 7;
        long lastReads = 0;
        long lastCompletions = c0;
        long nextPrint = start + 500_000_000L;
        try (FileChannel fc = FileChannel.open(path)) {
            long blocks = fc.size() / 4096;
            while (System.nanoTime() < end) {
                slots.acquire();
                SplittableRandom r = new SplittableRandom(seed++ * 31);
                Thread.ofVirtual().start(() -> {
                    ByteBuffer bb = ByteBuffer.allocate(4096);
                    try {
                        for (int k = 0; k < 4; k++) {
                            bb.clear();
                            fc.read(bb, r.nextLong(blocks) * 4096);
                            reads.incrementAndGet();
                        }
                    } catch (Exception e) {
                        e.printStackTrace();
                    } finally {
                        slots.release();
                    }
                });
                long now = System.nanoTime();
                if (now > nextPrint) {
                    long rd = reads.get();
                    long c = ColdRingShare.completions();
                    System.out.printf("%5d ms reads %6d ring %6d%n", (now - start) / 1_000_000,
                                      rd - lastReads, c - lastCompletions);
                    lastReads = rd;
                    lastCompletions = c;
                    nextPrint += 500_000_000L;
                }
            }
            slots.acquire(conc);
        }
        System.out.printf("total reads %d ring completions %d%n", reads.get(), ColdRingShare.completions() - c0);
        ColdRingShare.endIdle(idlers);
    }
}

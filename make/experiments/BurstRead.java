/*
 * Diagnostic, not a benchmark: where the time of a burst of O_DIRECT reads
 * goes. THREADS virtual threads wait at a phaser; each burst hands them READS
 * random reads of BLOCK bytes (a shared countdown, as FileChannelUring's
 * default drive does with 2048) and ends when the last read has returned.
 * For every read it records when it started and how long it took, from the
 * burst's start; after the warm-up bursts it prints, averaged over the
 * measured bursts: reads per second, the burst's length, when its last read
 * started, when its reads finished (median and 99th percentile of the end
 * times) and the reads' own times (median, 99th percentile, maximum). With
 * "latch" as the last argument a burst starts and ends as in FileChannelUring
 * (a Semaphore released for every worker, a CountDownLatch counted down by
 * each) instead of at the phaser.
 *
 * Usage (the source launcher):
 *   <jdk>/bin/java [-Djdk.nio.file.ioUring=...] make/experiments/BurstRead.java \
 *       FILE [threads, 1024] [reads per burst, 2048] [block, 65536] [bursts, 100] [warm-up, 20]
 *       [phaser|latch]
 */

import com.sun.nio.file.ExtendedOpenOption;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Phaser;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

public class BurstRead {
    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        int threads = arg(args, 1, 1024);
        int reads = arg(args, 2, 2048);
        int block = arg(args, 3, 65536);
        int bursts = arg(args, 4, 100);
        int warmup = arg(args, 5, 20);
        boolean latch = args.length > 6 && args[6].equals("latch");
        Semaphore go = new Semaphore(0);
        CountDownLatch[] done = new CountDownLatch[1];

        long[] starts = new long[reads];
        long[] ends = new long[reads];
        AtomicInteger next = new AtomicInteger();
        Phaser phaser = new Phaser(threads + 1);

        try (FileChannel fc = FileChannel.open(path, StandardOpenOption.READ,
                                               ExtendedOpenOption.DIRECT)) {
            long blocks = fc.size() / block;
            Thread[] workers = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                long seed = 42 + t;
                workers[t] = Thread.ofVirtual().start(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    ByteBuffer bb = ByteBuffer.allocateDirect(2 * block).alignedSlice(block)
                                              .limit(block);
                    try {
                        for (;;) {
                            if (latch) {
                                go.acquire();
                                if (done[0] == null)
                                    return;
                            } else if (phaser.arriveAndAwaitAdvance() < 0
                                       || phaser.isTerminated()) {
                                return;
                            }
                            int i;
                            while ((i = next.getAndIncrement()) < reads) {
                                long s = System.nanoTime();
                                fc.read(bb.clear(), random.nextLong(blocks) * block);
                                long e = System.nanoTime();
                                starts[i] = s;
                                ends[i] = e;
                            }
                            if (latch) {
                                done[0].countDown();
                            } else {
                                phaser.arriveAndAwaitAdvance();
                            }
                        }
                    } catch (Exception e) {
                        e.printStackTrace();
                        System.exit(1);
                    }
                });
            }

            double[] length = new double[bursts];
            double[] lastStart = new double[bursts];
            double[] endMedian = new double[bursts];
            double[] endP99 = new double[bursts];
            double[] readMedian = new double[bursts];
            double[] readP99 = new double[bursts];
            double[] readMax = new double[bursts];
            long measured = 0;
            for (int b = -warmup; b < bursts; b++) {
                next.set(0);
                long t0 = System.nanoTime();
                if (latch) {
                    CountDownLatch l = new CountDownLatch(threads);
                    done[0] = l;
                    go.release(threads);
                    l.await();
                } else {
                    phaser.arriveAndAwaitAdvance();  // go
                    phaser.arriveAndAwaitAdvance();  // all done
                }
                long finish = System.nanoTime();
                if (b < 0)
                    continue;
                measured += finish - t0;
                long[] s = starts.clone();
                long[] e = ends.clone();
                long[] d = new long[reads];
                for (int i = 0; i < reads; i++)
                    d[i] = e[i] - s[i];
                Arrays.sort(s);
                Arrays.sort(e);
                Arrays.sort(d);
                length[b] = ms(finish - t0);
                lastStart[b] = ms(s[reads - 1] - t0);
                endMedian[b] = ms(e[reads / 2] - t0);
                endP99[b] = ms(e[reads * 99 / 100] - t0);
                readMedian[b] = ms(d[reads / 2]);
                readP99[b] = ms(d[reads * 99 / 100]);
                readMax[b] = ms(d[reads - 1]);
            }
            if (latch) {
                done[0] = null;
                go.release(threads);
            } else {
                phaser.forceTermination();
            }
            System.out.printf("reads/s %.0f  burst %.2f ms  last start %.2f  end p50 %.2f p99 %.2f"
                              + "  read p50 %.2f p99 %.2f max %.2f%n",
                              (double) reads * bursts / (measured / 1e9), mean(length),
                              mean(lastStart), mean(endMedian), mean(endP99),
                              mean(readMedian), mean(readP99), mean(readMax));
            for (Thread w : workers)
                w.join();
        }
    }

    static int arg(String[] args, int i, int def) {
        return (args.length > i) ? Integer.parseInt(args[i]) : def;
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }

    static double mean(double[] a) {
        return Arrays.stream(a).average().orElse(Double.NaN);
    }
}

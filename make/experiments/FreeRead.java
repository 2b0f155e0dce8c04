/*
 * Diagnostic, not a benchmark: N platform or virtual threads read random 4 KiB
 * blocks of a file with FileChannel.read(ByteBuffer, long) without stopping;
 * after a warm-up the reads of a measured interval are counted, and one line
 * is printed: reads per second. No latch or hand-off between the reads, so
 * no thread parks unless the read itself does. FileChannelUring's hot rows
 * measure the same reads with a latch every 2,048 reads (or, with
 * -p drive=free, polled by the benchmark thread). free-read-ab.sh runs it
 * with two JDKs in turn.
 *
 * Usage (the source launcher; the file should be in the page cache):
 *   <jdk>/bin/java [-Djdk.nio.file.ioUring=...] make/experiments/FreeRead.java \
 *       FILE P|V THREADS [seconds, 5] [warm-up seconds, 3]
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

public class FreeRead {
    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        boolean virtual = switch (args[1]) {
            case "V" -> true;
            case "P" -> false;
            default -> throw new IllegalArgumentException("P or V: " + args[1]);
        };
        int threads = Integer.parseInt(args[2]);
        long seconds = (args.length > 3) ? Long.parseLong(args[3]) : 5;
        long warmup = (args.length > 4) ? Long.parseLong(args[4]) : 3;

        try (FileChannel fc = FileChannel.open(path, StandardOpenOption.READ)) {
            long blocks = fc.size() / 4096;
            if (blocks == 0)
                throw new IllegalArgumentException(path + ": smaller than 4 KiB");
            LongAdder reads = new LongAdder();
            AtomicBoolean counting = new AtomicBoolean();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Exception> failure = new AtomicReference<>();
            Thread[] workers = new Thread[threads];
            for (int i = 0; i < threads; i++) {
                long seed = i;
                Runnable task = () -> {
                    ByteBuffer bb = ByteBuffer.allocateDirect(4096);
                    SplittableRandom random = new SplittableRandom(seed);
                    try {
                        while (!stop.get()) {
                            bb.clear();
                            fc.read(bb, random.nextLong(blocks) * 4096);
                            if (counting.get())
                                reads.increment();
                        }
                    } catch (Exception e) {
                        failure.compareAndSet(null, e);
                        stop.set(true);
                    }
                };
                workers[i] = virtual ? Thread.ofVirtual().start(task)
                                     : Thread.ofPlatform().start(task);
            }
            Thread.sleep(warmup * 1000);
            counting.set(true);
            long start = System.nanoTime();
            Thread.sleep(seconds * 1000);
            counting.set(false);
            long end = System.nanoTime();
            stop.set(true);
            for (Thread t : workers)
                t.join();
            if (failure.get() != null)
                throw failure.get();
            System.out.printf("%.0f%n", reads.sum() * 1e9 / (end - start));
        }
    }
}

/*
 * Diagnostic, not a benchmark: what a path through IoUringFileIO costs a read
 * of cached data, measured in one process, so that the forks' spread (JIT
 * decisions, the heap's layout, the VM's speed from minute to minute) is not
 * in the comparison. Virtual threads read random 4 KiB blocks of the first GiB
 * of a file, kept in the page cache, in a loop with no harness between the
 * reads; the main thread switches the path that every read takes (the static
 * field IoUringFileIO.testPath of make/experiments/hot-path-switch.patch) in
 * rounds of all the given paths in a random order, 20 ms to settle and 200 ms
 * counted each. Each path runs 2 s first, so that all are compiled. Prints the
 * mean reads per second of each path and, for every other path, the geometric
 * mean of its per-round ratio to the first path with a 95% interval.
 *
 * With -Dcache=half the threads read random blocks of the whole file instead,
 * about half of which are in the page cache: before the first round, and
 * again between rounds every -Drefresh seconds (30), the file is dropped from
 * the page cache and every other 8 MiB chunk is read back, as
 * FileChannelUring's half-cached iterations do. With -Dcache=cold the file is
 * only dropped from the page cache, at the same times. With -Devery=slice
 * that is done before every path's slice instead, so that no slice meets the
 * pages that the one before it read.
 *
 * Usage, with the image's java and the patch's classes (see the patch):
 *   <jdk>/bin/java --patch-module java.base=DIR \
 *       --add-opens java.base/sun.nio.ch=ALL-UNNAMED [-Dcache=half] \
 *       make/experiments/HotInterleave.java <file> <threads> <seconds> <path>...
 */

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

public class HotInterleave {
    private static final int BLOCK = 4096;
    private static final int PAD = 16;          // longs between two threads' counters
    private static volatile boolean stop;

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int threads = Integer.parseInt(args[1]);
        long seconds = Long.parseLong(args[2]);
        int[] paths = new int[args.length - 3];
        for (int i = 0; i < paths.length; i++)
            paths[i] = Integer.parseInt(args[i + 3]);
        Field testPath = Class.forName("sun.nio.ch.IoUringFileIO").getDeclaredField("testPath");
        testPath.setAccessible(true);

        String cache = System.getProperty("cache", "hot");
        boolean evicting = !cache.equals("hot");
        long refresh = Long.getLong("refresh", 30) * 1_000_000_000L;
        boolean everySlice = System.getProperty("every", "round").equals("slice");
        try (FileChannel fc = FileChannel.open(file)) {
            long size = evicting ? fc.size() : Math.min(fc.size(), 1L << 30);
            long blocks = size / BLOCK;
            long refreshed = System.nanoTime();
            if (evicting) {
                warmHalf(file, fc, cache.equals("cold"));
            } else {
                ByteBuffer warm = ByteBuffer.allocateDirect(1 << 20);
                for (long pos = 0; pos < size; pos += warm.capacity())
                    fc.read(warm.clear(), pos);
            }

            long[] counts = new long[threads * PAD];
            Throwable[] failure = new Throwable[1];
            List<Thread> readers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int index = t * PAD;
                long seed = t * 31L + 7;
                readers.add(Thread.ofVirtual().start(() -> {
                    SplittableRandom r = new SplittableRandom(seed);
                    ByteBuffer bb = ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK)
                            .limit(BLOCK).slice();
                    try {
                        while (!stop) {
                            bb.clear();
                            if (fc.read(bb, r.nextLong(blocks) * BLOCK) != BLOCK)
                                throw new AssertionError("short read");
                            counts[index]++;
                        }
                    } catch (Throwable e) {
                        failure[0] = e;
                        stop = true;
                    }
                }));
            }

            for (int p : paths) {
                testPath.setInt(null, p);
                Thread.sleep(2000);
            }
            List<List<Double>> rates = new ArrayList<>();
            for (int i = 0; i < paths.length; i++)
                rates.add(new ArrayList<>());
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < paths.length; i++)
                order.add(i);
            Random shuffle = new Random(1);
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() - end < 0 && !stop) {
                if (evicting && !everySlice && System.nanoTime() - refreshed > refresh) {
                    warmHalf(file, fc, cache.equals("cold"));
                    refreshed = System.nanoTime();
                }
                Collections.shuffle(order, shuffle);
                for (int i : order) {
                    if (evicting && everySlice)
                        warmHalf(file, fc, cache.equals("cold"));
                    testPath.setInt(null, paths[i]);
                    Thread.sleep(20);
                    long c0 = sum(counts), t0 = System.nanoTime();
                    Thread.sleep(200);
                    long c1 = sum(counts), t1 = System.nanoTime();
                    rates.get(i).add((c1 - c0) * 1e9 / (t1 - t0));
                }
            }
            stop = true;
            for (Thread t : readers)
                t.join();
            if (failure[0] != null)
                throw new RuntimeException(failure[0]);

            int rounds = rates.get(0).size();
            System.out.printf("%d virtual thread(s), %d rounds of %d paths%n",
                              threads, rounds, paths.length);
            for (int i = 0; i < paths.length; i++) {
                double mean = rates.get(i).stream().mapToDouble(d -> d).average().orElse(0);
                System.out.printf("path %d: %.0f reads/s%n", paths[i], mean);
            }
            for (int i = 1; i < paths.length; i++) {
                double[] logs = new double[rounds];
                for (int k = 0; k < rounds; k++)
                    logs[k] = Math.log(rates.get(i).get(k) / rates.get(0).get(k));
                double mean = Arrays.stream(logs).average().orElse(0);
                double var = Arrays.stream(logs).map(x -> (x - mean) * (x - mean)).sum()
                             / (rounds - 1);
                double width = 1.97 * Math.sqrt(var / rounds);
                System.out.printf("path %d against path %d: %.4f (95%%: %.4f to %.4f)%n",
                                  paths[i], paths[0], Math.exp(mean),
                                  Math.exp(mean - width), Math.exp(mean + width));
            }
        }
    }

    /**
     * Drops the file from the page cache, then, unless cold, reads every other
     * 8 MiB chunk.
     */
    private static void warmHalf(Path file, FileChannel fc, boolean cold) throws Exception {
        new ProcessBuilder("dd", "if=" + file, "iflag=nocache", "count=0")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start()
                .waitFor();
        if (cold)
            return;
        // each chunk in one read: reads of parts of it in turn would look
        // sequential and read ahead into the next chunk
        int chunk = 8 << 20;
        ByteBuffer bb = ByteBuffer.allocateDirect(chunk);
        for (long pos = 0; pos < fc.size(); pos += 2L * chunk) {
            bb.clear();
            while (bb.hasRemaining() && fc.read(bb, pos + bb.position()) > 0) { }
        }
    }

    private static long sum(long[] counts) {
        long sum = 0;
        for (int i = 0; i < counts.length; i += PAD)
            sum += counts[i];
        return sum;
    }
}

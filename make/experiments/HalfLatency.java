/*
 * Diagnostic, not a benchmark: one virtual thread reads random 4 KiB blocks of
 * a file, half cached as FileChannelUring's cache=half leaves it (evicted with
 * dd iflag=nocache, then every other 8 MiB chunk read), and times each read.
 * Per round it prints the mean time per read, and for the reads under 8 us
 * (copies from the page cache) and those over (device reads) their count,
 * median and 90th percentile, so that the policy's cost on a cached read can
 * be told from the device's spread.
 *
 * Usage (the source launcher):
 *   <jdk>/bin/java [-Djdk.nio.file.ioUring=never] make/experiments/HalfLatency.java \
 *       <file> [reads per round, 100000] [rounds, 3]
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.SplittableRandom;

public class HalfLatency {
    static final long SPLIT_NANOS = 8_000;

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        int reads = (args.length > 1) ? Integer.parseInt(args[1]) : 100_000;
        int rounds = (args.length > 2) ? Integer.parseInt(args[2]) : 3;
        try (FileChannel fc = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = fc.size();
            long blocks = size / 4096;
            if (blocks == 0)
                throw new IllegalArgumentException(path + ": smaller than 4 KiB");
            for (int round = 0; round < rounds; round++) {
                halfCache(path, fc);
                long[] nanos = new long[reads];
                long[] total = new long[1];
                Exception[] failure = new Exception[1];
                Thread t = Thread.ofVirtual().start(() -> {
                    ByteBuffer bb = ByteBuffer.allocateDirect(8192).alignedSlice(4096)
                                              .limit(4096).slice();
                    SplittableRandom random = new SplittableRandom(7);
                    long start = System.nanoTime();
                    try {
                        for (int i = 0; i < reads; i++) {
                            bb.clear();
                            long position = random.nextLong(blocks) * 4096;
                            long t0 = System.nanoTime();
                            fc.read(bb, position);
                            nanos[i] = System.nanoTime() - t0;
                        }
                    } catch (Exception e) {
                        failure[0] = e;
                        return;
                    }
                    total[0] = System.nanoTime() - start;
                });
                t.join();
                if (failure[0] != null)
                    throw failure[0];
                long[] cached = Arrays.stream(nanos).filter(n -> n < SPLIT_NANOS).sorted().toArray();
                long[] device = Arrays.stream(nanos).filter(n -> n >= SPLIT_NANOS).sorted().toArray();
                System.out.printf("round %d: %.0f ns/read; cached %s; device %s%n",
                                  round + 1, total[0] / (double) reads,
                                  describe(cached), describe(device));
            }
        }
    }

    static String describe(long[] sorted) {
        if (sorted.length == 0)
            return "none";
        return String.format("%d reads, p50 %d ns, p90 %d ns", sorted.length,
                             sorted[sorted.length / 2], sorted[sorted.length * 9 / 10]);
    }

    // evict the file, then read every other 8 MiB chunk into the page cache
    static void halfCache(Path path, FileChannel fc) throws Exception {
        Process dd = new ProcessBuilder("dd", "if=" + path, "iflag=nocache", "count=0",
                                        "status=none").inheritIO().start();
        if (dd.waitFor() != 0)
            throw new RuntimeException("dd failed");
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        long size = fc.size();
        for (long base = 0; base < size; base += 16L << 20) {
            for (long p = base; p < Math.min(base + (8L << 20), size); p += chunk.capacity()) {
                chunk.clear();
                fc.read(chunk, p);
            }
        }
    }
}

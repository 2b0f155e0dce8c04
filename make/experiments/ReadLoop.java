/*
 * Diagnostic, not a benchmark: one virtual thread reads random 4 KiB blocks of a
 * file with FileChannel.read(ByteBuffer, long) in a loop, for a number of rounds
 * of a number of seconds each, and prints each round's reads per second and
 * their mean. No harness between the reads: the reading thread never parks.
 * FileChannelUring's V1 hot case measures the same reads with JMH's hand-off
 * every 2,048 reads.
 *
 * Usage (the source launcher; the file should be in the page cache):
 *   <jdk>/bin/java [-Djdk.nio.file.ioUring=never] make/experiments/ReadLoop.java \
 *       <file> [seconds per round, 3] [rounds, 5]
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

public class ReadLoop {
    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        long seconds = (args.length > 1) ? Long.parseLong(args[1]) : 3;
        int rounds = (args.length > 2) ? Integer.parseInt(args[2]) : 5;
        try (FileChannel fc = FileChannel.open(path, StandardOpenOption.READ)) {
            long blocks = fc.size() / 4096;
            if (blocks == 0)
                throw new IllegalArgumentException(path + ": smaller than 4 KiB");
            double sum = 0;
            for (int round = 0; round < rounds; round++) {
                long[] result = new long[2];   // reads, nanoseconds
                Exception[] failure = new Exception[1];
                Thread t = Thread.ofVirtual().start(() -> {
                    ByteBuffer bb = ByteBuffer.allocateDirect(8192).alignedSlice(4096)
                                              .limit(4096).slice();
                    SplittableRandom random = new SplittableRandom(7);
                    long start = System.nanoTime();
                    long end = start + seconds * 1_000_000_000L;
                    long n = 0;
                    long now;
                    try {
                        do {
                            for (int i = 0; i < 1024; i++) {
                                bb.clear();
                                fc.read(bb, random.nextLong(blocks) * 4096);
                            }
                            n += 1024;
                        } while ((now = System.nanoTime()) < end);
                    } catch (Exception e) {
                        failure[0] = e;
                        return;
                    }
                    result[0] = n;
                    result[1] = now - start;
                });
                t.join();
                if (failure[0] != null)
                    throw failure[0];
                double rate = result[0] * 1e9 / result[1];
                sum += rate;
                System.out.printf("round %d: %.0f reads/s%n", round, rate);
            }
            System.out.printf("mean: %.0f reads/s%n", sum / rounds);
        }
    }
}

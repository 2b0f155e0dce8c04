/*
 * Diagnostic, not a benchmark: how often a file whose data stays in the page
 * cache is off its streak. A few virtual threads read random 4 KiB blocks of
 * a cached file through one channel without stopping, while the main thread
 * looks at the file's hint slot (IoUringFileIO.HINTS) every 200 us or so and
 * counts the looks that find it below the streak (16 hits: a slow sampled read
 * set it back) and the streaks it saw end. Prints the reads a second, the
 * share of looks off the streak and the ends seen, and each thread's reads.
 * In `never` no slot is ever set: only the reads a second mean anything.
 *
 * Usage (the file must be in the page cache, e.g. cat it to /dev/null first):
 *   <jdk>/bin/java --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
 *       -Djdk.nio.file.ioUring=auto|never \
 *       make/experiments/StreakProbe.java <file> <threads> <seconds>
 */

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

public class StreakProbe {
    static final int BLOCK = 4096;
    static final int STREAK = 16;

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int threads = Integer.parseInt(args[1]);
        long seconds = Long.parseLong(args[2]);
        Field f = Class.forName("sun.nio.ch.IoUringFileIO").getDeclaredField("HINTS");
        f.setAccessible(true);
        int[] hints = (int[]) f.get(null);

        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong reads = new AtomicLong();
        List<Thread> readers = new ArrayList<>();
        try (FileChannel fc = FileChannel.open(file)) {
            long blocks = fc.size() / BLOCK;
            for (int i = 0; i < threads; i++) {
                long seed = i * 31L + 7;
                readers.add(Thread.ofVirtual().start(() -> {
                    SplittableRandom r = new SplittableRandom(seed);
                    ByteBuffer bb = ByteBuffer.allocateDirect(BLOCK);
                    long n = 0;
                    try {
                        while (!stop.get()) {
                            bb.clear();
                            fc.read(bb, r.nextLong(blocks) * BLOCK);
                            n++;
                        }
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                    reads.addAndGet(n);
                    System.out.println("thread reads " + n);
                }));
            }

            long end = System.nanoTime() + seconds * 1_000_000_000L;
            long looks = 0, off = 0, ends = 0;
            int slot = -1, last = -1;
            while (System.nanoTime() < end) {
                Thread.sleep(0, 200_000);
                if (slot < 0) {
                    // the only slot the readers set is the channel's
                    for (int i = 0; i < hints.length; i++) {
                        if (hints[i] != 0)
                            slot = i;
                    }
                    continue;
                }
                int h = hints[slot];
                looks++;
                if (h < STREAK)
                    off++;
                if (last >= STREAK && h < STREAK)
                    ends++;
                last = h;
            }
            stop.set(true);
            for (Thread t : readers)
                t.join();
            System.out.printf("threads %d, reads/s %.0f, looks %d, off the streak %.3f,"
                              + " streak ends seen %d%n",
                              threads, reads.get() / (double) seconds, looks,
                              (looks > 0) ? off / (double) looks : 0.0, ends);
        }
    }
}

/*
 * Diagnostic, not a benchmark: a platform thread that shares a ring with a
 * carrier whose virtual threads read cached data back to back, in always
 * mode. The platform thread reads first, so it takes ring 0; the two carriers
 * of a 2-CPU machine then take ring 1 and ring 0. It then reads one block a
 * millisecond for 5 s while 256 virtual threads read without pause, and
 * prints how many reads it got done and the slowest. Found with the free
 * running FileChannelUring (-p drive=free), whose benchmark thread waited for
 * seconds to read /proc.
 *
 *   java -Djdk.nio.file.ioUring=always PlatformTurn.java FILE
 *
 * FILE: a large file in the page cache (the benchmark's 2 GiB file).
 */
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

public class PlatformTurn {
    public static void main(String[] args) throws Exception {
        Path p = Path.of(args[0]);
        long blocks = Files.size(p) / 4096;
        try (FileChannel fc = FileChannel.open(p, StandardOpenOption.READ)) {
            ByteBuffer mine = ByteBuffer.allocateDirect(4096);
            fc.read(mine, 0);
            LongAdder virtualReads = new LongAdder();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> readers = new ArrayList<>();
            for (int i = 0; i < 256; i++) {
                long seed = i * 31L + 7;
                readers.add(Thread.ofVirtual().start(() -> {
                    SplittableRandom r = new SplittableRandom(seed);
                    ByteBuffer bb = ByteBuffer.allocateDirect(4096);
                    try {
                        while (!stop.get()) {
                            bb.clear();
                            fc.read(bb, r.nextLong(blocks) * 4096);
                            virtualReads.increment();
                        }
                    } catch (Exception e) {
                        e.printStackTrace();
                    }
                }));
            }
            Thread.sleep(1000);
            long worst = 0;
            long start = System.nanoTime();
            int reads = 0;
            while (System.nanoTime() - start < 5_000_000_000L) {
                long t0 = System.nanoTime();
                mine.clear();
                fc.read(mine, (reads * 7919L % blocks) * 4096);
                worst = Math.max(worst, System.nanoTime() - t0);
                reads++;
                Thread.sleep(1);
            }
            long elapsed = System.nanoTime() - start;
            System.out.printf("platform thread: %d reads in %.1f s, the slowest %.1f ms;"
                              + " virtual threads: %d reads%n",
                              reads, elapsed / 1e9, worst / 1e6, virtualReads.sum());
            stop.set(true);
            for (Thread t : readers)
                t.join();
        }
    }
}

/*
 * Diagnostic, not a benchmark: what the auto policy's path costs a read on
 * the CPU, without the device. A few virtual threads read random 4 KiB blocks
 * of a small file that stays in the page cache. With "reset", each read first
 * sets the file's hint slot (IoUringFileIO.HINTS) back to 0, so that every
 * read takes the path of a cold read that blocks its carrier (probeOrPark:
 * the clock, the reader set, the peaks, the scheduler's queues, then pread
 * and the clock again) instead of the plain pread of data known to be cached;
 * the same store is made in every mode, so `never` against `auto` leaves the
 * policy's cost. Prints the reads a second and the carrier time per read
 * after a warm-up. With "idle", each thread sleeps 150 us before each read,
 * so that its carrier idles as during a read of the device, and the read
 * calls are timed (mean and median). With "cold", the first argument is a
 * large file instead (FileChannelUring's): it is evicted from the page cache,
 * the threads read blocks at new random positions, and the process's CPU time
 * per read is printed as well.
 *
 * Usage (the source launcher; the reset needs both --add-opens):
 *   <jdk>/bin/java --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
 *       --add-opens java.base/java.io=ALL-UNNAMED -Djdk.nio.file.ioUring=auto|never \
 *       make/experiments/PolicyCost.java <dir> <threads> <seconds> reset|idle|plain
 *   <jdk>/bin/java make/experiments/PolicyCost.java <file> <threads> <seconds> cold
 */

import java.io.FileDescriptor;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

public class PolicyCost {
    static final int BLOCK = 4096;
    static final int BLOCKS = 256;

    static volatile boolean measuring;
    static volatile boolean stop;

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        if (args[3].equals("cold")) {
            cold(Path.of(args[0]), threads, seconds);
            return;
        }
        Path file = Path.of(args[0], "policy-cost.dat");
        boolean idle = args[3].equals("idle");
        boolean reset = idle || args[3].equals("reset");
        if (!Files.exists(file) || Files.size(file) != (long) BLOCK * BLOCKS) {
            byte[] data = new byte[BLOCK * BLOCKS];
            new SplittableRandom(1).nextBytes(data);
            Files.write(file, data);
        }
        try (FileChannel fc = FileChannel.open(file, StandardOpenOption.READ)) {
            // the page cache has it after one read
            fc.read(ByteBuffer.allocate(BLOCK * BLOCKS), 0);
            int[] hints = null;
            int slot = 0;
            if (reset) {
                Field h = Class.forName("sun.nio.ch.IoUringFileIO").getDeclaredField("HINTS");
                h.setAccessible(true);
                hints = (int[]) h.get(null);
                Field fdf = fc.getClass().getDeclaredField("fd");
                fdf.setAccessible(true);
                Field fdn = FileDescriptor.class.getDeclaredField("fd");
                fdn.setAccessible(true);
                slot = fdn.getInt(fdf.get(fc)) & (hints.length - 1);
            }
            LongAdder reads = new LongAdder();
            List<Thread> readers = new ArrayList<>();
            long[][] times = new long[threads][];
            int[] timed = new int[threads];
            for (int i = 0; i < threads; i++) {
                int[] hs = hints;
                int s = slot;
                int k = i;
                times[k] = new long[idle ? 1 << 20 : 0];
                SplittableRandom r = new SplittableRandom(i);
                readers.add(Thread.ofVirtual().start(() -> {
                    ByteBuffer bb = ByteBuffer.allocateDirect(BLOCK);
                    try {
                        while (!stop) {
                            if (idle) {
                                // the carrier idles, as it would in a read of the device
                                Thread.sleep(0, 150_000);
                            }
                            long t0 = System.nanoTime();
                            if (hs != null)
                                hs[s] = 0;
                            fc.read(bb.clear(), (long) r.nextInt(BLOCKS) * BLOCK);
                            long t = System.nanoTime() - t0;
                            if (measuring) {
                                reads.increment();
                                if (timed[k] < times[k].length)
                                    times[k][timed[k]++] = t;
                            }
                        }
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                }));
            }
            Thread.sleep(2000);
            measuring = true;
            long start = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            measuring = false;
            long nanos = System.nanoTime() - start;
            stop = true;
            for (Thread t : readers)
                t.join();
            long n = reads.sum();
            int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                                              Runtime.getRuntime().availableProcessors());
            System.out.printf("%s %s: %d reads/s, %.1f ns of carrier time per read%n",
                              System.getProperty("jdk.nio.file.ioUring", "auto"), args[3],
                              n * 1_000_000_000L / nanos, (double) nanos * carriers / n);
            if (idle) {
                long[] all = new long[0];
                for (int i = 0; i < threads; i++) {
                    int from = all.length;
                    all = Arrays.copyOf(all, from + timed[i]);
                    System.arraycopy(times[i], 0, all, from, timed[i]);
                }
                Arrays.sort(all);
                double mean = Arrays.stream(all).average().orElse(0);
                System.out.printf("  a read after an idle carrier: mean %.0f ns, median %d ns%n",
                                  mean, all[all.length / 2]);
            }
        }
    }

    /**
     * Cold reads at new random positions of a large file: reads a second and
     * the process's CPU time per read.
     */
    static void cold(Path file, int threads, int seconds) throws Exception {
        new ProcessBuilder("dd", "if=" + file, "iflag=nocache", "count=0")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start()
                .waitFor();
        var os = (com.sun.management.OperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean();
        try (FileChannel fc = FileChannel.open(file, StandardOpenOption.READ)) {
            long blocks = fc.size() / BLOCK;
            LongAdder reads = new LongAdder();
            List<Thread> readers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                SplittableRandom r = new SplittableRandom(System.nanoTime() + i);
                readers.add(Thread.ofVirtual().start(() -> {
                    ByteBuffer bb = ByteBuffer.allocateDirect(BLOCK);
                    try {
                        while (!stop) {
                            fc.read(bb.clear(), r.nextLong(blocks) * BLOCK);
                            if (measuring)
                                reads.increment();
                        }
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                }));
            }
            Thread.sleep(2000);
            long cpu = os.getProcessCpuTime();
            long start = System.nanoTime();
            measuring = true;
            Thread.sleep(seconds * 1000L);
            measuring = false;
            long nanos = System.nanoTime() - start;
            cpu = os.getProcessCpuTime() - cpu;
            stop = true;
            for (Thread t : readers)
                t.join();
            long n = reads.sum();
            System.out.printf("%s cold: %d reads/s, %.0f ns of CPU time per read%n",
                              System.getProperty("jdk.nio.file.ioUring", "auto"),
                              n * 1_000_000_000L / nanos, (double) cpu / n);
        }
    }
}

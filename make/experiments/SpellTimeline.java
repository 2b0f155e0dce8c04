/*
 * Diagnostic, not a benchmark: the reads of N virtual threads over time, and
 * when the auto policy sent them to a ring. The threads read random 4 KiB
 * blocks of a file, evicted from the page cache first (dd iflag=nocache), each
 * in its own loop, for 6 seconds. A platform thread adds up the completions
 * the process's io_uring instances have posted (CqTail in each one's fdinfo)
 * every 10 ms (ColdRingShare's helpers, found by the source launcher in
 * this directory). Prints a line per 10 ms: its start (ms), the reads that
 * returned in it and the ring completions posted in it. The first read of
 * each half second of the policy opens its exploring spell, so the spells
 * show as the few lines with completions when few threads read; a line with
 * no read at all is a stall of the whole process. With idle > 0, that many
 * more virtual threads stay parked throughout, as the threads of idle
 * connections would, so that more than few virtual threads are alive.
 *
 * Usage (the source launcher):
 *   <jdk>/bin/java make/experiments/SpellTimeline.java <file> <threads> [idle]
 */

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

public class SpellTimeline {
    static final int MILLIS = 6000;
    static final int STEP = 10;

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        int threads = Integer.parseInt(args[1]);
        int idle = (args.length > 2) ? Integer.parseInt(args[2]) : 0;
        List<Thread> idlers = ColdRingShare.startIdle(idle);
        ColdRingShare.evict(path);
        int steps = MILLIS / STEP;
        AtomicIntegerArray reads = new AtomicIntegerArray(steps);
        long[] posted = new long[steps + 1];
        long start = System.nanoTime();
        long end = start + MILLIS * 1_000_000L;
        try (FileChannel fc = FileChannel.open(path)) {
            List<Thread> readers = ColdRingShare.startReaders(fc, threads, end, () -> {
                int step = (int) ((System.nanoTime() - start) / (STEP * 1_000_000L));
                if (step < steps)
                    reads.incrementAndGet(step);
            });
            Thread counter = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i <= steps; i++) {
                        long wait = start + i * STEP * 1_000_000L - System.nanoTime();
                        if (wait > 0)
                            Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
                        posted[i] = ColdRingShare.completions();
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            for (Thread t : readers)
                t.join();
            counter.join();
        }
        ColdRingShare.endIdle(idlers);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < steps; i++) {
            sb.append(i * STEP).append(' ').append(reads.get(i)).append(' ')
              .append(posted[i + 1] - posted[i]).append('\n');
        }
        System.out.print(sb);
    }
}

/*
 * Diagnostic, not a benchmark: N virtual threads read random 4 KiB blocks of a
 * file, evicted from the page cache first (dd iflag=nocache), for 5 seconds,
 * and print the reads, their rate and the completions the process's io_uring
 * instances posted (the sum of CqTail in the fdinfo of each): how many of the
 * reads the auto policy sent to a ring.
 *
 * Usage (the source launcher):
 *   <jdk>/bin/java [-Djdk.nio.file.ioUring=never] make/experiments/ColdRingShare.java \
 *       <file> <threads>
 */

import java.io.FileInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

public class ColdRingShare {
    static final long NANOS = 5_000_000_000L;

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        int threads = Integer.parseInt(args[1]);
        evict(path);
        AtomicLong reads = new AtomicLong();
        try (FileChannel fc = FileChannel.open(path)) {
            long end = System.nanoTime() + NANOS;
            for (Thread t : startReaders(fc, threads, end, reads::incrementAndGet))
                t.join();
        }
        System.out.printf("%d threads: %d reads (%d/s), ring completions %d%n",
                threads, reads.get(), reads.get() * 1_000_000_000L / NANOS, completions());
    }

    /** Drops the file from the page cache. */
    static void evict(Path path) throws Exception {
        new ProcessBuilder("dd", "if=" + path, "iflag=nocache", "count=0")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start()
                .waitFor();
    }

    /**
     * Starts the given number of idle virtual threads, parked until
     * interrupted, as the threads of idle connections would be.
     */
    static List<Thread> startIdle(int threads) {
        List<Thread> idlers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            idlers.add(Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException expected) { }
            }));
        }
        return idlers;
    }

    /** Interrupts the idle threads and waits for them to end. */
    static void endIdle(List<Thread> idlers) throws InterruptedException {
        for (Thread t : idlers) {
            t.interrupt();
            t.join();
        }
    }

    /**
     * Starts the given number of virtual threads, each reading random 4 KiB
     * blocks of the file in its own loop until System.nanoTime() passes end,
     * and running afterRead after each read.
     */
    static List<Thread> startReaders(FileChannel fc, int threads, long end, Runnable afterRead)
        throws Exception
    {
        long blocks = fc.size() / 4096;
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long seed = t;
            readers.add(Thread.ofVirtual().start(() -> {
                ByteBuffer bb = ByteBuffer.allocateDirect(4096);
                SplittableRandom r = new SplittableRandom(seed);
                try {
                    while (System.nanoTime() - end < 0) {
                        fc.read(bb.clear(), r.nextLong(blocks) * 4096);
                        afterRead.run();
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }));
        }
        return readers;
    }

    /** The completions all io_uring instances of this process have posted. */
    static long completions() throws Exception {
        long n = 0;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (Exception e) {
                    continue;   // closed since listed
                }
                if (!target.contains("io_uring"))
                    continue;
                Path info = Path.of("/proc/self/fdinfo", fd.getFileName().toString());
                String text;
                try (FileInputStream in = new FileInputStream(info.toFile())) {
                    text = new String(in.readAllBytes());
                }
                for (String line : text.split("\n")) {
                    if (line.startsWith("CqTail"))
                        n += Long.parseLong(line.split("\\s+")[1]);
                }
            }
        }
        return n;
    }
}

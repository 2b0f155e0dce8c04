/*
 * Diagnostic, not a benchmark: what a virtual thread's switch costs, the
 * price of batching io_uring submissions by letting the other virtual
 * threads of a carrier queue theirs first. THREADS virtual threads call
 * Thread.yield() in a loop, 2M yields in all a round; each round prints the
 * wall-clock time per yield (with P carriers running in parallel, a carrier
 * spends P times that on each).
 *
 * Usage (the source launcher):
 *   <jdk>/bin/java [-Djdk.virtualThreadScheduler.parallelism=P] \
 *       make/experiments/YieldCost.java [threads, 256] [rounds, 5]
 */

public class YieldCost {
    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        long yields = 2_000_000;
        long each = yields / threads;
        for (int round = 1; round <= rounds; round++) {
            Thread[] vts = new Thread[threads];
            long start = System.nanoTime();
            for (int i = 0; i < threads; i++) {
                vts[i] = Thread.ofVirtual().start(() -> {
                    for (long k = 0; k < each; k++)
                        Thread.yield();
                });
            }
            for (Thread vt : vts)
                vt.join();
            long ns = System.nanoTime() - start;
            System.out.printf("round %d: %d virtual threads, %.0f ns per yield%n",
                              round, threads, (double) ns / (each * threads));
        }
    }
}

/*
 * Copyright (c) 2026, nio-uring contributors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.
 *
 * This code is distributed in the hope that it will be useful, but WITHOUT
 * ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 * version 2 for more details (a copy is included in the LICENSE file that
 * accompanied this code).
 *
 * You should have received a copy of the GNU General Public License version
 * 2 along with this work; if not, write to the Free Software Foundation,
 * Inc., 51 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA.
 *
 * Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
 * or visit www.oracle.com if you need additional information or have any
 * questions.
 */

/*
 * @test id=auto
 * @summary Which positional operations each io_uring mode sends to the ring, counted
 *          by the completions the rings post: in auto, none of these reads and writes
 *          of cached data and O_DIRECT by one thread at a time (writes, platform
 *          threads, cached reads and a lone O_DIRECT read keep pread/pwrite), nor
 *          cold reads by one virtual thread, alone or beside many idle ones, but
 *          cold reads by many, each reading in its own loop or many requests at a
 *          time each on a new thread, also once a file whose data many read
 *          cached is dropped from the page cache; in always every one, in never
 *          none
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @run main/othervm -Djdk.nio.file.ioUring=auto IoUringRouting
 */

/*
 * @test id=auto-beside-idle
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @run main/othervm -Djdk.nio.file.ioUring=auto IoUringRouting beside
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always IoUringRouting
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @run main/othervm -Djdk.nio.file.ioUring=never IoUringRouting
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import com.sun.nio.file.ExtendedOpenOption;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;

public class IoUringRouting {
    static final Random RAND = RandomFactory.getRandom();
    static final String MODE = System.getProperty("jdk.internal.nio.ioUring.mode", System.getProperty("jdk.nio.file.ioUring"));
    static final int OPS = 64;
    static final int BLOCKS = 256;

    enum Open { BUFFERED, DSYNC, DIRECT }

    record Case(boolean virtual, boolean write, Open open, boolean heap) {
        /** Whether each operation of this case must go through a ring. */
        boolean ring() {
            return switch (MODE) {
                case "always" -> true;
                case "never" -> false;
                // the data is cached, so reads by virtual threads do not need
                // the ring, and an O_DIRECT read by one virtual thread at a
                // time is compensated for, as upstream
                case "auto" -> false;
                default -> throw new RuntimeException("mode " + MODE);
            };
        }

        @Override
        public String toString() {
            return (virtual ? "virtual " : "platform ") + (write ? "write " : "read ")
                    + open + (heap ? " heap" : " direct");
        }
    }

    public static void main(String[] args) throws Throwable {
        if (args.length > 0 && args[0].equals("beside")) {
            besideIdle();
            return;
        }
        Path file = Files.createTempFile(Path.of("."), "routing", ".dat");
        try {
            int align = (int) Files.getFileStore(file).getBlockSize();
            byte[] reference = new byte[BLOCKS * align];
            RAND.nextBytes(reference);
            Files.write(file, reference);
            boolean direct = true;
            try {
                FileChannel.open(file, READ, ExtendedOpenOption.DIRECT).close();
            } catch (IOException | UnsupportedOperationException e) {
                System.out.println("O_DIRECT not supported here, its cases skipped: " + e);
                direct = false;
            }

            // the first operation that needs a ring sets the rings up, and the probe
            // posts a completion: in auto, an O_DIRECT read by a virtual thread
            try (FileChannel fc = direct ? FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)
                                         : FileChannel.open(file, READ)) {
                onVirtualThread(() -> fc.read(ByteBuffer.allocateDirect(2 * align).alignedSlice(align), 0));
            }

            List<String> failures = new ArrayList<>();
            for (boolean virtual : new boolean[] { false, true }) {
                for (boolean write : new boolean[] { false, true }) {
                    for (Open open : Open.values()) {
                        if (open == Open.DIRECT && !direct)
                            continue;
                        for (boolean heap : new boolean[] { false, true }) {
                            Case c = new Case(virtual, write, open, heap);
                            // an O_DIRECT write evicts the blocks it wrote from the page
                            // cache: read the file into it again (and check it)
                            if (!Arrays.equals(Files.readAllBytes(file), reference))
                                throw new RuntimeException("file differs from the reference before " + c);
                            long before = IoUringRings.completions();
                            Runnable ops = () -> run(c, file, align, reference);
                            if (virtual) {
                                onVirtualThread(() -> { ops.run(); return 0; });
                            } else {
                                ops.run();
                            }
                            long used = IoUringRings.completions() - before;
                            // an operation through a ring posts its completion, and at most
                            // one more that wakes the ring's thread
                            long expected = c.ring() ? OPS : 0;
                            System.out.printf("%-32s ring completions %d, expected %d to %d%n",
                                              c, used, expected, 2 * expected);
                            if (used < expected || used > 2 * expected)
                                failures.add(c + ": " + used + " ring completions, expected "
                                             + expected + " to " + 2 * expected);
                        }
                    }
                }
            }
            if (MODE.equals("auto") && !IoUringRings.fds().isEmpty())
                coldPolicy(direct, failures);
            if (MODE.equals("never") && !IoUringRings.fds().isEmpty())
                failures.add("never: io_uring fds open: " + IoUringRings.fds());
            if (!failures.isEmpty())
                throw new RuntimeException("routing differs from the " + MODE + " policy: " + failures);
        } finally {
            Files.deleteIfExists(file);
        }
        System.out.println("passed");
    }

    /**
     * auto, cold data: the reads of one virtual thread block its carrier, as
     * upstream's do (nothing else wants the carrier), and none reaches a ring,
     * buffered or O_DIRECT. When many virtual threads read at once, most reads
     * wait for the device while other virtual threads wait for a carrier or
     * are parked on a ring: they park on a ring (at least a quarter of all
     * reads; the first and last of a round may find nothing else waiting).
     * Few, twice the parallelism, may take either path. Last, many read the
     * file's cached data through one channel, which reaches no ring, then the
     * same once the data is dropped, and those that would block park on a
     * ring.
     */
    static void coldPolicy(boolean direct, List<String> failures) throws Throwable {
        int parallelism = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                Runtime.getRuntime().availableProcessors());
        int few = 2 * parallelism;
        int many = Math.max(64, 16 * parallelism);
        int blocks = 16384;
        Path big = Files.createTempFile(Path.of("."), "routing-cold", ".dat");
        try {
            byte[] data = new byte[blocks * 4096];
            RAND.nextBytes(data);
            writeBack(big, data);
            if (!IoUringRings.canEvict(big)) {
                System.out.println("the page cache keeps " + big + " here: cold cases skipped");
                return;
            }
            for (boolean odirect : direct ? new boolean[] { false, true } : new boolean[] { false }) {
                for (int threads : new int[] { 1, few, many }) {
                    long before = IoUringRings.completions();
                    IoUringRings.evict(big);
                    coldRound(big, odirect, threads, blocks, data);
                    long reads = (long) threads * OPS;
                    long used = IoUringRings.completions() - before;
                    String c = "cold " + (odirect ? "O_DIRECT" : "buffered") + " reads, "
                            + threads + " virtual thread(s)";
                    System.out.printf("%-44s reads %d, ring completions %d%n", c, reads, used);
                    if (threads == 1 && used != 0)
                        failures.add(c + ": " + used + " ring completions, expected none");
                    if (threads == many && used < reads / 4)
                        failures.add(c + ": " + used + " ring completions, expected "
                                     + reads / 4 + " or more");
                }
            }

            // many read the file's data while it is cached, then once it is dropped
            try (FileChannel fc = FileChannel.open(big, READ)) {
                Files.readAllBytes(big);
                long before = IoUringRings.completions();
                for (int i = 0; i < 4; i++)
                    readRound(fc, many, blocks, data);
                long used = IoUringRings.completions() - before;
                long reads = 4L * many * OPS;
                String c = "cached buffered reads, " + many + " virtual threads";
                System.out.printf("%-44s reads %d, ring completions %d%n", c, reads, used);
                // but the kernel may drop a page before it is read
                // (IoUringCounts.mayMiss)
                if (used > IoUringCounts.mayMiss(reads))
                    failures.add(c + ": " + used + " ring completions, expected at most "
                                 + IoUringCounts.mayMiss(reads));
                IoUringRings.evict(big);
                before = IoUringRings.completions();
                readRound(fc, many, blocks, data);
                used = IoUringRings.completions() - before;
                reads = (long) many * OPS;
                c = "the same, then dropped from the page cache";
                System.out.printf("%-44s reads %d, ring completions %d%n", c, reads, used);
                if (used < reads / 4)
                    failures.add(c + ": " + used + " ring completions, expected "
                                 + reads / 4 + " or more");
            }
        } finally {
            Files.deleteIfExists(big);
        }
    }

    /**
     * auto, in a VM of its own: cold reads by one virtual thread reading in
     * its own loop beside many idle ones reach no ring (idle threads do not
     * want a carrier); those of many such threads do, and so do those of many
     * requests at a time, each a few reads on a new virtual thread. The rings
     * are set up first, as in main.
     */
    static void besideIdle() throws Throwable {
        int parallelism = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                Runtime.getRuntime().availableProcessors());
        int many = Math.max(64, 16 * parallelism);
        Path big = Files.createTempFile(Path.of("."), "routing-beside", ".dat");
        try {
            byte[] data = new byte[16384 * 4096];
            RAND.nextBytes(data);
            writeBack(big, data);
            if (!IoUringRings.canEvict(big)) {
                System.out.println("the page cache keeps " + big + " here: skipped");
                return;
            }
            try (FileChannel fc = FileChannel.open(big, READ, ExtendedOpenOption.DIRECT)) {
                onVirtualThread(() -> fc.read(ByteBuffer.allocateDirect(8192).alignedSlice(4096), 0));
            } catch (IOException | UnsupportedOperationException e) {
                System.out.println("O_DIRECT not supported here, rings not set up: " + e);
            }
            if (IoUringRings.fds().isEmpty()) {
                System.out.println("no ring here: skipped");
                return;
            }
            for (int threads : new int[] { 1, many }) {
                for (boolean requests : (threads == 1) ? new boolean[] { false }
                                                       : new boolean[] { false, true }) {
                    long before = IoUringRings.completions();
                    long reads = beside(big, threads, many, data, requests);
                    long used = IoUringRings.completions() - before;
                    String c = "cold buffered reads, " + threads
                            + (requests ? " requests at a time" : " virtual thread(s)")
                            + " beside " + many + " idle";
                    System.out.printf("%-60s reads %d, ring completions %d%n", c, reads, used);
                    if (threads == 1 && used != 0)
                        throw new RuntimeException(c + ": " + used
                                                   + " ring completions, expected none");
                    if (threads == many && used < reads / 4)
                        throw new RuntimeException(c + ": " + used + " ring completions,"
                                                   + " expected " + reads / 4 + " or more");
                }
            }
        } finally {
            Files.deleteIfExists(big);
        }
        System.out.println("passed");
    }

    /**
     * auto, cold data: the given number of virtual threads read random blocks
     * of the file for a second, each checking two bytes of every
     * block against the data, while the file is evicted every 20 ms and the
     * given number of other virtual threads wait, parked, for the readers to
     * finish. With requests, each reader reads 4 blocks and ends, and a new
     * one takes its place. Returns the number of reads.
     */
    static long beside(Path file, int threads, int idle, byte[] data, boolean requests)
        throws Throwable
    {
        int blocks = data.length / 4096;
        CountDownLatch done = new CountDownLatch(1);
        List<Thread> idlers = new ArrayList<>();
        for (int t = 0; t < idle; t++) {
            idlers.add(Thread.ofVirtual().start(() -> {
                try {
                    done.await();
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
            }));
        }
        List<Thread> readers = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        AtomicLong reads = new AtomicLong();
        long end = System.nanoTime() + 1_000_000_000L;
        try (FileChannel fc = FileChannel.open(file, READ)) {
            if (requests) {
                long seed = RAND.nextLong();
                readers.add(Thread.ofPlatform().start(() -> {
                    Random r = new Random(seed);
                    Semaphore slots = new Semaphore(threads);
                    while (System.nanoTime() - end < 0) {
                        slots.acquireUninterruptibly();
                        long requestSeed = r.nextLong();
                        Thread.ofVirtual().start(() -> {
                            Random rr = new Random(requestSeed);
                            ByteBuffer bb = ByteBuffer.allocateDirect(4096);
                            try {
                                for (int i = 0; i < 4; i++) {
                                    readBlock(fc, bb, rr.nextInt(blocks), data);
                                    reads.incrementAndGet();
                                }
                            } catch (Throwable e) {
                                failure[0] = e;
                            } finally {
                                slots.release();
                            }
                        });
                    }
                    slots.acquireUninterruptibly(threads);
                }));
            }
            for (int t = 0; !requests && t < threads; t++) {
                long seed = RAND.nextLong();
                readers.add(Thread.ofVirtual().start(() -> {
                    Random r = new Random(seed);
                    ByteBuffer bb = ByteBuffer.allocateDirect(4096);
                    try {
                        while (System.nanoTime() - end < 0) {
                            readBlock(fc, bb, r.nextInt(blocks), data);
                            reads.incrementAndGet();
                        }
                    } catch (Throwable e) {
                        failure[0] = e;
                    }
                }));
            }
            while (System.nanoTime() - end < 0) {
                IoUringRings.evict(file);
                Thread.sleep(20);
            }
            for (Thread t : readers)
                t.join();
        } finally {
            done.countDown();
            for (Thread t : idlers)
                t.join();
        }
        if (failure[0] != null)
            throw failure[0];
        return reads.get();
    }

    /**
     * Writes the data to the file and waits until it is written back, so that
     * the page cache can drop it (dirty pages it keeps).
     */
    static void writeBack(Path file, byte[] data) throws IOException {
        try (FileChannel fc = FileChannel.open(file, WRITE, TRUNCATE_EXISTING)) {
            fc.write(ByteBuffer.wrap(data));
            fc.force(false);
        }
    }

    /**
     * Reads the given 4 KiB block of the file into bb (of at least 4 KiB) and
     * checks its first and last byte against the data.
     */
    static void readBlock(FileChannel fc, ByteBuffer bb, int block, byte[] data)
        throws IOException
    {
        if (fc.read(bb.clear().limit(4096), block * 4096L) != 4096
                || bb.get(0) != data[block * 4096]
                || bb.get(4095) != data[block * 4096 + 4095])
            throw new RuntimeException("wrong read of block " + block);
    }

    /**
     * The given number of virtual threads each read OPS random blocks of the
     * file and check two bytes of each against the data.
     */
    static void coldRound(Path file, boolean odirect, int threads, int blocks, byte[] data)
        throws Throwable
    {
        try (FileChannel fc = odirect ? FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)
                                      : FileChannel.open(file, READ)) {
            readRound(fc, threads, blocks, data);
        }
    }

    /**
     * The given number of virtual threads each read OPS random blocks through
     * the given channel and check two bytes of each against the data.
     */
    static void readRound(FileChannel fc, int threads, int blocks, byte[] data)
        throws Throwable
    {
        List<Thread> readers = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++) {
            long seed = RAND.nextLong();
            readers.add(Thread.ofVirtual().start(() -> {
                Random r = new Random(seed);
                ByteBuffer bb = ByteBuffer.allocateDirect(8192).alignedSlice(4096).limit(4096);
                try {
                    for (int i = 0; i < OPS; i++) {
                        readBlock(fc, bb, r.nextInt(blocks), data);
                    }
                } catch (Throwable e) {
                    failure[0] = e;
                }
            }));
        }
        for (Thread t : readers)
            t.join();
        if (failure[0] != null)
            throw failure[0];
    }

    /**
     * OPS reads or writes of one block at random block positions; a write puts
     * back the bytes the file already holds, so every read can be checked
     * against the reference.
     */
    static void run(Case c, Path file, int align, byte[] reference) {
        List<OpenOption> opts = new ArrayList<>(List.of(READ, WRITE));
        if (c.open() == Open.DSYNC)
            opts.add(DSYNC);
        if (c.open() == Open.DIRECT)
            opts.add(ExtendedOpenOption.DIRECT);
        try (FileChannel fc = FileChannel.open(file, opts.toArray(OpenOption[]::new))) {
            for (int i = 0; i < OPS; i++) {
                int block = RAND.nextInt(BLOCKS);
                ByteBuffer bb = c.heap() ? ByteBuffer.allocate(align)
                                         : ByteBuffer.allocateDirect(2 * align).alignedSlice(align).limit(align);
                if (c.write()) {
                    bb.put(reference, block * align, align).flip();
                    int n = fc.write(bb, (long) block * align);
                    if (n != align || bb.hasRemaining())
                        throw new RuntimeException(c + ": write returned " + n);
                } else {
                    int n = fc.read(bb, (long) block * align);
                    if (n != align)
                        throw new RuntimeException(c + ": read returned " + n);
                    for (int k = 0; k < align; k++) {
                        if (bb.get(k) != reference[block * align + k])
                            throw new RuntimeException(c + ": byte " + k + " of block " + block + " differs");
                    }
                }
            }
        } catch (IOException e) {
            throw new RuntimeException(c + ": " + e, e);
        }
    }

    interface IOCall {
        int call() throws IOException;
    }

    static void onVirtualThread(IOCall task) throws Throwable {
        Throwable[] failure = new Throwable[1];
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                task.call();
            } catch (Throwable e) {
                failure[0] = e;
            }
        });
        t.join();
        if (failure[0] != null)
            throw failure[0];
    }
}

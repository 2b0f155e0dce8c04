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
 * @summary In auto mode, a file whose data the reads of a virtual thread keep
 *          finding in the page cache is read with plain pread, and one read
 *          each tick of a clock thread is timed. The clock runs only while
 *          such reads go on: they start it, it ends once they have stopped,
 *          and the next start it again. Platform threads and never mode
 *          start no clock. The bytes read, positional and relative, are the
 *          file's throughout
 * @requires os.family == "linux"
 * @run main/othervm -Djdk.nio.file.ioUring=auto IoUringStreakClock true
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @run main/othervm -Djdk.nio.file.ioUring=never IoUringStreakClock false
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import static java.nio.file.StandardOpenOption.READ;

public class IoUringStreakClock {
    static final String CLOCK = "IoUring-Streak-Clock";
    static final int BLOCK = 4096;
    static final int BLOCKS = 1024;
    static final int READS = 8192;

    public static void main(String[] args) throws Throwable {
        boolean auto = Boolean.parseBoolean(args[0]);
        Path file = Files.createTempFile(Path.of("."), "streak", ".dat");
        byte[] data = new byte[BLOCKS * BLOCK];
        new Random(42).nextBytes(data);
        Files.write(file, data);
        Files.readAllBytes(file);

        try (FileChannel fc = FileChannel.open(file, READ)) {
            // platform threads: no clock
            readBlocks(fc, data, false);
            check(!clockAlive(), "a clock after platform threads' reads");

            // a virtual thread's reads reach the streak: the clock runs
            readBlocks(fc, data, true);
            check(clockAlive() == auto, "clock alive after a virtual thread's reads: "
                  + clockAlive() + ", expected " + auto);
            if (auto) {
                // it ends once nobody reads at a streak (after a second)
                long start = System.nanoTime();
                long deadline = start + 20_000_000_000L;
                while (clockAlive() && System.nanoTime() - deadline < 0)
                    Thread.sleep(10);
                check(!clockAlive(), "the clock still runs 20 s after the last read");
                System.out.println("the clock ended " + (System.nanoTime() - start) / 1_000_000
                                   + " ms after the last read");

                // the file's streak has ended with it; reads give it another
                readBlocks(fc, data, true);
                check(clockAlive(), "no clock after the reads that followed");
            }

            // relative reads by a virtual thread, the file read through
            run(true, () -> {
                for (int round = 0; round < 8; round++) {
                    fc.position(0);
                    ByteBuffer buf = ByteBuffer.allocateDirect(BLOCK);
                    byte[] got = new byte[BLOCK];
                    for (int b = 0; b < BLOCKS; b++) {
                        buf.clear();
                        int n = fc.read(buf);
                        check(n == BLOCK, "relative read " + b + " returned " + n);
                        buf.flip().get(got);
                        check(Arrays.equals(got, 0, BLOCK, data, b * BLOCK, (b + 1) * BLOCK),
                              "relative read " + b + ": wrong bytes");
                    }
                    buf.clear();
                    int n = fc.read(buf);
                    check(n == -1, "read at end of file returned " + n);
                }
            });
        } finally {
            Files.deleteIfExists(file);
        }
        System.out.println("OK");
    }

    /**
     * Reads READS random blocks at their positions, on a platform or a
     * virtual thread, and checks each against the data.
     */
    static void readBlocks(FileChannel fc, byte[] data, boolean virtual) throws Throwable {
        run(virtual, () -> {
            Random random = new Random(7);
            ByteBuffer buf = ByteBuffer.allocateDirect(BLOCK);
            byte[] got = new byte[BLOCK];
            for (int i = 0; i < READS; i++) {
                int b = random.nextInt(BLOCKS);
                buf.clear();
                int n = fc.read(buf, (long) b * BLOCK);
                check(n == BLOCK, "read of block " + b + " returned " + n);
                buf.flip().get(got);
                check(Arrays.equals(got, 0, BLOCK, data, b * BLOCK, (b + 1) * BLOCK),
                      "block " + b + ": wrong bytes");
            }
        });
    }

    interface Task {
        void run() throws Exception;
    }

    /**
     * Runs the task on a new virtual or platform thread, waits for it, and
     * throws what it threw.
     */
    static void run(boolean virtual, Task task) throws Throwable {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable r = () -> {
            try {
                task.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        };
        Thread t = virtual ? Thread.ofVirtual().start(r) : Thread.ofPlatform().start(r);
        t.join();
        if (failure.get() != null)
            throw failure.get();
    }

    static boolean clockAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(CLOCK) && t.isAlive());
    }

    static void check(boolean ok, String what) {
        if (!ok)
            throw new RuntimeException(what);
    }
}

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
 * @summary Virtual threads pinned to the only carrier do positional reads and
 *          writes that park on io_uring: every one completes with the right bytes,
 *          so completions must not need a carrier (a reaper that is itself a virtual
 *          thread, e.g. one parked in the Poller, would never run)
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @modules java.base/jdk.internal.vm
 * @run main/othervm -Djdk.nio.file.ioUring=auto -Djdk.virtualThreadScheduler.parallelism=1
 *                   -Djdk.virtualThreadScheduler.maxPoolSize=1 IoUringPinned
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @modules java.base/jdk.internal.vm
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always -Djdk.virtualThreadScheduler.parallelism=1
 *                   -Djdk.virtualThreadScheduler.maxPoolSize=1 IoUringPinned
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory
 * @modules java.base/jdk.internal.vm
 * @run main/othervm -Djdk.nio.file.ioUring=never -Djdk.virtualThreadScheduler.parallelism=1
 *                   -Djdk.virtualThreadScheduler.maxPoolSize=1 IoUringPinned
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
import java.util.concurrent.atomic.AtomicReference;
import com.sun.nio.file.ExtendedOpenOption;
import static java.nio.file.StandardOpenOption.*;

import jdk.internal.vm.Continuation;
import jdk.test.lib.RandomFactory;

public class IoUringPinned {
    static final Random RAND = RandomFactory.getRandom();
    static final int BLOCKS = 256;
    static final int THREADS = 4;
    static final int OPS = 100;

    public static void main(String[] args) throws Exception {
        Path file = Files.createTempFile(Path.of("."), "pinned", ".dat");
        try {
            int align = (int) Files.getFileStore(file).getBlockSize();
            byte[] reference = new byte[BLOCKS * align];
            RAND.nextBytes(reference);
            Files.write(file, reference);
            boolean direct = directSupported(file);
            // the first positional operation of the VM is one of these, so the
            // ring is also created and its reaper started from a pinned thread
            run(file, align, reference, false);
            if (direct) {
                run(file, align, reference, true);
            } else {
                System.out.println("O_DIRECT not supported here, buffered only");
            }
        } finally {
            Files.deleteIfExists(file);
        }
        System.out.println("passed");
    }

    static boolean directSupported(Path file) {
        try (FileChannel fc = FileChannel.open(file, READ, ExtendedOpenOption.DIRECT)) {
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /**
     * THREADS virtual threads, each pinned for all of its OPS reads and writes,
     * on a scheduler with one carrier and no spares.
     */
    static void run(Path file, int align, byte[] reference, boolean direct) throws Exception {
        OpenOption[] opts = direct ? new OpenOption[] { READ, WRITE, ExtendedOpenOption.DIRECT }
                                   : new OpenOption[] { READ, WRITE };
        AtomicReference<Throwable> failure = new AtomicReference<>();
        FileChannel fc = FileChannel.open(file, opts);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            long seed = RAND.nextLong();
            int lane = t;
            threads.add(Thread.ofVirtual().start(() -> {
                Continuation.pin();
                try {
                    ops(fc, align, reference, lane, new Random(seed));
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    Continuation.unpin();
                }
            }));
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (Thread t : threads) {
            t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            if (t.isAlive()) {
                System.err.println(t);
                for (StackTraceElement e : t.getStackTrace())
                    System.err.println("    at " + e);
                // not closed: close would wait for the operation in flight
                throw new RuntimeException("pinned virtual thread does not finish"
                                           + (direct ? " (O_DIRECT)" : ""));
            }
        }
        fc.close();
        if (failure.get() != null)
            throw new RuntimeException("failed" + (direct ? " (O_DIRECT)" : ""), failure.get());
        System.out.println((direct ? "O_DIRECT" : "buffered") + ": " + THREADS + " x " + OPS
                           + " pinned operations");
    }

    /**
     * Reads blocks and compares them with the reference; the thread's own lane
     * of blocks (index % THREADS == lane) is also rewritten with new content.
     */
    static void ops(FileChannel fc, int align, byte[] reference, int lane, Random rand)
        throws IOException
    {
        // one block, aligned; the aligned slice of two blocks may hold two
        ByteBuffer bb = ByteBuffer.allocateDirect(2 * align).alignedSlice(align).limit(align).slice();
        byte[] bytes = new byte[align];
        for (int i = 0; i < OPS; i++) {
            int block = rand.nextInt(BLOCKS / THREADS) * THREADS + lane;
            long pos = (long) block * align;
            if (rand.nextBoolean()) {
                rand.nextBytes(bytes);
                synchronized (reference) {
                    System.arraycopy(bytes, 0, reference, (int) pos, align);
                }
                bb.clear().put(bytes).flip();
                int n = fc.write(bb, pos);
                if (n != align)
                    throw new RuntimeException("write at " + pos + " returned " + n);
            } else {
                bb.clear();
                int n = fc.read(bb, pos);
                if (n != align)
                    throw new RuntimeException("read at " + pos + " returned " + n);
                bb.flip().get(bytes);
                byte[] expected;
                synchronized (reference) {
                    expected = Arrays.copyOfRange(reference, (int) pos, (int) pos + align);
                }
                if (!Arrays.equals(bytes, expected))
                    throw new RuntimeException("wrong bytes read at " + pos);
            }
        }
    }
}

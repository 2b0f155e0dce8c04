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

/*
 * @test id=always
 * @summary An AsynchronousFileChannel's executor whose ThreadFactory blocks: the factory runs
 *          neither on a ring's reaper nor inside another thread's FileChannel read, and the
 *          FileChannel reads of virtual threads on the same ring complete while it blocks
 * @requires os.family == "linux"
 * @library /test/lib ../FileChannel
 * @build IoUringRings IoUringAsyncChannels
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always -Djdk.internal.nio.ioUring.rings=1
 *                   -Djdk.virtualThreadScheduler.parallelism=1 IoUringAsyncFactory
 */

/*
 * @test id=auto
 * @requires os.family == "linux"
 * @library /test/lib ../FileChannel
 * @build IoUringRings IoUringAsyncChannels
 * @run main/othervm -Djdk.internal.nio.ioUring.rings=1 -Djdk.virtualThreadScheduler.parallelism=1
 *                   IoUringAsyncFactory
 */

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import static java.nio.file.StandardOpenOption.*;

/**
 * A virtual thread starts reads on an AsynchronousFileChannel whose executor,
 * a ThreadPoolExecutor with no thread yet, has a ThreadFactory that blocks
 * until released. While it blocks, a virtual thread on the same carrier, and
 * so the same ring, reads a cold file through a FileChannel: its reads must
 * complete, as they do with upstream's channel, whose executor is called only
 * by the thread that starts an operation. Then the factory is released and
 * every asynchronous read completes with the right bytes.
 */
public class IoUringAsyncFactory {
    static final int BLOCK = 4096;
    static final int BLOCKS = 4096;         // 16 MiB
    static final int READS = 200;

    static final CountDownLatch entered = new CountDownLatch(1);
    static final CountDownLatch release = new CountDownLatch(1);
    static final List<Thread> factoryThreads = new CopyOnWriteArrayList<>();
    static volatile Thread reader;

    public static void main(String[] args) throws Exception {
        byte[] data = new byte[BLOCKS * BLOCK];
        new Random(11).nextBytes(data);
        Path f = IoUringAsyncChannels.createFile("factory", data);
        ThreadFactory blocking = r -> {
            factoryThreads.add(Thread.currentThread());
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Thread(r);
        };
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), blocking);
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(f, Set.of(READ), executor);
             FileChannel fc = FileChannel.open(f, READ)) {
            IoUringAsyncChannels.checkImplementation(ch);
            IoUringRings.evict(f);

            // asynchronous reads from a virtual thread: the first one's task
            // (upstream) or completion (io_uring) asks the factory for a thread
            IoUringAsyncChannels.Outcome<?>[] outcomes = new IoUringAsyncChannels.Outcome<?>[8];
            ByteBuffer[] buffers = new ByteBuffer[outcomes.length];
            // (upstream's read, and so this thread, waits for the factory)
            for (int i = 0; i < outcomes.length; i++) {
                outcomes[i] = new IoUringAsyncChannels.Outcome<Integer>(ch);
                buffers[i] = ByteBuffer.allocateDirect(BLOCK);
            }
            Thread initiator = Thread.ofVirtual().start(() -> {
                for (int i = 0; i < outcomes.length; i++) {
                    @SuppressWarnings("unchecked")
                    var o = (IoUringAsyncChannels.Outcome<Integer>) outcomes[i];
                    ch.read(buffers[i], (long) i * 97 * BLOCK, null, o);
                }
            });
            if (!entered.await(60, TimeUnit.SECONDS))
                throw new RuntimeException("the executor never asked for a thread");

            // FileChannel reads of the cold file by a virtual thread on the one carrier
            long start = System.nanoTime();
            reader = Thread.ofVirtual().unstarted(() -> {
                ByteBuffer bb = ByteBuffer.allocateDirect(BLOCK);
                try {
                    for (int i = 0; i < READS; i++)
                        IoUringRings.readAndCheck(fc, bb, data, ((i * 131) % BLOCKS) * BLOCK);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            reader.start();
            boolean done = reader.join(java.time.Duration.ofSeconds(60));
            long millis = (System.nanoTime() - start) / 1_000_000;
            release.countDown();
            if (!done) {
                reader.join();
                throw new RuntimeException(READS + " FileChannel reads did not complete in 60 s"
                                           + " while the executor's factory blocked");
            }
            System.out.println(READS + " FileChannel reads in " + millis
                               + " ms while the factory blocked");

            initiator.join();
            for (int i = 0; i < outcomes.length; i++) {
                int n = (Integer) outcomes[i].get();
                IoUringAsyncChannels.checkRead(n, BLOCK, buffers[i], data, (long) i * 97 * BLOCK);
            }
        } finally {
            release.countDown();
            executor.shutdown();
            Files.delete(f);
        }
        System.out.println("factory called on " + factoryThreads);
        for (Thread t : factoryThreads) {
            if (t.getName().startsWith("IoUring-Reaper") || t == reader)
                throw new RuntimeException("the executor's ThreadFactory ran on " + t);
        }
        System.out.println("passed");
    }
}

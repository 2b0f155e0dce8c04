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
 * @test id=submit
 * @summary A ring that dies under an AsynchronousFileChannel (the 40th submission fails,
 *          or the reaper's third wait for completions) while four threads start reads and
 *          writes: every one, in flight or queued then or started later, completes once with
 *          the bytes pread/pwrite give, through the ring, pread/pwrite in the executor's task,
 *          or upstream's channel; and close returns
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm -Djdk.internal.nio.ioUring.rings=1 -Djdk.internal.nio.ioUring.testFault=submit:40
 *      IoUringAsyncFault
 */

/*
 * @test id=wait
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm -Djdk.internal.nio.ioUring.rings=1 -Djdk.internal.nio.ioUring.testFault=wait:3
 *      IoUringAsyncFault
 */

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;

public class IoUringAsyncFault {
    static final Random RAND = RandomFactory.getRandom();
    static final int BLOCK = 4096;
    static final int FILE_SIZE = 16 << 20;
    static final int OPS = 400;
    static final int THREADS = 4;

    public static void main(String[] args) throws Exception {
        byte[] data = IoUringAsyncChannels.randomBytes(RAND, FILE_SIZE);
        Path file = IoUringAsyncChannels.createFile("fault", data);
        try {
            AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ, WRITE);
            boolean uring = IoUringAsyncChannels.checkImplementation(ch);
            System.out.println("io_uring channel: " + uring);
            List<Integer> blocks = new ArrayList<>();
            for (int i = 0; i < FILE_SIZE / BLOCK; i++)
                blocks.add(i);
            Collections.shuffle(blocks, RAND);
            // rounds of OPS operations started by THREADS threads at once (an
            // operation started while the ring dies is the one most easily lost),
            // the ring dying during the first
            for (int round = 0; round < 3; round++) {
                IoUringRings.evict(file);
                List<IoUringAsyncChannels.Outcome<Integer>> outcomes = new ArrayList<>();
                List<ByteBuffer> buffers = new ArrayList<>();
                List<byte[]> written = new ArrayList<>();
                for (int i = 0; i < OPS; i++) {
                    ByteBuffer bb = IoUringAsyncChannels.buffer(i % 2 == 0, BLOCK);
                    if (i % 3 == 0) {
                        byte[] b = IoUringAsyncChannels.randomBytes(RAND, BLOCK);
                        bb.put(0, b);
                        written.add(b);
                    } else {
                        written.add(null);
                    }
                    outcomes.add(new IoUringAsyncChannels.Outcome<>(ch));
                    buffers.add(bb);
                }
                int first = round * OPS;
                CountDownLatch go = new CountDownLatch(1);
                List<Thread> starters = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int start = t;
                    starters.add(Thread.ofPlatform().start(() -> {
                        try {
                            go.await();
                        } catch (InterruptedException e) {
                            throw new RuntimeException(e);
                        }
                        for (int i = start; i < OPS; i += THREADS) {
                            long position = (long) blocks.get(first + i) * BLOCK;
                            if (written.get(i) != null)
                                ch.write(buffers.get(i), position, null, outcomes.get(i));
                            else
                                ch.read(buffers.get(i), position, null, outcomes.get(i));
                        }
                    }));
                }
                go.countDown();
                for (Thread t : starters)
                    t.join();
                for (int i = 0; i < OPS; i++) {
                    int position = blocks.get(first + i) * BLOCK;
                    int n = outcomes.get(i).get();
                    if (written.get(i) != null) {
                        if (n != BLOCK)
                            throw new RuntimeException("wrote " + n + " at " + position);
                        System.arraycopy(written.get(i), 0, data, position, BLOCK);
                    } else {
                        IoUringAsyncChannels.checkRead(n, BLOCK, buffers.get(i), data, position);
                    }
                }
                System.out.println("round " + round + ": " + OPS + " operations done");
            }
            ch.close();
            if (!Arrays.equals(Files.readAllBytes(file), data))
                throw new RuntimeException("the file is not what was written");
            // the ring is dead: a new channel is upstream's
            try (AsynchronousFileChannel other = AsynchronousFileChannel.open(file, READ)) {
                System.out.println("after the fault: " + other.getClass().getName());
                if (uring && !other.getClass().getName().equals(IoUringAsyncChannels.SIMPLE))
                    throw new RuntimeException("a dead ring's channel: " + other.getClass().getName());
            }
        } finally {
            Files.delete(file);
        }
        System.out.println("passed");
    }
}

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
 * @summary AsynchronousFileChannel reads and writes initiated by an interrupted platform or
 *          virtual thread, also while a full ring queues its operations:
 *          the operation is done as if it had not been interrupted, the channel stays open
 *          and the thread keeps its interrupt status; a thread interrupted in Future.get()
 *          does not stop the operation; a handler's interrupt does not reach the next handler
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=600 IoUringAsyncInterrupt
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=600 -Djdk.nio.file.ioUring=never IoUringAsyncInterrupt
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=600 -Djdk.internal.nio.ioUring.mode=always IoUringAsyncInterrupt
 */

/*
 * @test id=depth8
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=600 -Djdk.internal.nio.ioUring.depth=8 IoUringAsyncInterrupt
 */

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;

public class IoUringAsyncInterrupt {
    static final Random RAND = RandomFactory.getRandom();
    static final int BLOCK = 4096;
    static final int FILE_SIZE = 32 << 20;

    static byte[] data;

    public static void main(String[] args) throws Exception {
        data = IoUringAsyncChannels.randomBytes(RAND, FILE_SIZE);
        Path file = IoUringAsyncChannels.createFile("interrupt", data);
        try {
            for (boolean virtual : new boolean[] { false, true }) {
                interruptedInitiator(file, virtual);
                interruptedWhileInitiating(file, virtual);
                interruptedInGet(file, virtual);
            }
            handlerInterrupt(file);
        } finally {
            Files.delete(file);
        }
        System.out.println("passed");
    }

    static long randomBlock() {
        return (long) RAND.nextInt(FILE_SIZE / BLOCK) * BLOCK;
    }

    static void checkRead(int n, ByteBuffer bb, long position) {
        IoUringAsyncChannels.checkRead(n, BLOCK, bb, data, position);
    }

    /**
     * Reads and writes, both forms, each started with the interrupt status
     * set: each completes as usual, and the status is still set after the
     * call.
     */
    static void interruptedInitiator(Path file, boolean virtual) throws Exception {
        IoUringRings.evict(file);
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ, WRITE)) {
            IoUringAsyncChannels.checkImplementation(ch);
            IoUringAsyncChannels.inThread(virtual, () -> {
                for (int i = 0; i < 40; i++) {
                    boolean future = (i % 2 == 0);
                    boolean write = (i % 4 >= 2);
                    ByteBuffer bb = IoUringAsyncChannels.buffer(i % 8 < 4, BLOCK);
                    long position = randomBlock();
                    if (write) {
                        // the file's own bytes, so that other reads stay checkable
                        bb.put(0, data, (int) position, BLOCK);
                    }
                    IoUringAsyncChannels.Outcome<Integer> o = new IoUringAsyncChannels.Outcome<>(ch);
                    Thread.currentThread().interrupt();
                    Future<Integer> f = null;
                    if (future) {
                        f = write ? ch.write(bb, position) : ch.read(bb, position);
                    } else if (write) {
                        ch.write(bb, position, null, o);
                    } else {
                        ch.read(bb, position, null, o);
                    }
                    if (!Thread.interrupted())
                        throw new RuntimeException("the interrupt status was cleared");
                    int n = future ? IoUringAsyncChannels.get(f) : o.get();
                    if (write) {
                        if (n != BLOCK)
                            throw new RuntimeException("wrote " + n);
                    } else {
                        checkRead(n, bb, position);
                    }
                    if (!ch.isOpen())
                        throw new RuntimeException("the channel was closed");
                }
                return null;
            });
        }
        System.out.println((virtual ? "virtual" : "platform") + " initiator, interrupted: done");
    }

    /**
     * A thread starts 300 reads of a cold file while another interrupts it
     * again and again; with a shallow ring (depth8) its reads wait in the
     * ring's queue for free slots. Every read completes with its bytes.
     */
    static void interruptedWhileInitiating(Path file, boolean virtual) throws Exception {
        IoUringRings.evict(file);
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ)) {
            IoUringAsyncChannels.checkImplementation(ch);
            List<IoUringAsyncChannels.BlockRead> reads = new ArrayList<>();
            AtomicBoolean initiating = new AtomicBoolean(true);
            Runnable initiate = () -> {
                for (int i = 0; i < 300; i++)
                    reads.add(new IoUringAsyncChannels.BlockRead(ch, i % 2 == 0, randomBlock(), BLOCK));
                initiating.set(false);
            };
            Thread initiator = virtual ? Thread.ofVirtual().start(initiate)
                                       : Thread.ofPlatform().start(initiate);
            int interrupts = 0;
            while (initiating.get()) {
                initiator.interrupt();
                interrupts++;
                Thread.sleep(0, 200_000);
            }
            initiator.join();
            for (IoUringAsyncChannels.BlockRead read : reads)
                read.check(data);
            if (!ch.isOpen())
                throw new RuntimeException("the channel was closed");
            System.out.println((virtual ? "virtual" : "platform") + " initiator interrupted "
                               + interrupts + " times while starting 300 reads: all done");
        }
    }

    /**
     * A thread waiting in Future.get() is interrupted: it gets
     * InterruptedException, and the read completes all the same.
     */
    static void interruptedInGet(Path file, boolean virtual) throws Exception {
        IoUringRings.evict(file);
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ)) {
            IoUringAsyncChannels.checkImplementation(ch);
            List<Future<Integer>> futures = new ArrayList<>();
            List<ByteBuffer> buffers = new ArrayList<>();
            List<Long> positions = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                ByteBuffer bb = ByteBuffer.allocateDirect(BLOCK);
                long position = randomBlock();
                futures.add(ch.read(bb, position));
                buffers.add(bb);
                positions.add(position);
            }
            IoUringAsyncChannels.inThread(virtual, () -> {
                Thread.currentThread().interrupt();
                try {
                    futures.get(futures.size() - 1).get();
                    // it may have completed before get, which then does not wait
                } catch (InterruptedException expected) {
                    // the read goes on
                }
                return null;
            });
            for (int i = 0; i < futures.size(); i++)
                checkRead(IoUringAsyncChannels.get(futures.get(i)), buffers.get(i), positions.get(i));
        }
    }

    /**
     * A handler that interrupts its thread: the next handler on the same
     * pool thread does not see the interrupt (Invoker clears it).
     */
    static void handlerInterrupt(Path file) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, Set.of(READ), pool)) {
            IoUringAsyncChannels.checkImplementation(ch);
            for (int i = 0; i < 20; i++) {
                ByteBuffer bb = ByteBuffer.allocateDirect(BLOCK);
                long position = randomBlock();
                boolean[] interrupted = new boolean[1];
                IoUringAsyncChannels.Outcome<Integer> o = new IoUringAsyncChannels.Outcome<>(ch) {
                    @Override
                    public void completed(Integer n, Object a) {
                        interrupted[0] = Thread.currentThread().isInterrupted();
                        Thread.currentThread().interrupt();
                        super.completed(n, a);
                    }
                };
                ch.read(bb, position, null, o);
                checkRead(o.get(), bb, position);
                if (interrupted[0])
                    throw new RuntimeException("a handler found its thread interrupted");
            }
        }
        pool.shutdown();
        System.out.println("handler interrupts: cleared");
    }
}

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
 * @test id=auto
 * @summary AsynchronousFileChannel reads on the default executor while it cannot always
 *          start a thread (its ThreadFactory, java.nio.channels.DefaultThreadPool.threadFactory,
 *          refuses some): each read either throws from read() and is never completed, or
 *          completes exactly once with the right bytes; none is lost
 * @requires os.family == "linux"
 * @library /test/lib ../FileChannel
 * @build IoUringRings IoUringAsyncChannels
 * @run main/othervm
 *      -Djava.nio.channels.DefaultThreadPool.threadFactory=IoUringAsyncHandOff$Factory
 *      IoUringAsyncHandOff
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @library /test/lib ../FileChannel
 * @build IoUringRings IoUringAsyncChannels
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always
 *      -Djava.nio.channels.DefaultThreadPool.threadFactory=IoUringAsyncHandOff$Factory
 *      IoUringAsyncHandOff
 */

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import static java.nio.file.StandardOpenOption.READ;

public class IoUringAsyncHandOff {
    static final int BLOCK = 4096;
    static final int BLOCKS = 4096;         // 16 MiB
    static final int READS = 200;

    /** The default thread pool's factory: refuses the 2nd, 3rd, 5th and 8th thread. */
    public static class Factory implements ThreadFactory {
        static final AtomicInteger calls = new AtomicInteger();
        static final AtomicInteger refused = new AtomicInteger();
        @Override
        public Thread newThread(Runnable r) {
            int n = calls.incrementAndGet();
            if (n == 2 || n == 3 || n == 5 || n == 8) {
                refused.incrementAndGet();
                return null;
            }
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        }
    }

    /** A handler that takes its time, so that the executor needs more threads. */
    static class Slow extends IoUringAsyncChannels.Outcome<Integer> {
        Slow(AsynchronousFileChannel ch) {
            super(ch);
        }
        @Override
        public void completed(Integer n, Object a) {
            pause();
            super.completed(n, a);
        }
        @Override
        public void failed(Throwable e, Object a) {
            pause();
            super.failed(e, a);
        }
        static void pause() {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        byte[] data = new byte[BLOCKS * BLOCK];
        new Random(17).nextBytes(data);
        Path f = IoUringAsyncChannels.createFile("handoff", data);
        try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(f, READ)) {
            IoUringAsyncChannels.checkImplementation(ch);
            List<Slow> started = new ArrayList<>();
            List<ByteBuffer> buffers = new ArrayList<>();
            List<Long> positions = new ArrayList<>();
            List<Slow> refused = new ArrayList<>();
            for (int i = 0; i < READS; i++) {
                Slow o = new Slow(ch);
                ByteBuffer bb = ByteBuffer.allocateDirect(BLOCK);
                long position = (long) ((i * 61) % BLOCKS) * BLOCK;
                try {
                    ch.read(bb, position, null, o);
                    started.add(o);
                    buffers.add(bb);
                    positions.add(position);
                } catch (RejectedExecutionException e) {
                    refused.add(o);
                }
            }
            for (int i = 0; i < started.size(); i++) {
                int n;
                try {
                    n = started.get(i).get();
                } catch (ExecutionException e) {
                    throw new RuntimeException("read " + i + " failed", e.getCause());
                }
                IoUringAsyncChannels.checkRead(n, BLOCK, buffers.get(i), data, positions.get(i));
            }
            Thread.sleep(500);
            for (Slow o : refused) {
                if (o.calls() != 0)
                    throw new RuntimeException("a read that threw from read() completed");
            }
            System.out.println(started.size() + " reads completed, " + refused.size()
                               + " refused by read(); the factory refused "
                               + Factory.refused.get() + " of " + Factory.calls.get() + " threads");
            if (Factory.refused.get() == 0)
                throw new RuntimeException("the factory refused no thread: nothing was tested");
        } finally {
            Files.delete(f);
        }
        System.out.println("passed");
    }
}

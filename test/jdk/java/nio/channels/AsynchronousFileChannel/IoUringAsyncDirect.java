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
 * @summary AsynchronousFileChannel with O_DIRECT (ExtendedOpenOption.DIRECT): reads and
 *          writes of aligned direct buffers at aligned positions work, and a misaligned
 *          buffer, length or position fails with the IOException that upstream's channel
 *          reports (pread/pwrite's EINVAL), in both forms, from platform and virtual threads
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm IoUringAsyncDirect
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm -Djdk.nio.file.ioUring=never IoUringAsyncDirect
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @key randomness
 * @library /test/lib ../FileChannel
 * @build jdk.test.lib.RandomFactory IoUringRings IoUringAsyncChannels
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always IoUringAsyncDirect
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import com.sun.nio.file.ExtendedOpenOption;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.RandomFactory;
import jtreg.SkippedException;

public class IoUringAsyncDirect {
    static final Random RAND = RandomFactory.getRandom();
    // not a multiple of the block size: the last block is partial
    static final int SIZE = (4 << 20) + 1000;
    // the message of pread/pwrite's EINVAL, which upstream's channel reports
    static final String EINVAL = "Invalid argument";

    static byte[] model;
    static int block;

    public static void main(String[] args) throws Exception {
        model = IoUringAsyncChannels.randomBytes(RAND, SIZE);
        Path file = IoUringAsyncChannels.createFile("direct", model);
        try {
            AsynchronousFileChannel ch;
            try {
                ch = AsynchronousFileChannel.open(file, READ, WRITE, ExtendedOpenOption.DIRECT);
            } catch (IOException | UnsupportedOperationException e) {
                throw new SkippedException("no O_DIRECT here: " + e);
            }
            block = (int) Files.getFileStore(file).getBlockSize();
            System.out.println("block size " + block);
            try (ch) {
                IoUringAsyncChannels.checkImplementation(ch);
                for (boolean virtual : new boolean[] { false, true }) {
                    for (boolean future : new boolean[] { false, true }) {
                        IoUringAsyncChannels.inThread(virtual, () -> {
                            aligned(ch, future);
                            misaligned(ch, future);
                            return null;
                        });
                    }
                }
            }
            if (!Arrays.equals(Files.readAllBytes(file), model))
                throw new RuntimeException("the file is not what was written");
        } finally {
            Files.delete(file);
        }
        System.out.println("passed");
    }

    static ByteBuffer alignedBuffer(int len) {
        return ByteBuffer.allocateDirect(len + block).alignedSlice(block).limit(len);
    }

    static int transfer(AsynchronousFileChannel ch, boolean write, ByteBuffer bb, long position,
                        boolean future) throws Exception {
        return IoUringAsyncChannels.transfer(ch, write, bb, position, future);
    }

    static void aligned(AsynchronousFileChannel ch, boolean future) throws Exception {
        int blocks = SIZE / block;
        for (int i = 0; i < 20; i++) {
            int len = block * (1 + RAND.nextInt(16));
            long position = (long) block * RAND.nextInt(blocks + 2);
            ByteBuffer bb = alignedBuffer(len);
            int n = transfer(ch, false, bb, position, future);
            int expected = (int) Math.max(-1, Math.min(len, SIZE - position));
            if (expected == 0)
                expected = -1;
            if (n != expected)
                throw new RuntimeException("read " + n + " at " + position + ", expected " + expected);
            for (int j = 0; j < n; j++) {
                if (bb.get(j) != model[(int) position + j])
                    throw new RuntimeException("wrong byte at " + (position + j));
            }
            if (bb.position() != Math.max(n, 0))
                throw new RuntimeException("position " + bb.position() + " after reading " + n);
            // a write inside the file
            if (position + len <= SIZE) {
                byte[] bytes = IoUringAsyncChannels.randomBytes(RAND, len);
                ByteBuffer src = alignedBuffer(len).put(0, bytes);
                int m = transfer(ch, true, src, position, future);
                if (m != len)
                    throw new RuntimeException("wrote " + m + " of " + len);
                System.arraycopy(bytes, 0, model, (int) position, len);
            }
        }
    }

    /** Expects the transfer to fail with upstream's EINVAL IOException. */
    static void expectEinval(AsynchronousFileChannel ch, boolean write, ByteBuffer bb, long position,
                             boolean future, String what) throws Exception {
        int start = bb.position();
        try {
            int n = transfer(ch, write, bb, position, future);
            throw new RuntimeException(what + ": returned " + n);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause.getClass() != IOException.class || !EINVAL.equals(cause.getMessage()))
                throw new RuntimeException(what + ": " + cause, cause);
        }
        if (bb.position() != start)
            throw new RuntimeException(what + ": the buffer moved");
    }

    static void misaligned(AsynchronousFileChannel ch, boolean future) throws Exception {
        for (boolean write : new boolean[] { false, true }) {
            String op = write ? "write" : "read";
            ByteBuffer bb = ByteBuffer.allocateDirect(3 * block).alignedSlice(block);
            // the address
            expectEinval(ch, write, bb.position(1).limit(1 + block).slice(), 0, future,
                         op + " of a misaligned buffer");
            // the length (the device's logical block, which O_DIRECT wants, may be
            // smaller than the file system's block, but is at least 512 bytes)
            expectEinval(ch, write, bb.clear().limit(100), 0, future,
                         op + " of 100 bytes");
            // the position
            expectEinval(ch, write, bb.clear().limit(block), 1, future,
                         op + " at position 1");
            // a heap buffer goes through a temporary direct buffer, aligned or not: the
            // bytes, or EINVAL
            ByteBuffer heap = ByteBuffer.allocate(block);
            try {
                int n = transfer(ch, false, heap, block, future);
                if (n != block || !Arrays.equals(heap.array(), 0, block, model, block, 2 * block))
                    throw new RuntimeException("heap buffer read " + n);
            } catch (ExecutionException e) {
                if (e.getCause().getClass() != IOException.class
                        || !EINVAL.equals(e.getCause().getMessage()))
                    throw new RuntimeException("heap buffer read: " + e.getCause(), e.getCause());
            }
        }
    }
}

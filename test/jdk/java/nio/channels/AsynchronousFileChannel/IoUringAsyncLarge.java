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
 * @summary AsynchronousFileChannel reads into direct and heap buffers of about 2 GiB, more
 *          than Linux's MAX_RW_COUNT, from a sparse file larger than that: each read
 *          transfers what one pread does (MAX_RW_COUNT bytes), in both forms
 * @requires os.family == "linux"
 * @requires os.maxMemory >= 12g
 * @library /test/lib ../FileChannel
 * @build IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=600 -Xmx3g -XX:MaxDirectMemorySize=3g IoUringAsyncLarge
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @requires os.maxMemory >= 12g
 * @library /test/lib ../FileChannel
 * @build IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=600 -Xmx3g -XX:MaxDirectMemorySize=3g -Djdk.nio.file.ioUring=never
 *      IoUringAsyncLarge
 */

/*
 * @test id=always
 * @requires os.family == "linux"
 * @requires os.maxMemory >= 12g
 * @library /test/lib ../FileChannel
 * @build IoUringRings IoUringAsyncChannels
 * @run main/othervm/timeout=600 -Xmx3g -XX:MaxDirectMemorySize=3g -Djdk.internal.nio.ioUring.mode=always
 *      IoUringAsyncLarge
 */

import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import static java.nio.file.StandardOpenOption.*;

public class IoUringAsyncLarge {
    // Linux MAX_RW_COUNT: INT_MAX rounded down to the page size
    static final int MAX_RW_COUNT = Integer.MAX_VALUE & ~4095;
    static final long FILE_SIZE = 3L << 30;

    public static void main(String[] args) throws Exception {
        Path file = Files.createTempFile(Path.of("."), "large", ".dat");
        try {
            // sparse: reads of the hole return zeros without touching the disk
            try (FileChannel fc = FileChannel.open(file, WRITE)) {
                fc.write(ByteBuffer.wrap(new byte[] { 42 }), FILE_SIZE - 1);
            }
            try (AsynchronousFileChannel ch = AsynchronousFileChannel.open(file, READ)) {
                IoUringAsyncChannels.checkImplementation(ch);
                for (boolean direct : new boolean[] { true, false }) {
                    ByteBuffer bb = direct ? ByteBuffer.allocateDirect(Integer.MAX_VALUE)
                                           : ByteBuffer.allocate(Integer.MAX_VALUE - 8);
                    for (boolean future : new boolean[] { false, true }) {
                        bb.clear().position(5);
                        int n;
                        if (future) {
                            n = IoUringAsyncChannels.get(ch.read(bb, 1));
                        } else {
                            IoUringAsyncChannels.Outcome<Integer> o = new IoUringAsyncChannels.Outcome<>(ch);
                            ch.read(bb, 1, null, o);
                            n = o.get();
                        }
                        System.out.println((direct ? "direct" : "heap") + " buffer of " + bb.capacity()
                                + ", " + (future ? "Future" : "handler") + ": read " + n);
                        if (n != MAX_RW_COUNT)
                            throw new RuntimeException("read " + n + ", expected " + MAX_RW_COUNT);
                        if (bb.position() != 5 + n)
                            throw new RuntimeException("position " + bb.position());
                    }
                    // the end of the file, through a buffer larger than what is left
                    bb.clear();
                    int n = IoUringAsyncChannels.get(ch.read(bb, FILE_SIZE - 10));
                    if (n != 10 || bb.get(9) != 42)
                        throw new RuntimeException("read " + n + " at the end");
                    bb = null;
                    System.gc();
                }
            }
        } finally {
            Files.delete(file);
        }
        System.out.println("passed");
    }
}

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
 */

/*
 * @test
 * @bug 8337974
 * @summary InputStream.skip of more than 2 GiB, and of Long.MAX_VALUE, on a
 *     sparse file, a pipe, a TCP socket channel and /dev/zero
 * @requires (os.family == "linux") & (sun.arch.data.model == "64")
 * @library /test/lib
 * @build SkipSource
 * @run junit/timeout=600 SkipLarge
 */

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

public class SkipLarge {
    private static final long BIG = (1L << 31) + (1L << 26) + 12345;  // > 2 GiB, odd
    private static final int TAIL = 1000;

    /**
     * A sparse file: the position-based skip, unchanged.
     */
    @Test
    void testSparseFile() throws IOException {
        Path file = Files.createTempFile(Path.of("."), "sparse", ".dat");
        try {
            long size = 5L << 30;
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.setLength(size);
                byte[] b = new byte[TAIL];
                SkipSource.fill(b, 0, TAIL, size - TAIL);
                raf.seek(size - TAIL);
                raf.write(b);
            }
            try (InputStream in = Files.newInputStream(file)) {
                assertEquals(BIG, in.skip(BIG));
                assertEquals(size - TAIL - BIG, in.skip(size - TAIL - BIG));
                assertEquals(SkipSource.pattern(size - TAIL) & 0xff, in.read());
                assertEquals(TAIL - 1, in.skip(Long.MAX_VALUE));
                assertEquals(-1, in.read());
            }
        } finally {
            Files.delete(file);
        }
    }

    /**
     * A pipe and a TCP socket channel, fed more than 2 GiB of zeros and then
     * a tail of the pattern: skip BIG and check the tail; skip(Long.MAX_VALUE)
     * to the end.
     */
    @ParameterizedTest
    @ValueSource(strings = { "PIPE", "TCP_CHANNEL" })
    void testStream(String kindName) throws Exception {
        SkipSource.Kind kind = SkipSource.Kind.valueOf(kindName);
        try (SkipSource src = SkipSource.open(kind, 0)) {
            long total = BIG + TAIL;
            Thread producer = Thread.ofPlatform().start(() -> {
                try {
                    var out = ((SkipSource.ChannelSource) src).out;
                    ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
                    long pos = 0;
                    while (pos < BIG) {
                        zeros.clear().limit((int) Math.min(zeros.capacity(), BIG - pos));
                        pos += out.write(zeros);
                    }
                    src.writePattern(BIG, TAIL);
                    // and again, to be skipped with Long.MAX_VALUE
                    pos = 0;
                    while (pos < BIG) {
                        zeros.clear().limit((int) Math.min(zeros.capacity(), BIG - pos));
                        pos += out.write(zeros);
                    }
                    src.closeOutput();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            assertEquals(BIG + TAIL / 2, src.in.skip(BIG + TAIL / 2));
            for (int i = TAIL / 2; i < TAIL; i++)
                assertEquals(SkipSource.pattern(BIG + i) & 0xff, src.in.read(), "tail byte " + i);
            assertEquals(BIG, src.in.skip(Long.MAX_VALUE));
            assertEquals(0, src.in.skip(Long.MAX_VALUE));
            assertEquals(-1, src.in.read());
            producer.join();
        }
    }

    /**
     * /dev/zero, where splice refuses and skip reads: more than 2 GiB.
     */
    @Test
    void testDevZero() throws IOException {
        try (InputStream in = Files.newInputStream(Path.of("/dev/zero"))) {
            assertEquals(BIG, in.skip(BIG));
            assertEquals(0, in.read());
        }
    }
}

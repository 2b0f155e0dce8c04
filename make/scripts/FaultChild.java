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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import static java.nio.file.StandardOpenOption.*;

/**
 * The program fault.sh runs under kernel.io_uring_disabled changes.
 *
 *   java FaultChild DIR plain|wait-first|wait-between
 *
 * Does a fixed sequence of positional reads and writes (random positions and
 * sizes, heap and direct buffers) on a file in DIR, half on a platform thread
 * and half on a virtual thread, checked against a model of the file. With
 * wait-first it stops before the first positional operation, with
 * wait-between between the halves: it creates DIR/ready and waits until
 * DIR/go exists. Prints "ring fds: N" (io_uring fds open at the end), "ring
 * completions: N" (completions they posted) and "digest: HEX" over every return value, every byte read and the final file,
 * the same for every mode and io_uring policy when all is well.
 */
public class FaultChild {
    static final int SIZE = (1 << 20) + 123;

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String when = args[1];
        Path f = Files.createTempFile(dir, "fault", ".dat");
        try {
            Random rand = new Random(42);
            byte[] model = new byte[SIZE + 200_000];
            rand.nextBytes(model);
            int[] size = { SIZE };
            Files.write(f, Arrays.copyOf(model, SIZE));
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            try (FileChannel fc = FileChannel.open(f, READ, WRITE)) {
                if (when.equals("wait-first"))
                    await(dir);
                Thread t = Thread.ofPlatform().start(() -> ops(fc, rand, model, size, md));
                t.join();
                if (when.equals("wait-between")) {
                    System.out.println("ring fds before: " + IoUringRings.fds().size());
                    System.out.println("ring completions before: " + IoUringRings.completions());
                    await(dir);
                }
                t = Thread.ofVirtual().start(() -> ops(fc, rand, model, size, md));
                t.join();
            }
            byte[] content = Files.readAllBytes(f);   // read(2), not positional
            if (!Arrays.equals(content, Arrays.copyOf(model, size[0])))
                throw new RuntimeException("file content differs from the model");
            md.update(content);
            System.out.println("ring fds: " + IoUringRings.fds().size());
            System.out.println("ring completions: " + IoUringRings.completions());
            System.out.println("digest: " + HexFormat.of().formatHex(md.digest()));
        } finally {
            Files.delete(f);
        }
    }

    static void await(Path dir) throws Exception {
        Files.createFile(dir.resolve("ready"));
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!Files.exists(dir.resolve("go"))) {
            if (System.nanoTime() > deadline)
                throw new RuntimeException("no go from fault.sh");
            Thread.sleep(20);
        }
    }

    static void ops(FileChannel fc, Random rand, byte[] model, int[] size, MessageDigest md) {
        try {
            for (int i = 0; i < 200; i++) {
                long pos = rand.nextInt(size[0] + 4096);
                int len = 1 + rand.nextInt(70_000);
                ByteBuffer bb = rand.nextBoolean() ? ByteBuffer.allocate(len)
                                                   : ByteBuffer.allocateDirect(len);
                if (rand.nextInt(3) == 0 && pos + len <= model.length) {
                    byte[] data = new byte[len];
                    rand.nextBytes(data);
                    bb.put(data).flip();
                    int n = fc.write(bb, pos);
                    md.update(("w" + n).getBytes());
                    if (n != len)
                        throw new RuntimeException("write at " + pos + " of " + len + ": " + n);
                    if (pos > size[0])
                        Arrays.fill(model, size[0], (int) pos, (byte) 0);
                    System.arraycopy(data, 0, model, (int) pos, len);
                    size[0] = Math.max(size[0], (int) pos + len);
                } else {
                    int n = fc.read(bb, pos);
                    md.update(("r" + n).getBytes());
                    int expected = (pos >= size[0]) ? -1 : (int) Math.min(len, size[0] - pos);
                    if (n != expected)
                        throw new RuntimeException("read at " + pos + " of " + len + ": " + n
                                + ", expected " + expected);
                    if (n > 0) {
                        byte[] got = new byte[n];
                        bb.flip().get(got);
                        if (!Arrays.equals(got, 0, n, model, (int) pos, (int) pos + n))
                            throw new RuntimeException("read at " + pos + ": bytes differ");
                        md.update(got);
                    }
                }
            }
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }
}

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


import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;

/**
 * A temporary file and a model of its content, for the fault tests of the
 * io_uring path (IoUringFault's child and make/scripts/FaultChild.java): every
 * positional read is checked against the model, every write is applied to it,
 * and a digest is kept of every return value, every byte read and the final
 * content. Runs with a fixed seed that end well print the same digest under
 * every io_uring policy and every fault, so one line of output compares a
 * run with a pread/pwrite reference.
 */
final class IoUringModelFile implements AutoCloseable {
    static final int SIZE = (1 << 20) + 123;

    private final Random rand = new Random(42);
    private final byte[] model = new byte[SIZE + 200_000];
    // what the digest covers; hashed at the end: MessageDigest, as
    // createTempFile, loads the security properties with a FileChannel
    // read, which in always mode would set up the rings before the child
    // is ready (IoUringFault nofile)
    private final ByteArrayOutputStream seen = new ByteArrayOutputStream();
    private final Path path;
    private int size = SIZE;

    /** Creates the file in dir, filled with the model's first SIZE bytes. */
    IoUringModelFile(Path dir) throws IOException, NoSuchAlgorithmException {
        rand.nextBytes(model);
        path = Files.createFile(dir.resolve("fault-" + ProcessHandle.current().pid()
                + "-" + System.nanoTime() + ".dat"));
        Files.write(path, Arrays.copyOf(model, SIZE));
    }

    Path path() {
        return path;
    }

    /**
     * Reads into a new buffer of len bytes (heap or direct) at pos, and checks
     * the return value and the bytes against the model.
     */
    int read(FileChannel fc, long pos, int len, boolean direct) throws IOException {
        ByteBuffer bb = direct ? ByteBuffer.allocateDirect(len) : ByteBuffer.allocate(len);
        int n = fc.read(bb, pos);
        seen.writeBytes(("r" + n).getBytes());
        int expected = (pos >= size) ? -1 : (int) Math.min(len, size - pos);
        if (n != expected)
            throw new RuntimeException("read at " + pos + " of " + len + " returned " + n
                    + ", expected " + expected);
        if (n > 0) {
            byte[] got = new byte[n];
            bb.flip().get(got);
            if (!Arrays.equals(got, 0, n, model, (int) pos, (int) pos + n))
                throw new RuntimeException("read at " + pos + ": bytes differ");
            seen.writeBytes(got);
        }
        return n;
    }

    /**
     * Writes len random bytes from a new buffer (heap or direct) at pos, checks
     * that all were written, and applies them to the model.
     */
    void write(FileChannel fc, long pos, int len, boolean direct) throws IOException {
        byte[] data = new byte[len];
        rand.nextBytes(data);
        ByteBuffer bb = direct ? ByteBuffer.allocateDirect(len) : ByteBuffer.allocate(len);
        bb.put(data).flip();
        int n = fc.write(bb, pos);
        seen.writeBytes(("w" + n).getBytes());
        if (n != len)
            throw new RuntimeException("write at " + pos + " of " + len + " returned " + n);
        if (pos > size)
            Arrays.fill(model, size, (int) pos, (byte) 0);   // the hole reads as zeros
        System.arraycopy(data, 0, model, (int) pos, len);
        size = Math.max(size, (int) pos + len);
    }

    /**
     * count reads and writes (one in three a write) at random positions, up to
     * 4 KiB past the end, of 1 to 70,000 bytes, from heap and direct buffers.
     */
    void ops(FileChannel fc, int count) throws IOException {
        for (int i = 0; i < count; i++) {
            long pos = rand.nextInt(size + 4096);
            int len = 1 + rand.nextInt(70_000);
            boolean direct = rand.nextBoolean();
            if (rand.nextInt(3) == 0 && pos + len <= model.length) {
                write(fc, pos, len, direct);
            } else {
                read(fc, pos, len, direct);
            }
        }
    }

    /**
     * Checks the file, read with read(2) rather than the positional path,
     * against the model, and returns the digest (hex) of all that was seen.
     */
    String digest() throws IOException {
        byte[] content = Files.readAllBytes(path);
        if (!Arrays.equals(content, Arrays.copyOf(model, size)))
            throw new RuntimeException("file content differs from the model");
        seen.writeBytes(content);
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(seen.toByteArray()));
        } catch (NoSuchAlgorithmException e) {
            throw new IOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        Files.delete(path);
    }
}

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
 * @test id=always
 * @summary A positional read or write of a FIFO fails with "Illegal seek" as
 *          pread/pwrite fail, and a regular file is read and written at the
 *          position, when the file descriptor number was a file of the other
 *          kind a moment before: what io_uring remembers of a file descriptor
 *          holds for one open file only
 * @requires os.family == "linux"
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always IoUringFileKind
 */

/*
 * @test id=auto
 * @requires os.family == "linux"
 * @run main/othervm -Djdk.nio.file.ioUring=auto IoUringFileKind
 */

/*
 * @test id=never
 * @requires os.family == "linux"
 * @run main/othervm -Djdk.nio.file.ioUring=never IoUringFileKind
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import static java.nio.file.StandardOpenOption.*;

public class IoUringFileKind {

    public static void main(String[] args) throws Throwable {
        Path dir = Files.createTempDirectory(Path.of("."), "kind");
        Path file = dir.resolve("file");
        Path fifo = dir.resolve("fifo");
        byte[] content = new byte[8192];
        for (int i = 0; i < content.length; i++)
            content[i] = (byte) (i * 31 + 7);
        Files.write(file, content);
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        if (mk.waitFor() != 0)
            throw new RuntimeException("mkfifo failed");

        for (boolean virtual : new boolean[] { false, true }) {
            Runnable task = () -> {
                try {
                    for (int round = 0; round < 20; round++) {
                        // file, then FIFO, then file on the same number
                        int f1 = readFile(file, content, round);
                        int p = useFifo(fifo, round);
                        int f2 = readFile(file, content, round + 1);
                        if (f1 != p || p != f2)
                            throw new RuntimeException("file descriptor numbers " + f1 + ", "
                                                       + p + ", " + f2 + " (not reused)");
                    }
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            };
            Thread t = virtual ? Thread.ofVirtual().start(task) : Thread.ofPlatform().start(task);
            t.join();
        }
        System.out.println("passed");
    }

    /**
     * Reads the file at a position and writes it back at the same position;
     * returns the number of the file descriptor it had.
     */
    static int readFile(Path file, byte[] content, int round) throws IOException {
        try (FileChannel fc = FileChannel.open(file, READ, WRITE)) {
            int fd = fdOf(file);
            int pos = (round * 512) % (content.length - 1024);
            ByteBuffer bb = ByteBuffer.allocateDirect(1024);
            int n = fc.read(bb, pos);
            if (n != 1024)
                throw new RuntimeException("read " + n + " bytes at " + pos);
            byte[] got = new byte[1024];
            bb.flip().get(got);
            if (!Arrays.equals(got, 0, 1024, content, pos, pos + 1024))
                throw new RuntimeException("wrong bytes at " + pos);
            if (fc.position() != 0)
                throw new RuntimeException("position moved to " + fc.position());
            bb.flip();
            n = fc.write(bb, pos);
            if (n != 1024 || fc.size() != content.length)
                throw new RuntimeException("wrote " + n + " bytes, size " + fc.size());
            return fd;
        }
    }

    /**
     * Positional reads and writes of a FIFO fail with "Illegal seek" and
     * neither take nor add bytes; returns the number of the file descriptor.
     */
    static int useFifo(Path fifo, int round) throws IOException {
        try (FileChannel fc = FileChannel.open(fifo, READ, WRITE)) {   // O_RDWR: no wait
            int fd = fdOf(fifo);
            byte[] msg = ("round " + round).getBytes(StandardCharsets.US_ASCII);
            fc.write(ByteBuffer.wrap(msg));
            for (boolean direct : new boolean[] { false, true }) {
                ByteBuffer bb = direct ? ByteBuffer.allocateDirect(64) : ByteBuffer.allocate(64);
                expectIllegalSeek(() -> fc.read(bb, 0));
                expectIllegalSeek(() -> fc.read(bb, 100));
                expectIllegalSeek(() -> fc.write(ByteBuffer.wrap(new byte[] { 1, 2 }), 0));
                if (bb.position() != 0)
                    throw new RuntimeException("buffer position moved");
            }
            // the bytes written are all there, and no more
            ByteBuffer bb = ByteBuffer.allocate(64);
            int n = fc.read(bb);
            if (n != msg.length || !Arrays.equals(Arrays.copyOf(bb.array(), n), msg))
                throw new RuntimeException("FIFO gave " + n + " bytes, expected " + msg.length);
            return fd;
        }
    }

    interface IOCall {
        int call() throws IOException;
    }

    static void expectIllegalSeek(IOCall call) {
        try {
            int n = call.call();
            throw new RuntimeException("positional operation on a FIFO returned " + n);
        } catch (IOException e) {
            if (!"Illegal seek".equals(e.getMessage()))
                throw new RuntimeException("unexpected exception", e);
        }
    }

    /**
     * Returns the number of the only file descriptor of this process open on
     * the given file.
     */
    static int fdOf(Path path) throws IOException {
        Path real = path.toRealPath();
        int found = -1;
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path p : fds.toList()) {
                try {
                    if (Files.readSymbolicLink(p).equals(real)) {
                        if (found != -1)
                            throw new RuntimeException(path + " open twice");
                        found = Integer.parseInt(p.getFileName().toString());
                    }
                } catch (IOException e) {
                    // closed meanwhile (the listing's own descriptor)
                }
            }
        }
        if (found == -1)
            throw new RuntimeException(path + " not open");
        return found;
    }
}

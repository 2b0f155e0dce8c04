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
 * @test
 * @summary FileInputStream.skip on a FIFO by a subclass that overrides
 *     read(byte[], int, int): the subclass's read sees every byte skipped, as
 *     InputStream.skip reads them, on platform and virtual threads; a subclass
 *     that transforms what it reads skips what its read would return
 * @requires os.family != "windows"
 * @run main/othervm/timeout=120 SkipSubclass
 */

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

public class SkipSubclass {

    /** Counts the bytes its read(byte[], int, int) returns. */
    static class CountingStream extends FileInputStream {
        long counted;

        CountingStream(File f) throws IOException {
            super(f);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0)
                counted += n;
            return n;
        }
    }

    /** Returns only every other byte of the file, as a filter might. */
    static class HalvingStream extends FileInputStream {
        HalvingStream(File f) throws IOException {
            super(f);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            byte[] two = new byte[2 * Math.min(len, 1024)];
            int n = 0;
            while (n < two.length) {
                int k = super.read(two, n, two.length - n);
                if (k < 0)
                    break;
                n += k;
                if (n % 2 == 0)
                    break;
            }
            if (n == 0)
                return -1;
            int out = n / 2;
            for (int i = 0; i < out; i++)
                b[off + i] = two[2 * i];
            return out;
        }
    }

    static final int SIZE = 300_000;

    public static void main(String[] args) throws Throwable {
        for (boolean virtual : new boolean[] { false, true }) {
            Throwable[] failure = new Throwable[1];
            Runnable test = () -> {
                try {
                    counting();
                    halving();
                } catch (Throwable e) {
                    failure[0] = e;
                }
            };
            Thread t = virtual ? Thread.ofVirtual().start(test) : Thread.ofPlatform().start(test);
            t.join();
            if (failure[0] != null)
                throw failure[0];
        }
        System.out.println("passed");
    }

    /** A FIFO that a platform thread fills with byte i = (byte) i, SIZE bytes. */
    static Path fifo(Thread[] writer) throws Exception {
        Path dir = Files.createTempDirectory(Path.of("."), "fifo");
        Path p = dir.resolve("f");
        Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        if (mk.waitFor() != 0)
            throw new RuntimeException("mkfifo failed");
        writer[0] = Thread.ofPlatform().start(() -> {
            try (OutputStream out = new FileOutputStream(p.toFile())) {
                byte[] b = new byte[SIZE];
                for (int i = 0; i < SIZE; i++)
                    b[i] = (byte) i;
                out.write(b);
            } catch (IOException e) {
                // the reader closed the FIFO early: its check has failed
            }
        });
        return p;
    }

    static void counting() throws Exception {
        Thread[] writer = new Thread[1];
        Path p = fifo(writer);
        try (CountingStream in = new CountingStream(p.toFile())) {
            long skipped = in.skip(100_000);
            if (skipped != 100_000)
                throw new RuntimeException("skip returned " + skipped);
            if (in.counted != 100_000)
                throw new RuntimeException("the subclass's read saw " + in.counted
                                           + " bytes of the 100000 skipped");
            int b = in.read();
            if (b != (100_000 & 0xff))
                throw new RuntimeException("read after skip: " + b);
            long rest = in.skip(Long.MAX_VALUE);
            if (rest != SIZE - 100_001 || in.counted != SIZE - 1)
                throw new RuntimeException("skip to the end: " + rest + ", counted " + in.counted);
        } finally {
            writer[0].join();
            Files.delete(p);
            Files.delete(p.getParent());
        }
    }

    static void halving() throws Exception {
        Thread[] writer = new Thread[1];
        Path p = fifo(writer);
        try (HalvingStream in = new HalvingStream(p.toFile())) {
            // 1000 bytes of the subclass's output are 2000 bytes of the FIFO
            long skipped = in.skip(1000);
            if (skipped != 1000)
                throw new RuntimeException("skip returned " + skipped);
            byte[] b = new byte[1];
            if (in.read(b, 0, 1) != 1 || b[0] != (byte) 2000)
                throw new RuntimeException("read after skip: " + b[0] + ", expected "
                                           + (byte) 2000);
            in.skip(Long.MAX_VALUE);
        } finally {
            writer[0].join();
            Files.delete(p);
            Files.delete(p.getParent());
        }
    }
}

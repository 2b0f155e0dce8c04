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
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import static java.nio.file.StandardOpenOption.*;

/**
 * The program fault.sh runs under kernel.io_uring_disabled changes.
 *
 *   java FaultChild DIR plain|wait-first|wait-between
 *
 * Does a fixed sequence of positional reads and writes (random positions and
 * sizes, heap and direct buffers) on a file in DIR, 200 on a platform thread
 * and then 200 on a virtual thread, checked against a model of the file
 * (IoUringModelFile, from the jtreg tests, as is IoUringRings). With
 * wait-first it stops before the first positional operation, with
 * wait-between between the halves: it creates DIR/ready and waits until
 * DIR/go exists. Prints "ring fds: N" (io_uring fds open at the end), "ring
 * completions: N" (completions they posted) and "digest: HEX" over every
 * return value, every byte read and the final file, the same for every mode
 * and io_uring policy when all is well.
 */
public class FaultChild {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String when = args[1];
        try (IoUringModelFile mf = new IoUringModelFile(dir);
             FileChannel fc = FileChannel.open(mf.path(), READ, WRITE)) {
            if (when.equals("wait-first"))
                await(dir);
            Thread t = Thread.ofPlatform().start(() -> ops(mf, fc));
            t.join();
            if (when.equals("wait-between")) {
                System.out.println("ring fds before: " + IoUringRings.fds().size());
                System.out.println("ring completions before: " + IoUringRings.completions());
                await(dir);
            }
            t = Thread.ofVirtual().start(() -> ops(mf, fc));
            t.join();
            String digest = mf.digest();
            System.out.println("ring fds: " + IoUringRings.fds().size());
            System.out.println("ring completions: " + IoUringRings.completions());
            System.out.println("digest: " + digest);
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

    static void ops(IoUringModelFile mf, FileChannel fc) {
        try {
            mf.ops(fc, 200);
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }
}

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

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The io_uring instances of this process as /proc shows them, for the
 * IoUring* tests (and make/scripts/FaultChild.java): their fds, and the
 * completions they have posted, proof that they were used; and a way to
 * make a file cold for them.
 */
final class IoUringRings {
    private IoUringRings() { }

    /** The fds of this process that are io_uring instances. */
    static List<Path> fds() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.filter(p -> {
                try {
                    return Files.readSymbolicLink(p).toString().contains("io_uring");
                } catch (IOException e) {
                    return false;   // closed since listed
                }
            }).toList();
        }
    }

    /**
     * Drops a file from the page cache (POSIX_FADV_DONTNEED through
     * {@code dd iflag=nocache count=0}), so that reads of it go to the
     * device. Without dd the file stays cached: reads are hot, still correct.
     */
    static void evict(Path f) throws InterruptedException {
        try {
            new ProcessBuilder("dd", "if=" + f, "iflag=nocache", "count=0")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor();
        } catch (IOException e) {
            // no dd
        }
    }

    /**
     * Whether {@link #evict} takes the given file out of the page cache here:
     * false where the file system keeps files in memory (tmpfs) or there is
     * no dd, so that its reads stay hot whatever a test does. Evicts the file
     * and asks mincore(2), through MappedByteBuffer.isLoaded, whether every
     * page of it is still resident.
     */
    static boolean canEvict(Path f) throws IOException, InterruptedException {
        evict(f);
        try (FileChannel fc = FileChannel.open(f)) {
            return !fc.map(FileChannel.MapMode.READ_ONLY, 0, fc.size()).isLoaded();
        }
    }

    /**
     * The completions all rings have posted so far: the sum of CqTail in the
     * fdinfo of each io_uring fd. The fdinfo is read with FileInputStream,
     * read(2) in libjava: a /proc file is a regular file, and reading it
     * through a FileChannel (Files.readAllLines) would take a ring in always
     * mode and add to the count the next call reads.
     */
    static long completions() throws IOException {
        long n = 0;
        for (Path ring : fds()) {
            n += fdinfo(ring, "CqTail");
        }
        return n;
    }

    /**
     * A counter from the fdinfo of an io_uring fd (SqHead: the SQEs the
     * kernel has taken; CqTail: the completions it has posted), read with
     * FileInputStream for the reason given above.
     */
    static long fdinfo(Path ring, String key) throws IOException {
        Path info = Path.of("/proc/self/fdinfo").resolve(ring.getFileName());
        String text;
        try (FileInputStream in = new FileInputStream(info.toFile())) {
            text = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
        for (String line : text.lines().toList()) {
            if (line.startsWith(key + ":"))
                return Long.parseLong(line.substring(key.length() + 1).trim());
        }
        throw new IOException("no " + key + " in " + info);
    }

    /** The SQ head of each ring: the number of SQEs the kernel has taken. */
    static long[] submitted(List<Path> fds) throws IOException {
        long[] n = new long[fds.size()];
        for (int i = 0; i < n.length; i++) {
            n[i] = fdinfo(fds.get(i), "SqHead");
        }
        return n;
    }

    /**
     * Reads the block of the given size at the position with a positional
     * read, and checks that it is the file's, whose bytes are data.
     */
    static void readAndCheck(FileChannel fc, ByteBuffer bb, byte[] data, int pos)
        throws IOException
    {
        int len = bb.capacity();
        bb.clear();
        int n = fc.read(bb, pos);
        if (n != len)
            throw new RuntimeException(n + " bytes read at " + pos + ", expected " + len);
        for (int j = 0; j < len; j++) {
            if (bb.get(j) != data[pos + j])
                throw new RuntimeException("bad byte at " + (pos + j));
        }
    }
}

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

/*
 * @test id=always
 * @summary Relative FileChannel reads with JFR's jdk.FileRead event enabled (the
 *          traced read path of FileChannelImpl), on platform and virtual threads:
 *          the bytes, and one event per read whose byte counts add up to what was
 *          read; in always the reads use a ring, in never no ring exists
 * @requires os.family == "linux" & vm.hasJFR
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always IoUringRelativeJfr always
 */

/*
 * @test id=auto
 * @requires os.family == "linux" & vm.hasJFR
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings
 * @run main/othervm -Djdk.nio.file.ioUring=auto IoUringRelativeJfr auto
 */

/*
 * @test id=never
 * @requires os.family == "linux" & vm.hasJFR
 * @library /test/lib
 * @build jdk.test.lib.RandomFactory IoUringRings
 * @run main/othervm -Djdk.nio.file.ioUring=never IoUringRelativeJfr never
 */

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import jdk.test.lib.RandomFactory;

public class IoUringRelativeJfr {

    static final int SIZE = 300_007;

    interface Reader {
        byte[] read(Path file) throws Exception;
    }

    public static void main(String[] args) throws Throwable {
        String mode = args[0];
        Random random = RandomFactory.getRandom();
        Path file = Files.createTempFile(Path.of("."), "jfr", ".dat").toRealPath();
        byte[] content = new byte[SIZE];
        random.nextBytes(content);
        Files.write(file, content);

        Reader[] readers = {
            Files::readAllBytes,
            IoUringRelativeJfr::readChannel,
            f -> {
                try (InputStream in = Files.newInputStream(f)) {
                    return in.readAllBytes();
                }
            }
        };

        long ringsBefore = IoUringRings.completions();
        Path dump = Path.of("relative.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.FileRead").withThreshold(Duration.ZERO);
            recording.start();
            for (boolean virtual : new boolean[] { false, true }) {
                Throwable[] failure = new Throwable[1];
                Runnable task = () -> {
                    try {
                        for (Reader r : readers) {
                            byte[] got = r.read(file);
                            if (!Arrays.equals(got, content))
                                throw new RuntimeException("wrong bytes: " + got.length
                                                           + " read, " + SIZE + " expected");
                        }
                    } catch (Throwable e) {
                        failure[0] = e;
                    }
                };
                Thread t = virtual ? Thread.ofVirtual().start(task) : Thread.ofPlatform().start(task);
                t.join();
                if (failure[0] != null)
                    throw failure[0];
            }
            recording.stop();
            recording.dump(dump);
        }
        long ringOps = IoUringRings.completions() - ringsBefore;

        long bytes = 0;
        int events = 0;
        int eofs = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(dump)) {
            if (!file.toString().equals(e.getString("path")))
                continue;
            events++;
            if (e.getBoolean("endOfFile")) {
                eofs++;
            } else {
                bytes += e.getLong("bytesRead");
            }
        }
        long expected = 2L * readers.length * SIZE;
        System.out.println(mode + ": " + events + " events, " + bytes + " bytes, " + eofs
                           + " at EOF, " + ringOps + " ring completions");
        if (bytes != expected)
            throw new RuntimeException("events add up to " + bytes + " bytes, " + expected
                                       + " were read");
        if (eofs < 2 * readers.length)
            throw new RuntimeException(eofs + " events at EOF, expected at least "
                                       + 2 * readers.length);
        switch (mode) {
            case "always" -> {
                // every relative read of the file, on either thread, used a ring
                if (ringOps < events)
                    throw new RuntimeException(ringOps + " ring completions for " + events
                                               + " reads");
            }
            case "never" -> {
                if (ringOps != 0 || !IoUringRings.fds().isEmpty())
                    throw new RuntimeException("never: a ring exists");
            }
            default -> { }
        }
    }

    /**
     * Reads the file through FileChannel.read(ByteBuffer) in chunks, checking
     * the position after every read.
     */
    static byte[] readChannel(Path file) throws Exception {
        byte[] result = new byte[SIZE];
        try (FileChannel fc = FileChannel.open(file)) {
            ByteBuffer bb = ByteBuffer.allocate(8191);
            int total = 0;
            int n;
            while ((n = fc.read(bb.clear())) != -1) {
                bb.flip().get(result, total, n);
                total += n;
                if (fc.position() != total)
                    throw new RuntimeException("position " + fc.position() + " after "
                                               + total + " bytes");
            }
            if (total != SIZE)
                throw new RuntimeException("read " + total + " bytes");
        }
        return result;
    }
}

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
 * @summary JFR's jdk.FileDispatch event: off in the default and profile settings;
 *          when enabled, one event per FileChannel read or positional write, with its
 *          route, whether it wrote, and the bytes; a platform thread's read and write
 *          are "blocked", and so is the read of cached data by a virtual thread whose
 *          carrier has nothing else to run (in auto)
 * @requires os.family == "linux"
 * @modules jdk.jfr
 * @run main/othervm IoUringDispatchEvent auto
 * @run main/othervm -Djdk.nio.file.ioUring=never IoUringDispatchEvent never
 * @run main/othervm -Djdk.internal.nio.ioUring.mode=always IoUringDispatchEvent always
 */

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import jdk.jfr.Configuration;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import static java.nio.file.StandardOpenOption.*;

public class IoUringDispatchEvent {
    static final String NAME = "jdk.FileDispatch";

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path file = Files.createTempFile(Path.of("."), "dispatch", ".dat");
        try (FileChannel fc = FileChannel.open(file, READ, WRITE)) {
            // the event's fields
            EventType type = FlightRecorder.getFlightRecorder().getEventTypes().stream()
                    .filter(t -> t.getName().equals(NAME)).findFirst()
                    .orElseThrow(() -> new RuntimeException("no event type " + NAME));
            for (String f : List.of("route", "write", "bytes")) {
                if (type.getField(f) == null)
                    throw new RuntimeException(NAME + " has no field " + f);
            }

            // off in the settings the JDK ships
            for (String settings : List.of("default", "profile")) {
                try (Recording r = new Recording(Configuration.getConfiguration(settings))) {
                    r.start();
                    Thread.ofPlatform().name("platform").start(() -> io(fc, false)).join();
                    Thread.ofVirtual().name("virtual").start(() -> io(fc, true)).join();
                    r.stop();
                    List<RecordedEvent> events = events(r);
                    if (!events.isEmpty())
                        throw new RuntimeException(settings + ": recorded " + events);
                }
            }

            // enabled: one event per operation
            try (Recording r = new Recording()) {
                r.enable(NAME).withoutStackTrace();
                r.start();
                Thread.ofPlatform().name("platform").start(() -> io(fc, false)).join();
                Thread.ofVirtual().name("virtual").start(() -> io(fc, true)).join();
                r.stop();
                List<RecordedEvent> events = events(r);
                events.forEach(System.out::println);
                if (events.size() != 4)
                    throw new RuntimeException(events.size() + " events, expected 4");
                // what may be taken: a ring where io_uring cannot be had
                Set<String> ring = Set.of("io_uring", "compensated", "blocked");
                check(events.get(0), "platform", true, 4096,
                      mode.equals("always") ? ring : Set.of("blocked"));
                check(events.get(1), "platform", false, 4096,
                      mode.equals("always") ? ring : Set.of("blocked"));
                check(events.get(2), "virtual", true, 4096,
                      mode.equals("always") ? ring : Set.of("blocked"));
                // written just before: in the page cache; the only virtual
                // thread, whose carrier has nothing else to run, reads it with pread
                check(events.get(3), "virtual", false, 4096,
                      switch (mode) {
                          case "auto" -> Set.of("blocked");
                          case "never" -> Set.of("blocked");
                          default -> ring;
                      });
            }
        } finally {
            Files.deleteIfExists(file);
        }
        System.out.println("passed");
    }

    /** Writes 4 KiB at 0 and reads them back, with positional operations. */
    static void io(FileChannel fc, boolean virtual) {
        try {
            ByteBuffer bb = ByteBuffer.allocate(4096);
            while (bb.hasRemaining())
                bb.put((byte) (virtual ? 'v' : 'p'));
            if (fc.write(bb.flip(), 0) != 4096)
                throw new RuntimeException("short write");
            bb.clear();
            if (fc.read(bb, 0) != 4096)
                throw new RuntimeException("short read");
            if (bb.get(4095) != (byte) (virtual ? 'v' : 'p'))
                throw new RuntimeException("read back other bytes");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static List<RecordedEvent> events(Recording r) throws Exception {
        Path jfr = Files.createTempFile(Path.of("."), "dispatch", ".jfr");
        try {
            r.dump(jfr);
            return RecordingFile.readAllEvents(jfr).stream()
                    .filter(e -> e.getEventType().getName().equals(NAME))
                    .filter(e -> e.getThread() != null
                            && Set.of("platform", "virtual").contains(e.getThread().getJavaName()))
                    .sorted((a, b) -> a.getStartTime().compareTo(b.getStartTime()))
                    .toList();
        } finally {
            Files.deleteIfExists(jfr);
        }
    }

    static void check(RecordedEvent e, String thread, boolean write, long bytes, Set<String> routes) {
        if (!e.getThread().getJavaName().equals(thread) || e.getBoolean("write") != write
                || e.getLong("bytes") != bytes || !routes.contains(e.getString("route")))
            throw new RuntimeException("expected a " + (write ? "write" : "read") + " of " + bytes
                    + " bytes by " + thread + " with a route in " + routes + ": " + e);
    }
}

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
 * @summary FileInputStream.skip on a FIFO, a child process pipe and /dev/zero
 *     while jdk.FileRead events are enabled: the skip reads, so FileRead
 *     events are recorded for the bytes skipped, and the counts are right;
 *     after the recording, skip still skips
 * @requires os.family != "windows"
 * @requires vm.hasJFR
 * @modules jdk.jfr
 * @build NonSeekable
 * @run junit/othervm SkipNonSeekableJFR
 */

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

public class SkipNonSeekableJFR {

    static Path dir;

    @BeforeAll
    static void makeDir() throws IOException {
        dir = NonSeekable.tempDir();
    }

    @AfterAll
    static void removeDir() throws IOException {
        NonSeekable.deleteDir(dir);
    }

    interface Action { void run() throws Exception; }

    /** Runs an action with jdk.FileRead enabled for every read; returns the FileRead events. */
    static List<RecordedEvent> record(Action action) throws Exception {
        Path file = Files.createTempFile(dir, "recording", ".jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.FileRead").withThreshold(Duration.ZERO).with("throttle", "off");
            r.start();
            action.run();
            r.stop();
            r.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("jdk.FileRead"))
                .toList();
        Files.delete(file);
        return events;
    }

    /** The sum of bytesRead over the events that match. */
    static long bytesRead(List<RecordedEvent> events, Predicate<RecordedEvent> filter) {
        return events.stream().filter(filter).mapToLong(e -> e.getLong("bytesRead")).sum();
    }

    static boolean byThread(RecordedEvent e, long tid) {
        return e.getThread() != null && e.getThread().getJavaThreadId() == tid;
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void testFifo(boolean virtual) throws Exception {
        Path fifo = NonSeekable.mkfifo(dir, "fifo-" + virtual);
        long total = 5_000_000;
        long n1 = 1_234_567;
        long n2 = 2_000_000;
        try (NonSeekable.FifoEnds ends = NonSeekable.openFifo(fifo)) {
            NonSeekable.Feeder feeder = new NonSeekable.Feeder(ends.out(), total);
            FileInputStream in = ends.in();
            List<RecordedEvent> events = record(() -> NonSeekable.runIn(virtual, () -> {
                assertEquals(n1, in.skip(n1), "skip(" + n1 + ") with FileRead enabled");
                assertEquals(NonSeekable.pattern(n1) & 0xff, in.read());
                return null;
            }));
            String path = fifo.toString();
            List<RecordedEvent> mine = events.stream()
                    .filter(e -> path.equals(e.getString("path")))
                    .toList();
            System.err.println(mine.size() + " FileRead events for " + path);
            assertFalse(mine.isEmpty(), "no FileRead event for skip(" + n1 + ") on " + path);
            assertEquals(n1 + 1, bytesRead(mine, e -> true),
                    "bytes read by skip(" + n1 + ") and read() in the FileRead events");

            // no longer recording
            long off = n1 + 1;
            assertEquals(n2, in.skip(n2), "skip(" + n2 + ") after the recording");
            off += n2;
            assertEquals(NonSeekable.pattern(off) & 0xff, in.read());
            off++;
            assertEquals(total - off, in.skip(total), "skip to end of stream");
            assertEquals(-1, in.read());
            feeder.await();
        }
    }

    @Test
    void testProcessPipe() throws Exception {
        long total = 3_000_000;
        Process p = NonSeekable.javaChild(NonSeekable.PatternWriter.class, Long.toString(total))
                .start();
        try (InputStream in = p.getInputStream()) {
            long n = 1_000_000;
            long tid = Thread.currentThread().threadId();
            List<RecordedEvent> events = record(() -> {
                // empty buffer: goes to the FileInputStream
                assertEquals(n, in.skip(n), "skip(" + n + ") with FileRead enabled");
            });
            long read = bytesRead(events, e -> byThread(e, tid) && e.getString("path") == null);
            System.err.println(events.size() + " FileRead events, " + read + " bytes read");
            assertEquals(n, read, "bytes read by skip(" + n + ") in the FileRead events of this thread");
            assertEquals(NonSeekable.pattern(n) & 0xff, in.read());
            assertEquals(total - n - 1, in.skip(total) + in.skip(total), "skip to end of stream");
            assertEquals(-1, in.read());
        } catch (Throwable e) {
            p.destroyForcibly();
            throw e;
        }
        assertEquals(0, NonSeekable.waitFor(p));
    }

    @Test
    void testDevZero() throws Exception {
        try (FileInputStream in = new FileInputStream("/dev/zero")) {
            long n = 3_000_000;
            List<RecordedEvent> events = record(() -> {
                assertEquals(n, in.skip(n), "skip(" + n + ") with FileRead enabled");
            });
            long read = bytesRead(events, e -> "/dev/zero".equals(e.getString("path")));
            assertEquals(n, read, "bytes read by skip(" + n + ") in the FileRead events");
            assertEquals(n, in.skip(n), "skip(" + n + ") after the recording");
            assertEquals(0, in.read());
        }
    }
}

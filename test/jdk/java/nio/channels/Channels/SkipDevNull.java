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
 * @test id=file
 * @summary Pipe and FIFO skip when /dev/null is a regular file (bind mount in a private
 *          mount namespace): counts and the next byte are right, the file stays empty
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm/timeout=300 SkipDevNull file
 */

/*
 * @test id=missing
 * @summary Pipe and FIFO skip when there is no /dev/null (empty /dev), or it is a
 *          directory, or another character device (/dev/zero)
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm/timeout=300 SkipDevNull missing dir zero
 */

/*
 * @test id=fifo
 * @summary Pipe and FIFO skip when /dev/null is a FIFO nobody reads: opening it must not
 *          block the VM
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm/timeout=300 SkipDevNull fifo
 */

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.JDKToolFinder;
import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;
import jtreg.SkippedException;

public class SkipDevNull {
    static final int LEN = 300_000;
    static final long CHILD_TIMEOUT_SECONDS = 60;

    public static void main(String[] args) throws Exception {
        if (args[0].equals("child")) {
            child();
            return;
        }
        if (!Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid")))
            throw new SkippedException("not root: cannot mount over /dev/null");
        if (!Files.isExecutable(Path.of("/usr/bin/unshare"))
                || new ProcessBuilder("/usr/bin/unshare", "--mount", "--propagation", "private",
                                      "true").inheritIO().start().waitFor() != 0)
            throw new SkippedException("unshare --mount not available here");

        for (String scenario : args) {
            Path dir = Files.createTempDirectory(Path.of(".").toAbsolutePath(), scenario);
            String setup = switch (scenario) {
                // a regular file that would receive the skipped bytes
                case "file" -> "touch " + dir + "/file && mount --bind " + dir + "/file /dev/null";
                // no /dev/null at all
                case "missing" -> "mount -t tmpfs none /dev";
                // open fails with EISDIR
                case "dir" -> "mount -t tmpfs none /dev && mkdir /dev/null";
                // a character device, but not the null device
                case "zero" -> "mount --bind /dev/zero /dev/null";
                // open(O_WRONLY) of a FIFO without a reader blocks
                case "fifo" -> "mkfifo " + dir + "/fifo && mount --bind " + dir + "/fifo /dev/null";
                default -> throw new IllegalArgumentException(scenario);
            };
            List<String> cmd = new ArrayList<>(List.of("/usr/bin/unshare", "--mount",
                    "--propagation", "private", "/bin/sh", "-c",
                    setup + " && ls -ld /dev/null 2>&1; exec \"$@\"", "sh"));
            cmd.addAll(ProcessTools.createTestJavaProcessBuilder("SkipDevNull", "child").command());
            System.out.println("Scenario " + scenario + ": " + setup);
            OutputAnalyzer out = run(new ProcessBuilder(cmd), scenario);
            out.stdoutShouldContain("child passed");
            if (scenario.equals("file")) {
                long size = Files.size(dir.resolve("file"));
                if (size != 0)
                    throw new RuntimeException("FAIL " + scenario + ": " + size
                            + " skipped bytes went to the file mounted on /dev/null");
            }
            System.out.println("PASS /dev/null " + scenario + ": "
                    + out.firstMatch("^.*/dev/null.*$") + "; skip counts and next bytes right");
        }
    }

    static OutputAnalyzer run(ProcessBuilder pb, String scenario) throws Exception {
        Process p = pb.start();
        OutputAnalyzer out = new OutputAnalyzer(p);
        if (!p.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            // the java process is the one sh exec'ed into
            OutputAnalyzer dump = ProcessTools.executeProcess(JDKToolFinder.getJDKTool("jstack"),
                    Long.toString(p.pid()));
            dump.outputTo(System.out);
            p.destroyForcibly();
            throw new RuntimeException("FAIL /dev/null " + scenario + ": child hangs after "
                    + CHILD_TIMEOUT_SECONDS + "s (jstack above)");
        }
        out.outputTo(System.out);
        out.errorTo(System.out);
        out.shouldHaveExitValue(0);
        return out;
    }

    // -- child --

    static byte pattern(int i) {
        return (byte) (i * 7 + (i >>> 10));
    }

    static void child() throws Exception {
        for (boolean virtual : new boolean[] { false, true }) {
            Pipe pipe = Pipe.open();
            try (InputStream in = Channels.newInputStream(pipe.source())) {
                check("pipe", in, Channels.newOutputStream(pipe.sink()), virtual);
            }
            Path fifo = Path.of("fifo" + virtual);
            Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
            if (mk.waitFor() != 0)
                throw new RuntimeException("mkfifo failed");
            try {
                // opening either end blocks until the other end is opened
                OutputStream[] sink = new OutputStream[1];
                Thread opener = Thread.ofPlatform().start(() -> {
                    try {
                        sink[0] = Channels.newOutputStream(FileChannel.open(fifo, WRITE));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                try (InputStream in = Files.newInputStream(fifo)) {
                    opener.join();
                    check("fifo", in, sink[0], virtual);
                }
            } finally {
                Files.delete(fifo);
            }
        }
        System.out.println("child passed");
    }

    /**
     * Writes LEN bytes to out in another thread and skips them from in, on a
     * platform or virtual thread, checking counts and the bytes after each skip.
     */
    static void check(String what, InputStream in, OutputStream out, boolean virtual)
            throws Exception {
        Thread writer = Thread.ofPlatform().start(() -> {
            try (out) {
                byte[] b = new byte[LEN];
                for (int i = 0; i < LEN; i++)
                    b[i] = pattern(i);
                out.write(b);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        Exception[] failure = new Exception[1];
        Runnable reader = () -> {
            try {
                long pos = 0;
                for (long n : new long[] { 1, 70_000, 100_000 }) {
                    long skipped = in.skip(n);
                    if (skipped != n)
                        throw new RuntimeException(what + ": skip(" + n + ") at " + pos
                                + " returned " + skipped);
                    pos += n;
                    int b = in.read();
                    if (b != (pattern((int) pos) & 0xff))
                        throw new RuntimeException(what + ": byte after skip at " + pos + " is " + b);
                    pos++;
                }
                // up to end of stream: what is left
                long skipped = in.skip(1_000_000);
                if (skipped != LEN - pos)
                    throw new RuntimeException(what + ": skip to EOF returned " + skipped
                            + ", expected " + (LEN - pos));
                if (in.read() != -1 || in.skip(10) != 0)
                    throw new RuntimeException(what + ": not at EOF");
            } catch (Exception e) {
                failure[0] = e;
            }
        };
        Thread t = virtual ? Thread.ofVirtual().start(reader) : Thread.ofPlatform().start(reader);
        t.join();
        writer.join();
        if (failure[0] != null)
            throw failure[0];
        System.out.println(what + (virtual ? " (virtual thread)" : " (platform thread)") + ": ok");
    }
}

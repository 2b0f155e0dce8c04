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
 * @summary The io_uring probe and fallback (jdk.nio.file.ioUring.debug output, simulated
 *          failure), and that no ring
 *          fd is inherited by a child process
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm/timeout=300 IoUringProbe
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

public class IoUringProbe {
    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            child(args[0]);
            return;
        }

        // which path each mode reports
        OutputAnalyzer out = run("always", "verify");
        boolean available = out.getStderr().contains("using io_uring");
        System.out.println("io_uring available: " + available);
        if (!available)
            out.shouldContain("io_uring unavailable (");
        run("never", "verify").shouldContain("jdk.nio.file.ioUring=never: using pread/pwrite");
        run("auto", "verify").shouldContain("jdk.nio.file.ioUring=auto: ");
        run("bogus", "verify").shouldContain("jdk.nio.file.ioUring=auto: ");
        run("compensate", "verify").shouldContain("jdk.nio.file.ioUring=compensate: using pread/pwrite");

        // a malformed test-only fault is no fault: reads and writes work
        for (String fault : List.of("submit:x", "wait:", ":", "nonsense", "submit:99999999999"))
            run("always", "verify", "-Djdk.internal.nio.ioUring.testFault=" + fault);

        // simulated failure: everything falls back and still works
        run("always", "verify", "-Djdk.internal.nio.ioUring.testUnavailable=simulated-ENOSYS")
                .shouldContain("io_uring unavailable (simulated-ENOSYS (simulated))");

        // no ring fd leaks into a child process, though the parent has one
        if (available) {
            run("always", "fds").shouldContain("parent has ring fd: true")
                    .shouldContain("child ring fds: 0");
        }

        // kernel.io_uring_disabled is machine-wide, so it is not changed here while other
        // tests run: `make fault` covers it (make/scripts/fault.sh)
    }

    static OutputAnalyzer run(String mode, String what, String... extra) throws Exception {
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add("-Djdk.internal.nio.ioUring.mode=" + mode);
        cmd.add("-Djdk.nio.file.ioUring.debug=true");
        cmd.addAll(Arrays.asList(extra));
        cmd.add("IoUringProbe");
        cmd.add(what);
        OutputAnalyzer out = ProcessTools.executeTestJava(cmd.toArray(new String[0]));
        out.outputTo(System.out);
        out.errorTo(System.out);
        out.shouldHaveExitValue(0);
        return out;
    }

    static void child(String what) throws Exception {
        Path f = Files.createTempFile(Path.of("."), "probe", ".dat");
        try {
            byte[] data = new byte[1 << 20];
            new java.util.Random(42).nextBytes(data);
            Files.write(f, data);
            try (FileChannel fc = FileChannel.open(f, READ, WRITE)) {
                // platform and virtual thread reads and writes, checked
                Throwable[] failure = new Throwable[1];
                for (int k = 0; k < 2; k++) {
                    Thread t = (k == 0 ? Thread.ofPlatform() : Thread.ofVirtual()).start(() -> {
                        try {
                            for (int i = 0; i < 100; i++) {
                                int pos = i * 4096;
                                ByteBuffer bb = (i % 2 == 0) ? ByteBuffer.allocate(4096)
                                                             : ByteBuffer.allocateDirect(4096);
                                if (fc.read(bb, pos) != 4096)
                                    throw new RuntimeException("short read");
                                for (int j = 0; j < 4096; j++)
                                    if (bb.get(j) != data[pos + j])
                                        throw new RuntimeException("bad byte");
                                bb.flip();
                                if (fc.write(bb, pos) != 4096)
                                    throw new RuntimeException("short write");
                            }
                            if (fc.read(ByteBuffer.allocate(1), data.length) != -1)
                                throw new RuntimeException("no EOF");
                        } catch (Throwable e) {
                            failure[0] = e;
                        }
                    });
                    t.join();
                    if (failure[0] != null)
                        throw new RuntimeException(failure[0]);
                }
            }
            if (!Arrays.equals(Files.readAllBytes(f), data))
                throw new RuntimeException("file changed");
            if (what.equals("fds")) {
                System.out.println("parent has ring fd: " + !IoUringRings.fds().isEmpty());
                Process p = new ProcessBuilder("sh", "-c",
                        "for f in /proc/$$/fd/*; do readlink $f; done").start();
                String fds = new String(p.getInputStream().readAllBytes());
                p.waitFor();
                long n = fds.lines().filter(s -> s.contains("io_uring")).count();
                System.out.println("child fds:\n" + fds);
                System.out.println("child ring fds: " + n);
            }
        } finally {
            Files.delete(f);
        }
    }
}

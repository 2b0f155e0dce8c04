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
 * @test id=seccomp
 * @summary io_uring system calls failing with EPERM (a seccomp filter, as in containers):
 *          positional reads and writes fall back to pread/pwrite with identical results,
 *          and the diagnostic gives the reason
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm/native/timeout=300 IoUringFault seccomp
 */

/*
 * @test id=seccomp-enter
 * @summary io_uring_setup succeeds but io_uring_enter fails with EPERM: the probe
 *          rejects the ring, falls back, and keeps no ring fd open
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm/native/timeout=300 IoUringFault seccomp-enter
 */

/*
 * @test id=memlock
 * @summary RLIMIT_MEMLOCK of 0, and (as an unprivileged user, when run as root) of 0 and
 *          of a little more than one ring: io_uring is used, by all or some rings, or
 *          falls back with a reason; results are identical either way
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm/native/timeout=300 IoUringFault memlock
 */

/*
 * @test id=nofile
 * @summary Ring creation failing after the first rings (EMFILE with
 *          -Djdk.internal.nio.ioUring.rings=4, in io_uring_setup or in eventfd): the
 *          rings created are used, none is leaked, results are identical
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm/native/timeout=300 IoUringFault nofile
 */

/*
 * @test id=busy
 * @summary io_uring_enter taking nothing of a submission (EBUSY, EAGAIN: the kernel short of
 *          CQ ring space or memory): that operation is done with pread/pwrite, the ring goes
 *          on with the next ones, and results are identical
 * @requires os.family == "linux"
 * @library /test/lib
 * @build IoUringCounts IoUringRings IoUringModelFile
 * @modules jdk.jfr
 * @run main/othervm/native/timeout=300 IoUringFault busy
 */

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.Utils;
import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;
import jtreg.SkippedException;

public class IoUringFault {
    static final String LAUNCHER = "IoUringFaultLauncher";
    static final Pattern DIGEST = Pattern.compile("^digest: ([0-9a-f]+)$", Pattern.MULTILINE);
    static final Pattern RING_FDS = Pattern.compile("^ring fds: (\\d+)$", Pattern.MULTILINE);
    static final Pattern COMPLETIONS = Pattern.compile("^ring completions: (\\d+)$", Pattern.MULTILINE);
    static final int OPS = 1 + 2 * 300;   // positional operations of a child
    static final Pattern DIAG = Pattern.compile("^jdk\\.nio\\.file\\.ioUring=.*$", Pattern.MULTILINE);

    public static void main(String[] args) throws Exception {
        if (args[0].equals("child")) {
            child(Integer.parseInt(args[1]));
            return;
        }
        // a fault is only injected where io_uring works
        String diag = diagnostic(run(List.of(), "always", -1));
        if (!diag.contains(": using io_uring ("))
            throw new SkippedException("io_uring not usable here: " + diag);
        // pread/pwrite: the reference every faulty run must reproduce
        String reference = digest(run(List.of(), "never", -1));
        switch (args[0]) {
            case "seccomp" -> {
                for (String mode : List.of("always", "auto")) {
                    OutputAnalyzer out = run(List.of("--seccomp=all"), mode, -1);
                    expectFallback(out, mode, "io_uring_setup: Operation not permitted");
                    check(out, reference, 0, 0);
                    verdict("seccomp=all, " + mode, out);
                }
            }
            case "busy" -> {
                // the 100th submission from the first read on, of 601 operations and
                // the reads of the recorder's startup (a few tens): one of the test's
                Path jfr = Path.of("busy.jfr");
                OutputAnalyzer out = run(List.of(), "always", -1,
                        "-Djdk.internal.nio.ioUring.testFault=busy:100",
                        IoUringCounts.recordingOption(jfr));
                if (out.getStderr().contains(" failed ("))
                    throw new RuntimeException("FAIL: a ring died of a submission not taken");
                Map<String, Long> counts = IoUringCounts.count(jfr);
                long ring = counts.get(IoUringCounts.RING);
                long fallback = counts.get(IoUringCounts.FALLBACK);
                if (fallback != 1 || ring < OPS - 1)
                    throw new RuntimeException("FAIL: " + ring + " operations through a ring and "
                            + fallback + " with pread/pwrite, expected " + (OPS - 1)
                            + " or more and 1 (" + counts + ")");
                check(out, reference, -1, OPS - 1);
                verdict("busy:100, always", out);
            }
            case "seccomp-enter" -> {
                OutputAnalyzer out = run(List.of("--seccomp=enter"), "always", -1);
                expectFallback(out, "always", "io_uring_enter: Operation not permitted");
                check(out, reference, 0, 0);
                verdict("seccomp=enter, always", out);
            }
            case "memlock" -> {
                // root: CAP_IPC_LOCK exempts it from RLIMIT_MEMLOCK
                for (String mode : List.of("always", "auto"))
                    memlock(reference, 0, false, mode);
                // an unprivileged user's rings count against RLIMIT_MEMLOCK on some kernels;
                // 256 KiB holds one ring of the default depth, not four
                if (isRoot() && Files.isExecutable(Path.of(SETPRIV)) && unprivilegedCanRunJdk()) {
                    memlock(reference, 0, true, "always");
                    memlock(reference, 256 * 1024, true, "always", "-Djdk.internal.nio.ioUring.rings=4");
                } else {
                    System.out.println("not root, no setpriv, or user 65534 cannot run the test JDK"
                            + " (e.g. a clone under /root): unprivileged cases not run");
                }
            }
            case "nofile" -> {
                // the child leaves k descriptors free before its first positional op;
                // a ring takes two (its own and the eventfd that wakes its thread), so
                // ring k/2+1 of 4 fails with EMFILE, in io_uring_setup or in eventfd
                for (int k = 0; k <= 3; k++) {
                    OutputAnalyzer out = run(List.of("--nofile=256"), "always", k,
                            "-Djdk.internal.nio.ioUring.rings=4");
                    diag = diagnostic(out);
                    int rings = k / 2;
                    String failed = (k % 2 == 0 ? "io_uring_setup" : "eventfd")
                            + ": Too many open files";
                    if (rings == 0) {
                        expectFallback(out, "always", failed);
                    } else if (!diag.equals("jdk.nio.file.ioUring=always: using io_uring ("
                            + rings + " ring(s) of depth 4096; ring " + (rings + 1)
                            + " of 4: " + failed + ")")) {
                        throw new RuntimeException("FAIL: expected " + rings + " ring(s): " + diag);
                    }
                    // the diagnostic comes with the first positional op, after the fds are used up
                    String err = out.getStderr();
                    if (err.indexOf("free fds: " + k) < 0
                            || err.indexOf("free fds: " + k) > err.indexOf(diag))
                        throw new RuntimeException("FAIL: rings created before the fds were used up");
                    check(out, reference, rings, rings == 0 ? 0 : OPS);
                    verdict("RLIMIT_NOFILE, " + k + " fd(s) free, rings=4", out);
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static final String SETPRIV = "/usr/bin/setpriv";

    static boolean isRoot() throws IOException {
        return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    }

    // user 65534 can start the test JDK (it cannot where a directory above it is root's only)
    static boolean unprivilegedCanRunJdk() throws Exception {
        String java = Path.of(System.getProperty("test.jdk"), "bin", "java").toString();
        Process p = new ProcessBuilder(SETPRIV, "--reuid=65534", "--regid=65534", "--clear-groups",
                java, "-version").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor() == 0;
    }

    /**
     * Runs the child with RLIMIT_MEMLOCK limit, as root or as user 65534, and
     * accepts that io_uring is used by any number of rings or not at all, as
     * long as the results are right and no ring fd is left behind.
     */
    static void memlock(String reference, int limit, boolean unprivileged, String mode,
                        String... extra) throws Exception {
        OutputAnalyzer out = run(List.of("--memlock=" + limit), unprivileged, mode, -1, extra);
        out.stdoutShouldMatch("Max locked memory +" + limit + " +" + limit + " ");
        String diag = diagnostic(out);
        Matcher m = Pattern.compile(": using io_uring \\((\\d+) ring\\(s\\)").matcher(diag);
        int rings = m.find() ? Integer.parseInt(m.group(1)) : 0;
        if (rings == 0 && !diag.contains(": io_uring unavailable ("))
            throw new RuntimeException("FAIL: unexpected diagnostic: " + diag);
        // a ring refused for memory names the limit
        if (diag.contains("Cannot allocate memory") && !diag.contains("(RLIMIT_MEMLOCK=" + limit + ")"))
            throw new RuntimeException("FAIL: ENOMEM without the limit: " + diag);
        // always: every op through the rings; auto: at least the probe's NOP
        check(out, reference, rings, rings == 0 ? 0 : mode.equals("always") ? OPS : 1);
        verdict("RLIMIT_MEMLOCK=" + limit + (unprivileged ? " unprivileged, " : " root, ")
                + mode + (extra.length > 0 ? " " + String.join(" ", extra) : "") + " (io_uring "
                + (rings == 0 ? "not used" : "used, " + rings + " ring(s)") + ")", out);
    }

    static OutputAnalyzer run(List<String> faults, String mode, int freeFds, String... extra)
            throws Exception {
        return run(faults, false, mode, freeFds, extra);
    }

    /**
     * Runs the child with the given io_uring mode, through the launcher with the
     * given options unless there are none, as user 65534 if unprivileged.
     */
    static OutputAnalyzer run(List<String> faults, boolean unprivileged, String mode,
                              int freeFds, String... extra) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add("-Djdk.internal.nio.ioUring.mode=" + mode);
        cmd.add("-Djdk.nio.file.ioUring.debug=true");
        cmd.addAll(Arrays.asList(extra));
        cmd.add("IoUringFault");
        cmd.add("child");
        cmd.add(Integer.toString(freeFds));
        ProcessBuilder pb = ProcessTools.createTestJavaProcessBuilder(cmd);
        if (!faults.isEmpty()) {
            Path launcher = Path.of(Utils.TEST_NATIVE_PATH, LAUNCHER);
            if (!Files.isExecutable(launcher))
                throw new RuntimeException(launcher + " not found");
            List<String> full = new ArrayList<>();
            full.add(launcher.toString());
            full.addAll(faults);
            if (unprivileged) {
                full.addAll(List.of(SETPRIV, "--reuid=65534", "--regid=65534", "--clear-groups"));
                // a directory the user may create its file in
                Path dir = Files.createTempDirectory(Path.of(".").toAbsolutePath(), "nobody");
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
                pb.directory(dir.toFile());
            }
            full.addAll(pb.command());
            pb.command(full);
        }
        System.out.println("Running " + faults + (unprivileged ? " as 65534 " : " ") + cmd);
        OutputAnalyzer out = ProcessTools.executeProcess(pb);
        out.outputTo(System.out);
        out.errorTo(System.out);
        if (out.getExitValue() == 3)
            throw new SkippedException("no seccomp filter for this architecture");
        out.shouldHaveExitValue(0);
        return out;
    }

    /** The one diagnostic line. */
    static String diagnostic(OutputAnalyzer out) {
        Matcher m = DIAG.matcher(out.getStderr());
        if (!m.find())
            throw new RuntimeException("FAIL: no jdk.nio.file.ioUring diagnostic");
        String line = m.group();
        if (m.find())
            throw new RuntimeException("FAIL: more than one diagnostic line");
        return line;
    }

    static void expectFallback(OutputAnalyzer out, String mode, String reason) {
        String diag = diagnostic(out);
        String prefix = "jdk.nio.file.ioUring=" + mode + ": io_uring unavailable (" + reason;
        if (!diag.startsWith(prefix) || !diag.endsWith("), using pread/pwrite"))
            throw new RuntimeException("FAIL: expected \"" + prefix + "...\", got: " + diag);
    }

    static String digest(OutputAnalyzer out) {
        Matcher m = DIGEST.matcher(out.getStdout());
        if (!m.find())
            throw new RuntimeException("FAIL: child printed no digest");
        return m.group(1);
    }

    /**
     * Checks that the child's reads, return values and file match those of
     * pread/pwrite, that it has the expected number of ring fds open
     * (ringFds < 0: at least one), and that its rings have posted at least
     * minCompletions completions (exactly none if 0).
     */
    static void check(OutputAnalyzer out, String reference, int ringFds, int minCompletions) {
        String d = digest(out);
        if (!d.equals(reference))
            throw new RuntimeException("FAIL: results differ from pread/pwrite: " + d
                    + " != " + reference);
        Matcher m = RING_FDS.matcher(out.getStdout());
        if (!m.find())
            throw new RuntimeException("FAIL: child printed no ring fd count");
        int n = Integer.parseInt(m.group(1));
        if (ringFds >= 0 ? n != ringFds : n == 0)
            throw new RuntimeException("FAIL: " + n + " io_uring fd(s) open, expected "
                    + (ringFds >= 0 ? ringFds : "some"));
        m = COMPLETIONS.matcher(out.getStdout());
        if (!m.find())
            throw new RuntimeException("FAIL: child printed no completion count");
        long c = Long.parseLong(m.group(1));
        if (minCompletions == 0 ? c != 0 : c < minCompletions)
            throw new RuntimeException("FAIL: rings posted " + c + " completions, expected "
                    + (minCompletions == 0 ? "none" : "at least " + minCompletions));
    }

    static void verdict(String scenario, OutputAnalyzer out) {
        System.out.println("PASS " + scenario + ": " + diagnostic(out)
                + "; results identical to pread/pwrite");
    }

    // -- child --

    /**
     * Positional reads and writes of random sizes and positions, heap and
     * direct buffers, on a platform and then a virtual thread, checked against
     * a model of the file (IoUringModelFile). Prints the digest of every
     * return value, every byte read and the final file, the number of
     * io_uring fds open and the completions they posted. With freeFds >= 0
     * (and a low RLIMIT_NOFILE), opens files until only freeFds descriptors
     * are left before the first read (relative reads go to the rings too).
     */
    static void child(int freeFds) throws Exception {
        if (Files.exists(Path.of("/proc/self/limits"))) {
            // through FileInputStream: a FileChannel read would create the rings
            try (BufferedReader in = new BufferedReader(new FileReader("/proc/self/limits"))) {
                in.lines()
                  .filter(l -> l.startsWith("Max locked memory") || l.startsWith("Max open files"))
                  .forEach(System.out::println);
            }
        }
        try (IoUringModelFile mf = new IoUringModelFile(Path.of("."))) {
            try (FileChannel fc = FileChannel.open(mf.path(), READ, WRITE)) {
                List<FileChannel> filler = (freeFds >= 0) ? exhaustFds(mf.path(), freeFds) : List.of();
                // first read: creates the rings
                mf.read(fc, 0, 16, false);
                for (FileChannel c : filler)
                    c.close();
                for (boolean virtual : new boolean[] { false, true }) {
                    Runnable task = () -> {
                        try {
                            mf.ops(fc, 300);
                        } catch (IOException e) {
                            throw new RuntimeException(e);
                        }
                    };
                    Thread t = virtual ? Thread.ofVirtual().start(task) : Thread.ofPlatform().start(task);
                    t.join();
                }
            }
            String digest = mf.digest();
            System.out.println("ring fds: " + IoUringRings.fds().size());
            System.out.println("ring completions: " + IoUringRings.completions());
            System.out.println("digest: " + digest);
        }
    }

    /**
     * Opens the file until EMFILE, then closes free of them, and returns the
     * channels still open.
     */
    static List<FileChannel> exhaustFds(Path f, int free) throws IOException {
        List<FileChannel> open = new ArrayList<>();
        try {
            for (int i = 0; i < 100_000; i++)
                open.add(FileChannel.open(f, READ));
            throw new RuntimeException("no fd limit");
        } catch (IOException e) {
            if (!e.getMessage().contains("Too many open files"))
                throw e;
        }
        for (int i = 0; i < free; i++)
            open.remove(open.size() - 1).close();
        System.err.println("free fds: " + free + " (" + open.size() + " filler fds)");
        return open;
    }
}

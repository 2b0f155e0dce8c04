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
 * @summary Bad input to FileChannel positional reads and writes (negative, huge and past-EOF
 *          positions, every kind of buffer, closed and wrong-mode channels, append mode,
 *          FIFOs, directories, devices, /proc, O_DIRECT misalignment, interrupts), to the
 *          other FileChannel operations and to ChannelInputStream.skip has the same outcome
 *          with jdk.nio.file.ioUring=never (upstream's code path), auto and always, on
 *          platform and virtual threads; and on a baseline JDK when one is named
 * @requires os.family == "linux"
 * @library /test/lib
 * @modules jdk.unsupported
 * @build IoUringBadInputCases
 * @run main/othervm/timeout=300 IoUringBadInput
 */

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

/**
 * Runs IoUringBadInputCases in child JVMs and compares their outputs line by
 * line with the output of jdk.nio.file.ioUring=never on a platform thread.
 *
 * <p> A baseline (unmodified) JDK to compare with as well is named by the
 * system property {@code nio.uring.baseline.jdk} (jtreg
 * {@code -javaoption:-Dnio.uring.baseline.jdk=<path>}) or the environment
 * variable {@code NIO_URING_BASELINE_JDK} (jtreg
 * {@code -e:NIO_URING_BASELINE_JDK}). The cases with a 2 GiB direct buffer
 * on /dev/zero and /dev/null run when the machine has 8 GiB available;
 * {@code -Dnio.uring.badinput.huge=none|devices|all} chooses (all adds reads
 * of a sparse 3 GiB file, slow).
 */
public class IoUringBadInput {
    // outcomes that upstream has on Linux: the reference run must show them
    static final String[] ANCHORS = {
        "pread.heap.100@-1: ret=- .* exc=java.lang.IllegalArgumentException: Negative position .*",
        "pread.heap.100@9990: ret=10 buf=10/100/100 .*",
        "pread.heap.100@10000: ret=-1 .*",
        "pread.heap.100@MAX: ret=- .* exc=java.io.IOException: Invalid argument intr=false",
        "pread.kind.roHeap@0: .* exc=java.lang.IllegalArgumentException: Read-only buffer .*",
        "pread.writeOnly: .* exc=java.nio.channels.NonReadableChannelException intr=false",
        "pwrite.readOnly: .* exc=java.nio.channels.NonWritableChannelException intr=false",
        "pread.closed: .* open=false exc=java.nio.channels.ClosedChannelException intr=false",
        "pread.fifo.rw: ret=- .* pipe=100/\\p{XDigit}+ exc=java.io.IOException: Illegal seek .*",
        "pwrite.fifo.rw: ret=- .* exc=java.io.IOException: Illegal seek .*",
        "pread.directory: ret=- .* exc=java.io.IOException: Is a directory .*",
        "pwrite.heap.1@MAX-1: ret=- .* exc=java.io.IOException: File too large .*",
        "pwrite.append@0: ret=10 .* size=10010 .*",
        "pwrite.devFull@0: ret=- .* exc=java.io.IOException: No space left on device .*",
        "interrupt.pread: ret=- .* open=false "
                + "exc=java.nio.channels.ClosedByInterruptException intr=true",
        "direct.pread.aligned@1: ret=- .* exc=java.io.IOException: Channel position \\(1\\) "
                + "is not a multiple of the block size .*",
        "skip.fifo.MAX: ret=1000 .*",
        "skip.fifo.-1: ret=0 .*",
        "skip.pipe.nonBlocking: ret=- .* exc=java.nio.channels.IllegalBlockingModeException .*",
        "skip.fifo.interrupted: ret=- .* exc=java.nio.channels.ClosedByInterruptException "
                + "intr=true",
    };

    public static void main(String[] args) throws Exception {
        String huge = hugeCases();
        System.out.println("huge cases: " + huge);

        List<String> reference = run(null, "never", "platform", huge);
        checkReference(reference);

        List<String> failures = new ArrayList<>();
        String[][] runs = {
            { "never", "virtual" },
            { "auto", "platform" }, { "auto", "virtual" },
            { "always", "platform" }, { "always", "virtual" },
        };
        for (String[] r : runs)
            compare(reference, run(null, r[0], r[1], huge), r[0] + "/" + r[1], failures);

        String baseline = System.getProperty("nio.uring.baseline.jdk",
                                             System.getenv("NIO_URING_BASELINE_JDK"));
        if (baseline != null && !baseline.isEmpty()) {
            for (String kind : new String[] { "platform", "virtual" }) {
                compare(reference, run(baseline, null, kind, huge),
                        "baseline/" + kind, failures);
            }
        } else {
            System.out.println("no baseline JDK named (nio.uring.baseline.jdk or "
                    + "NIO_URING_BASELINE_JDK): compared with jdk.nio.file.ioUring=never only");
        }

        if (!failures.isEmpty()) {
            System.out.println("Differences from jdk.nio.file.ioUring=never on a platform thread:");
            failures.forEach(System.out::println);
            throw new RuntimeException(failures.size() + " line(s) differ, see output");
        }
        System.out.println(reference.size() + " cases, identical in every run");
    }

    /**
     * The huge cases need about 2.5 GiB for each child JVM, one at a time.
     */
    static String hugeCases() throws IOException {
        String s = System.getProperty("nio.uring.badinput.huge");
        if (s != null)
            return s;
        for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
            if (line.startsWith("MemAvailable:")) {
                long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                return (kb >= 8L * 1024 * 1024) ? "devices" : "none";
            }
        }
        return "none";
    }

    /**
     * Runs the cases on the test JDK with the given mode, or on the given
     * baseline JDK, in a new working directory; returns the outcome lines.
     */
    static List<String> run(String jdk, String mode, String kind, String huge)
        throws Exception
    {
        String name = (jdk == null) ? mode + "." + kind : "baseline." + kind;
        List<String> opts = new ArrayList<>();
        if (mode != null)
            opts.add("-Djdk.internal.nio.ioUring.mode=" + mode);
        opts.add("-Dbadinput.huge=" + huge);
        opts.add("-XX:MaxDirectMemorySize=3g");
        opts.add("IoUringBadInputCases");
        opts.add(kind);
        ProcessBuilder pb;
        if (jdk == null) {
            pb = ProcessTools.createTestJavaProcessBuilder(opts);
        } else {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(jdk, "bin", "java").toString());
            cmd.add("-cp");
            cmd.add(System.getProperty("test.class.path"));
            cmd.addAll(opts);
            pb = new ProcessBuilder(cmd);
        }
        Path work = Files.createDirectories(Path.of("work." + name));
        pb.directory(work.toFile());
        long start = System.nanoTime();
        OutputAnalyzer out = ProcessTools.executeProcess(pb);
        System.out.printf("%s: %d ms%n", name, (System.nanoTime() - start) / 1_000_000);
        Files.writeString(Path.of(name + ".txt"), out.getStdout());
        if (out.getExitValue() != 0) {
            out.outputTo(System.out);
            out.errorTo(System.out);
            throw new RuntimeException(name + ": exit code " + out.getExitValue());
        }
        List<String> lines = new ArrayList<>(out.getStdout().lines().toList());
        String last = lines.isEmpty() ? "" : lines.remove(lines.size() - 1);
        if (!last.equals("# " + lines.size() + " cases"))
            throw new RuntimeException(name + ": incomplete output, last line: " + last);
        return lines;
    }

    static void checkReference(List<String> reference) {
        for (String anchor : ANCHORS) {
            String name = anchor.substring(0, anchor.indexOf(':'));
            String line = reference.stream().filter(l -> l.startsWith(name + ":"))
                    .findFirst().orElse("(missing)");
            if (!line.matches(anchor))
                throw new RuntimeException("never/platform: expected " + anchor + ", got " + line);
        }
    }

    static void compare(List<String> reference, List<String> lines, String name,
                        List<String> failures) {
        if (lines.size() != reference.size()) {
            failures.add(name + ": " + lines.size() + " cases, reference has "
                         + reference.size());
            return;
        }
        int same = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).equals(reference.get(i))) {
                same++;
            } else {
                failures.add(name + ":");
                failures.add("    expected: " + reference.get(i));
                failures.add("    actual:   " + lines.get(i));
            }
        }
        System.out.println(name + ": " + same + " of " + lines.size() + " identical");
    }
}

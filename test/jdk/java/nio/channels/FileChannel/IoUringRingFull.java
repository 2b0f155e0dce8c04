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
 * @summary Many more threads doing positional I/O than the ring has slots
 *          (-Djdk.internal.nio.ioUring.depth): 200 virtual and 8 platform threads, buffered
 *          and O_DIRECT, all complete with the bytes pread/pwrite give, none hangs
 * @requires os.family == "linux"
 * @library /test/lib
 * @run main/othervm/timeout=480 IoUringRingFull
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import com.sun.nio.file.ExtendedOpenOption;
import static java.nio.file.StandardOpenOption.*;

import jdk.test.lib.JDKToolFinder;
import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;
import jtreg.SkippedException;

public class IoUringRingFull {
    static final int VIRTUAL = 200;
    static final int PLATFORM = 8;
    static final int THREADS = VIRTUAL + PLATFORM;
    static final int ITERATIONS = 30;
    static final int BLOCK = 4096;          // every thread owns BLOCKS_PER_THREAD blocks
    static final int BLOCKS_PER_THREAD = 4;
    static final int SHARED_BLOCKS = 256;   // read-only region after the owned blocks
    static final long CHILD_TIMEOUT_SECONDS = 240;
    static final Pattern DIGEST = Pattern.compile("^digest: ([0-9a-f]+)$", Pattern.MULTILINE);

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            child();
            return;
        }
        String reference = digest(run("never"));
        String[][] configs = {
            { "always", "-Djdk.internal.nio.ioUring.depth=4" },
            { "always", "-Djdk.internal.nio.ioUring.depth=1", "-Djdk.internal.nio.ioUring.rings=2" },
            { "auto", "-Djdk.internal.nio.ioUring.depth=4" },
        };
        for (String[] c : configs) {
            OutputAnalyzer out = run(c);
            String d = digest(out);
            if (!d.equals(reference))
                throw new RuntimeException("FAIL " + String.join(" ", c)
                        + ": file differs from the pread/pwrite run");
            String diag = out.firstMatch("^jdk\\.nio\\.file\\.ioUring=.*$");
            out.stdoutShouldContain("all " + THREADS + " threads completed");
            // more threads in a positional op at once than all rings have slots: some
            // waited for a slot (every op of "always" goes through a ring)
            int max = Integer.parseInt(out.firstMatch(
                    "^max threads in a positional op at once: (\\d+)$", 1));
            String shape = "^jdk\\.nio\\.file\\.ioUring=.*\\((\\d+) ring\\(s\\) of depth (\\d+)";
            int slots = Integer.parseInt(out.firstMatch(shape, 1))
                    * Integer.parseInt(out.firstMatch(shape, 2));
            if (c[0].equals("always") && max <= slots)
                throw new RuntimeException("FAIL " + String.join(" ", c)
                        + ": ring never full, at most " + max + " ops at once");
            System.out.println("PASS " + String.join(" ", c) + ": " + diag + "; "
                    + out.firstMatch("^max threads in a positional op at once: \\d+$")
                    + "; file identical to pread/pwrite");
        }
    }

    /**
     * Runs the child with the given io_uring mode and properties; on timeout,
     * prints its thread dump and fails.
     */
    static OutputAnalyzer run(String... config) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add("-Djdk.internal.nio.ioUring.mode=" + config[0]);
        cmd.add("-Djdk.nio.file.ioUring.debug=true");
        for (int i = 1; i < config.length; i++)
            cmd.add(config[i]);
        cmd.add("IoUringRingFull");
        cmd.add("child");
        ProcessBuilder pb = ProcessTools.createTestJavaProcessBuilder(cmd);
        Process p = pb.start();
        OutputAnalyzer out = new OutputAnalyzer(p);   // reads both streams in the background
        if (!p.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            OutputAnalyzer dump = ProcessTools.executeProcess(JDKToolFinder.getJDKTool("jcmd"),
                    Long.toString(p.pid()), "Thread.dump_to_file", "-format=text", "-");
            dump.outputTo(System.out);
            p.destroyForcibly();
            throw new RuntimeException("FAIL " + String.join(" ", config) + ": child hangs after "
                    + CHILD_TIMEOUT_SECONDS + "s (thread dump above)");
        }
        out.outputTo(System.out);
        out.errorTo(System.out);
        out.shouldHaveExitValue(0);
        String diag = out.firstMatch("^jdk\\.nio\\.file\\.ioUring=.*$");
        if (diag != null && diag.contains(": io_uring unavailable ("))
            throw new SkippedException("io_uring not usable here: " + diag);
        String expect = config[0].equals("never") ? "using pread/pwrite" : "using io_uring (";
        out.stderrShouldContain("jdk.nio.file.ioUring=" + config[0] + ": " + expect);
        return out;
    }

    static String digest(OutputAnalyzer out) {
        Matcher m = DIGEST.matcher(out.getStdout());
        if (!m.find())
            throw new RuntimeException("FAIL: child printed no digest");
        return m.group(1);
    }

    // -- child --

    static final AtomicInteger inside = new AtomicInteger();
    static final AtomicInteger maxInside = new AtomicInteger();
    static final AtomicReference<Throwable> failure = new AtomicReference<>();

    static void child() throws Exception {
        Path f = Files.createTempFile(Path.of("."), "ringfull", ".dat");
        try {
            long sharedBase = (long) THREADS * BLOCKS_PER_THREAD * BLOCK;
            byte[] shared = new byte[SHARED_BLOCKS * BLOCK];
            for (int i = 0; i < shared.length; i++)
                shared[i] = (byte) (i * 31 + (i >>> 12));
            try (FileChannel fc = FileChannel.open(f, WRITE)) {
                fc.write(ByteBuffer.wrap(shared), sharedBase);
            }
            FileChannel direct;
            try {
                direct = FileChannel.open(f, READ, WRITE, ExtendedOpenOption.DIRECT);
            } catch (IOException | UnsupportedOperationException e) {
                System.out.println("O_DIRECT not supported here: " + e);
                direct = null;
            }
            try (FileChannel buffered = FileChannel.open(f, READ, WRITE); FileChannel d = direct) {
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int id = t;
                    // every third thread uses O_DIRECT, if it can
                    FileChannel fc = (d != null && t % 3 == 0) ? d : buffered;
                    Runnable task = () -> {
                        try {
                            work(fc, id, fc == d, sharedBase, shared);
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    };
                    threads.add(t < VIRTUAL ? Thread.ofVirtual().unstarted(task)
                                            : Thread.ofPlatform().unstarted(task));
                }
                threads.forEach(Thread::start);
                int waiting = 0;
                while (threads.stream().anyMatch(Thread::isAlive)) {
                    waiting = Math.max(waiting, platformThreadsWaitingForSlot(threads));
                    Thread.sleep(1);
                }
                System.out.println("max threads in a positional op at once: " + maxInside.get());
                System.out.println("max platform threads seen waiting for a slot: " + waiting);
            }
            if (failure.get() != null)
                throw new RuntimeException("a thread failed", failure.get());
            System.out.println("all " + THREADS + " threads completed");

            // what each thread wrote last, and the shared region, read with read(2)
            byte[] content = Files.readAllBytes(f);
            if (content.length != sharedBase + shared.length)
                throw new RuntimeException("file size " + content.length);
            for (int t = 0; t < THREADS; t++) {
                for (int b = 0; b < BLOCKS_PER_THREAD; b++) {
                    long pos = ((long) t * BLOCKS_PER_THREAD + b) * BLOCK;
                    for (int k = 0; k < BLOCK; k++)
                        if (content[(int) pos + k] != pattern(t, ITERATIONS - 1, b, k))
                            throw new RuntimeException("thread " + t + " block " + b + " byte " + k);
                }
            }
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            System.out.println("digest: " + HexFormat.of().formatHex(md.digest(content)));
        } finally {
            Files.delete(f);
        }
    }

    static byte pattern(int thread, int iteration, int block, int k) {
        return (byte) (thread * 7 + iteration * 13 + block * 3 + k * 5 + (k >>> 8));
    }

    /**
     * Per iteration: writes the thread's blocks (one op), reads them back in one
     * op and block by block, and reads a block of the shared region.
     */
    static void work(FileChannel fc, int id, boolean direct, long sharedBase, byte[] shared)
            throws IOException {
        int size = BLOCKS_PER_THREAD * BLOCK;
        // O_DIRECT needs aligned native memory; a heap buffer goes through a
        // temporary direct buffer either way, so alternate for buffered I/O
        ByteBuffer bb = ByteBuffer.allocateDirect(size + BLOCK).alignedSlice(BLOCK);
        ByteBuffer heap = ByteBuffer.allocate(size);
        long base = (long) id * size;
        for (int i = 0; i < ITERATIONS; i++) {
            ByteBuffer buf = (direct || (i + id) % 2 == 0) ? bb : heap;
            buf.clear().limit(size);
            for (int b = 0; b < BLOCKS_PER_THREAD; b++)
                for (int k = 0; k < BLOCK; k++)
                    buf.put(pattern(id, i, b, k));
            buf.flip();
            int n = op(fc, buf, base, true);
            if (n != size)
                throw new RuntimeException("write returned " + n);

            buf.clear().limit(size);
            n = op(fc, buf, base, false);
            if (n != size)
                throw new RuntimeException("read returned " + n);
            for (int b = 0; b < BLOCKS_PER_THREAD; b++)
                for (int k = 0; k < BLOCK; k++)
                    if (buf.get(b * BLOCK + k) != pattern(id, i, b, k))
                        throw new RuntimeException("thread " + id + " iteration " + i
                                + ": read back differs at block " + b + " byte " + k);

            int sb = (id * 31 + i * 17) % SHARED_BLOCKS;
            buf.clear().limit(BLOCK);
            n = op(fc, buf, sharedBase + (long) sb * BLOCK, false);
            if (n != BLOCK)
                throw new RuntimeException("shared read returned " + n);
            for (int k = 0; k < BLOCK; k++)
                if (buf.get(k) != shared[sb * BLOCK + k])
                    throw new RuntimeException("shared block " + sb + " differs at " + k);

            // at end of file: -1
            buf.clear().limit(BLOCK);
            n = op(fc, buf, sharedBase + shared.length, false);
            if (n != -1)
                throw new RuntimeException("read at EOF returned " + n);
        }
    }

    static int op(FileChannel fc, ByteBuffer buf, long pos, boolean write) throws IOException {
        int now = inside.incrementAndGet();
        maxInside.accumulateAndGet(now, Math::max);
        try {
            return write ? fc.write(buf, pos) : fc.read(buf, pos);
        } finally {
            inside.decrementAndGet();
        }
    }

    static int platformThreadsWaitingForSlot(List<Thread> threads) {
        int n = 0;
        for (Thread t : threads) {
            if (t.isVirtual())
                continue;
            for (StackTraceElement e : t.getStackTrace()) {
                if (e.getMethodName().equals("awaitUninterruptibly")) {
                    n++;
                    break;
                }
            }
        }
        return n;
    }
}

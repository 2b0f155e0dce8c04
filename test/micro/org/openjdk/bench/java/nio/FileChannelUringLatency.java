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

package org.openjdk.bench.java.nio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import com.sun.nio.file.ExtendedOpenOption;
import static java.nio.file.StandardOpenOption.*;

import org.openjdk.jmh.annotations.*;

/**
 * Latency of one random positional FileChannel read, sampled per operation
 * (p50, p99, p99.9 in JMH's SampleTime output). The benchmark threads are
 * virtual threads ({@code -Djmh.executor=VIRTUAL}, JMH 1.37), as many as
 * {@code -t} says: {@code -t 1} is one virtual thread reading, {@code -t 4}
 * four. Reads the file of {@link FileChannelUring} (created by it, or here),
 * evicted from the page cache before each iteration ({@code cache=cold}).
 * {@code others} more virtual threads read random blocks of the same file
 * meanwhile, unsampled: {@code -t 1 -p others=3} is the latency one of four
 * virtual threads sees (JMH's own virtual benchmark threads spin at the
 * iteration barriers, which with more threads than carriers can stall a run).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = "-Djmh.executor=VIRTUAL")
@Warmup(iterations = 2, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 2, timeUnit = TimeUnit.SECONDS)
public class FileChannelUringLatency {

    @Param({"4096"})
    public int blockSize;

    @Param({"cold"})
    public String cache;             // hot | cold

    @Param({"false"})
    public boolean direct;           // O_DIRECT

    @Param({"2147483648"})
    public long fileSize;

    @Param({"/var/tmp/nio-uring-bench.dat"})
    public String file;

    @Param({"0"})
    public int others;               // virtual threads reading meanwhile, unsampled

    private Path path;
    private FileChannel fc;
    private long blocks;
    private volatile boolean stop;
    private final List<Thread> readers = new ArrayList<>();
    private final List<Reader> background = new ArrayList<>();

    @State(Scope.Thread)
    public static class Reader {
        final SplittableRandom random;
        final ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20).alignedSlice(4096);
        long count;                  // reads done, by one of the others
        public Reader() {
            this(Thread.currentThread().threadId());
        }
        Reader(long seed) {
            random = new SplittableRandom(seed);
        }
    }

    @Setup(Level.Trial)
    public void createFile() throws IOException {
        FileChannelUring creator = new FileChannelUring();
        creator.op = "read";
        creator.fileSize = fileSize;
        creator.file = file;
        creator.createFile();
        path = Path.of(file);
    }

    @Setup(Level.Iteration)
    public void open() throws Exception {
        List<OpenOption> opts = new ArrayList<>(List.of(READ));
        if (direct)
            opts.add(ExtendedOpenOption.DIRECT);
        if (cache.equals("cold")) {
            FileChannelUring.evict(path);
        } else {
            FileChannelUring.warm(path);
        }
        fc = FileChannel.open(path, opts.toArray(new OpenOption[0]));
        blocks = fileSize / blockSize;
        stop = false;
        for (int i = 0; i < others; i++) {
            Reader r = new Reader(System.nanoTime() + i);
            background.add(r);
            readers.add(Thread.ofVirtual().start(() -> {
                try {
                    while (!stop) {
                        read(r);
                        r.count++;
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }));
        }
    }

    @TearDown(Level.Iteration)
    public void close() throws Exception {
        stop = true;
        for (Thread t : readers)
            t.join();
        readers.clear();
        if (others > 0) {
            // the reads each of the others did: a thread that kept no
            // carrier for itself may do none
            StringBuilder sb = new StringBuilder("reads by the other threads:");
            for (Reader r : background)
                sb.append(' ').append(r.count);
            System.out.println(sb);
        }
        background.clear();
        fc.close();
    }

    @Benchmark
    public int read(Reader r) throws IOException {
        ByteBuffer bb = r.buffer.clear().limit(blockSize);
        return fc.read(bb, r.random.nextLong(blocks) * blockSize);
    }
}

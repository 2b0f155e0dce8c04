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
package org.openjdk.bench.java.io;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.openjdk.jmh.annotations.*;

/**
 * Skip end to end: a producer writes records while the consumer skips
 * everything to end of stream, so that how producer and consumer take turns
 * at the pipe or socket is measured with the consumer's cost. One operation
 * is one MiB skipped; an invocation skips {@code MIB} MiB.
 *
 * <p> Sources: {@code process}, Process.getInputStream() of
 * {@code dd if=/dev/zero bs=<record>}; {@code fifo}, a FileInputStream on a
 * FIFO that a {@code dd of=<fifo> bs=<record>} child writes; {@code pipe},
 * Channels.newInputStream of a Pipe.SourceChannel whose sink a platform
 * thread of this JVM writes; {@code tcp}, Socket.getInputStream() of a
 * loopback connection whose peer a platform thread of this JVM writes;
 * {@code unix}, Channels.newInputStream of a Unix domain SocketChannel
 * likewise. Each write is one record of {@code record} bytes. The consumer
 * runs on a platform or a virtual thread. Per iteration the benchmark prints
 * the consumer's CPU time per MiB, "process CPU per op (ns)": the process's
 * CPU time less that of the producer thread when the producer is in this JVM,
 * and then the producer thread's, "producer CPU per op (ns)".
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = { "-Xms256m", "-Xmx256m" })
public class SkipEndToEnd {
    static final int MIB = 64;
    static final long BYTES = (long) MIB << 20;

    @Param({"process"})
    public String source;            // process | fifo | pipe | tcp | unix

    @Param({"65536"})
    public int record;

    @Param({"platform"})
    public String consumer;          // platform | virtual

    private Path dir;
    private long ops;
    private long cpuStart;
    private long producerCpu;
    private final AtomicLong producerThreadCpu = new AtomicLong();
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final java.lang.management.ThreadMXBean tmx = ManagementFactory.getThreadMXBean();

    @Setup(Level.Trial)
    public void setup() throws Exception {
        dir = Files.createTempDirectory("skip-e2e");
    }

    @TearDown(Level.Trial)
    public void teardown() throws Exception {
        try (var s = Files.list(dir)) {
            for (Path p : s.toList())
                Files.delete(p);
        }
        Files.delete(dir);
    }

    @Setup(Level.Iteration)
    public void startIteration() {
        ops = 0;
        producerCpu = 0;
        cpuStart = os.getProcessCpuTime();
    }

    @TearDown(Level.Iteration)
    public void endIteration() {
        long cpu = os.getProcessCpuTime() - cpuStart - producerCpu;
        if (ops > 0)
            System.out.println("process CPU per op (ns): " + cpu / ops);
        // the other side of the pipe or socket, when it is a thread of this JVM:
        // a consumer that waits for it less makes it wait more
        if (ops > 0 && producerCpu > 0)
            System.out.println("producer CPU per op (ns): " + producerCpu / ops);
    }

    @Benchmark
    @OperationsPerInvocation(MIB)
    public long skip() throws Exception {
        long[] skipped = new long[1];
        Exception[] failure = new Exception[1];
        Runnable run = () -> {
            try {
                skipped[0] = skipFromSource();
            } catch (Exception e) {
                failure[0] = e;
            }
        };
        if (consumer.equals("virtual")) {
            Thread.ofVirtual().start(run).join();
        } else {
            run.run();
        }
        if (failure[0] != null)
            throw failure[0];
        if (skipped[0] != records() * record)
            throw new IllegalStateException("skipped " + skipped[0]);
        ops += MIB;
        return skipped[0];
    }

    private long records() {
        return (BYTES + record - 1) / record;
    }

    private long skipFromSource() throws Exception {
        switch (source) {
            case "process": {
                Process p = dd("of=/dev/stdout");
                try (InputStream in = p.getInputStream()) {
                    return skipAll(in);
                } finally {
                    p.waitFor();
                }
            }
            case "fifo": {
                Path fifo = dir.resolve("fifo");
                if (!Files.exists(fifo)
                        && new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() != 0)
                    throw new IOException("mkfifo failed");
                Process p = dd("of=" + fifo);
                try (InputStream in = new FileInputStream(fifo.toFile())) {
                    return skipAll(in);
                } finally {
                    p.waitFor();
                }
            }
            case "pipe": {
                Pipe pipe = Pipe.open();
                Thread producer = produce(pipe.sink());
                try (InputStream in = Channels.newInputStream(pipe.source())) {
                    return skipAll(in);
                } finally {
                    joinProducer(producer);
                }
            }
            case "tcp": {
                try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                     Socket s = new Socket(ss.getInetAddress(), ss.getLocalPort());
                     Socket peer = ss.accept()) {
                    Thread producer = produce(Channels.newChannel(peer.getOutputStream()),
                                              peer::shutdownOutput);
                    try (InputStream in = s.getInputStream()) {
                        return skipAll(in);
                    } finally {
                        joinProducer(producer);
                    }
                }
            }
            case "unix": {
                Path name = dir.resolve("sock");
                Files.deleteIfExists(name);
                try (ServerSocketChannel ss = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
                    ss.bind(UnixDomainSocketAddress.of(name));
                    try (SocketChannel s = SocketChannel.open(ss.getLocalAddress());
                         SocketChannel peer = ss.accept()) {
                        Thread producer = produce(peer, peer::shutdownOutput);
                        try (InputStream in = Channels.newInputStream(s)) {
                            return skipAll(in);
                        } finally {
                            joinProducer(producer);
                        }
                    }
                }
            }
            default:
                throw new IllegalArgumentException(source);
        }
    }

    private Process dd(String output) throws IOException {
        return new ProcessBuilder("dd", "if=/dev/zero", output, "bs=" + record,
                                  "count=" + records(), "status=none")
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    interface Closer {
        void close() throws IOException;
    }

    private Thread produce(WritableByteChannel ch) {
        return produce(ch, ch::close);
    }

    /**
     * A platform thread that writes records() records to the channel, then
     * closes it, and adds the CPU time it took to producerThreadCpu.
     */
    private Thread produce(WritableByteChannel ch, Closer done) {
        return Thread.ofPlatform().start(() -> {
            ByteBuffer bb = ByteBuffer.allocateDirect(record);
            try {
                for (long i = 0; i < records(); i++) {
                    bb.clear();
                    while (bb.hasRemaining())
                        ch.write(bb);
                }
                done.close();
            } catch (IOException e) {
                throw new RuntimeException(e);
            } finally {
                // measured by the thread itself: once it has ended, its CPU time
                // can no longer be read, and would count as the consumer's
                producerThreadCpu.addAndGet(tmx.getCurrentThreadCpuTime());
            }
        });
    }

    private void joinProducer(Thread producer) throws InterruptedException {
        producer.join();
        producerCpu += producerThreadCpu.getAndSet(0);
    }

    /** Skips to end of stream and returns the bytes skipped. */
    static long skipAll(InputStream in) throws IOException {
        long total = 0;
        for (;;) {
            long k = in.skip(Long.MAX_VALUE);
            if (k > 0) {
                total += k;
            } else if (in.read() < 0) {
                return total;
            } else {
                total++;
            }
        }
    }
}

/*
 * Copyright (c) 2026, nio-uring contributors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.
 */

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import static java.nio.file.StandardOpenOption.READ;

/**
 * How long a virtual thread's cold read takes when the thread it started
 * just before computes for a second, and so may hold the reader's carrier
 * while the other carriers are idle: java BusyCarrier <file> <trials>
 * [pinned]. Run with -Djdk.virtualThreadScheduler.parallelism=2 and the
 * mode to check. The file is dropped from the page cache before each trial
 * (posix_fadvise through python3). A read that waits for the computing
 * thread takes about a second; one that does not, a device's latency.
 */
public class BusyCarrier {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int trials = Integer.parseInt(args[1]);
        boolean pinned = args.length > 2 && args[2].equals("pinned");
        Object lock = new Object();
        try (FileChannel fc = FileChannel.open(file, READ)) {
            long blocks = fc.size() / 4096;
            for (int t = 0; t < trials; t++) {
                evict(file);
                long[] nanos = new long[1];
                String[] carriers = new String[2];
                Thread[] computing = new Thread[1];
                Thread reader = Thread.ofVirtual().start(() -> {
                    computing[0] = Thread.ofVirtual().start(() -> {
                        carriers[1] = carrier();
                        compute();
                    });
                    carriers[0] = carrier();
                    ByteBuffer buf = ByteBuffer.allocate(4096);
                    long pos = ThreadLocalRandom.current().nextLong(blocks) * 4096;
                    long start = System.nanoTime();
                    try {
                        if (pinned) {
                            synchronized (lock) {
                                fc.read(buf, pos);
                            }
                        } else {
                            fc.read(buf, pos);
                        }
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                    nanos[0] = System.nanoTime() - start;
                });
                reader.join();
                computing[0].join();
                System.out.printf("trial %d: read %.1f ms, the computing thread %s%n", t,
                                  nanos[0] / 1e6, carriers[0].equals(carriers[1])
                                          ? "on the reader's carrier" : "on another carrier");
            }
        }
    }

    // the carrier's name, from the virtual thread's string form
    static String carrier() {
        String s = Thread.currentThread().toString();
        return s.substring(s.indexOf('@') + 1);
    }

    static void compute() {
        long end = System.nanoTime() + 1_000_000_000L;
        long x = 0;
        while (System.nanoTime() < end)
            x += x * 31 + 7;
        sink = x;
    }

    static void evict(Path file) throws Exception {
        new ProcessBuilder("python3", "-c",
                "import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); "
                + "os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)", file.toString())
                .inheritIO().start().waitFor();
    }
}

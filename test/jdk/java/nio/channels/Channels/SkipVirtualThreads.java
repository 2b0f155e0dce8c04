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
 * @summary A virtual thread blocked in InputStream.skip on a pipe or socket
 *     stream parks (it neither pins its carrier nor spins): with one carrier,
 *     the virtual thread that writes the bytes it waits for still runs
 * @library /test/lib
 * @build SkipSource
 * @run junit/othervm/timeout=240 -Djdk.virtualThreadScheduler.parallelism=1
 *     -Djdk.virtualThreadScheduler.maxPoolSize=1 SkipVirtualThreads
 */

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.*;

public class SkipVirtualThreads {

    @ParameterizedTest
    @EnumSource(names = { "PIPE", "TCP_CHANNEL", "UNIX_CHANNEL", "SOCKET", "ADAPTOR", "CUSTOM" })
    void testParks(SkipSource.Kind kind) throws Exception {
        try (SkipSource src = SkipSource.open(kind, 0)) {
            for (int round = 0; round < 5; round++) {
                final long base = round * 300_000L;
                CompletableFuture<Long> skipped = new CompletableFuture<>();
                Thread consumer = Thread.ofVirtual().start(() -> {
                    try {
                        skipped.complete(src.in.skip(200_000));
                    } catch (Throwable e) {
                        skipped.completeExceptionally(e);
                    }
                });
                // the consumer parks waiting for bytes
                awaitState(consumer, Thread.State.WAITING);
                // a virtual thread, on the only carrier, writes them in pieces
                Thread producer = Thread.ofVirtual().start(() -> {
                    try {
                        for (int i = 0; i < 4; i++) {
                            src.writePattern(base + i * 75_000L, 75_000);
                            Thread.sleep(10);
                        }
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                assertEquals(200_000, skipped.get(60, TimeUnit.SECONDS));
                byte[] rest = src.in.readNBytes(100_000);
                for (int i = 0; i < rest.length; i++)
                    assertEquals(SkipSource.pattern(base + 200_000 + i), rest[i]);
                producer.join();
            }
        }
    }

    static void awaitState(Thread t, Thread.State state) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (t.getState() != state) {
            assertTrue(System.nanoTime() < deadline, t + " is " + t.getState());
            Thread.sleep(5);
        }
    }
}

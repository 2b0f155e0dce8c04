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
 * @summary A ring whose reaper dies on a kernel without synchronous
 *     cancellation (before Linux 6.0, simulated) while a read is held in the
 *     kernel: the read does not return, and its buffer is not given back,
 *     before the kernel completes it, however long that takes; it then returns
 *     the bytes the kernel wrote. The read is of a pipe that stays empty until
 *     the test writes to it, on a platform and a virtual thread.
 * @requires os.family == "linux"
 * @library /test/lib
 * @modules java.base/sun.nio.ch:+open
 * @run main/othervm/timeout=120 -Djdk.internal.nio.ioUring.testNoSyncCancel=true
 *                               IoUringStuckCompletion
 */

import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.concurrent.locks.LockSupport;
import jtreg.SkippedException;

public class IoUringStuckCompletion {
    // longer than a dying ring used to wait for the completions it could not cancel
    static final long HELD_MILLIS = 11_000;

    public static void main(String[] args) throws Throwable {
        Class<?> c = Class.forName("sun.nio.ch.IoUring");
        Method create = c.getDeclaredMethod("create", int.class, String.class);
        Method execute = c.getDeclaredMethod("execute", boolean.class, int.class, long.class,
                                             int.class, long.class);
        Method fault = c.getDeclaredMethod("setTestFault0", int.class, int.class);
        Method fdVal = Class.forName("sun.nio.ch.SourceChannelImpl").getDeclaredMethod("getFDVal");
        for (Method m : new Method[] { create, execute, fault, fdVal })
            m.setAccessible(true);

        for (boolean virtual : new boolean[] { false, true }) {
            Object ring;
            try {
                ring = create.invoke(null, 8, "IoUringStuckCompletion-" + virtual);
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw new SkippedException("no io_uring here: " + e.getCause());
            }
            Pipe pipe = Pipe.open();
            int fd = (int) fdVal.invoke(pipe.source());
            ByteBuffer bb = ByteBuffer.allocateDirect(4);
            long address = ((sun.nio.ch.DirectBuffer) bb).address();

            int[] result = new int[1];
            Throwable[] failure = new Throwable[1];
            Runnable read = () -> {
                try {
                    result[0] = (int) execute.invoke(ring, false, fd, address, 4, -1L);
                } catch (Throwable e) {
                    failure[0] = e;
                }
            };
            Thread reader = virtual ? Thread.ofVirtual().start(read)
                                    : Thread.ofPlatform().start(read);
            // once the read waits in the kernel for the pipe's first bytes, the
            // reaper's next wait for completions fails, and the ring dies: another
            // read, of a pipe that has data, wakes the reaper for that wait
            while (LockSupport.getBlocker(reader) == null && reader.isAlive())
                Thread.sleep(10);
            // and the reaper has had the time to submit it
            Thread.sleep(200);
            fault.invoke(null, 1, 1);
            Pipe other = Pipe.open();
            other.sink().write(ByteBuffer.wrap(new byte[] { 9, 9, 9, 9 }));
            int otherFd = (int) fdVal.invoke(other.source());
            ByteBuffer ob = ByteBuffer.allocateDirect(4);
            long otherAddress = ((sun.nio.ch.DirectBuffer) ob).address();
            Thread waker = Thread.ofPlatform().start(() -> {
                try {
                    execute.invoke(ring, false, otherFd, otherAddress, 4, -1L);
                } catch (Throwable e) {
                    throw new RuntimeException(e);
                }
            });
            waker.join();
            reader.join(HELD_MILLIS);
            if (!reader.isAlive())
                throw new RuntimeException((virtual ? "virtual" : "platform") + " thread: the read"
                        + " returned " + result[0] + " (" + failure[0] + ") while the kernel"
                        + " still held it");
            pipe.sink().write(ByteBuffer.wrap(new byte[] { 1, 2, 3, 4 }));
            reader.join(30_000);
            if (reader.isAlive())
                throw new RuntimeException("the read did not return after its completion");
            if (failure[0] != null)
                throw failure[0];
            if (result[0] != 4)
                throw new RuntimeException("the read returned " + result[0] + ", expected 4");
            for (int i = 0; i < 4; i++) {
                if (bb.get(i) != i + 1)
                    throw new RuntimeException("byte " + i + ": " + bb.get(i));
            }
            pipe.sink().close();
            pipe.source().close();
            other.sink().close();
            other.source().close();
            System.out.println((virtual ? "virtual" : "platform") + " thread: the read waited"
                               + " for its completion and returned its bytes");
        }
        System.out.println("passed");
    }
}

/*
 * Copyright (c) 2026, nio-uring contributors. All rights reserved.
 * DO NOT ALTER OR REMOVE COPYRIGHT NOTICES OR THIS FILE HEADER.
 *
 * This code is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License version 2 only, as
 * published by the Free Software Foundation.  Oracle designates this
 * particular file as subject to the "Classpath" exception as provided
 * by Oracle in the LICENSE file that accompanied this code.
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

package sun.nio.ch;

import java.io.FileDescriptor;
import java.io.IOException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectableChannel;
import jdk.internal.event.FileReadEvent;
import jdk.internal.util.OperatingSystem;

/**
 * Skips the input of channel streams and file input streams without copying
 * it into the Java heap.
 *
 * <p> The native methods discard bytes from a file descriptor in the cheapest
 * way the platform has: on Linux, splice to /dev/null for pipes and FIFOs and
 * recv with MSG_TRUNC for TCP sockets; otherwise reads into a native scratch
 * buffer. Each behaves as one read of at most {@code len} bytes into a buffer
 * that is thrown away, returning the number of bytes discarded or an
 * {@link IOStatus} code, so that a channel calls it in place of a read, with
 * its own locking, blocking, parking and signalling.
 *
 * <p> A skip's first discard from a pipe takes all the pipe holds, up to the
 * bytes left to skip. If that leaves bytes to skip, the pipe is empty and the
 * rest comes from a writer that is still writing: later discards of the skip
 * are <em>paced</em>, a page at a time, so that each frees one slot of the
 * pipe and wakes a writer blocked on a full pipe, which then writes while the
 * skip discards. Emptying a full pipe at once would leave the two taking turns:
 * the writer fills the pipe while the skip sleeps, then sleeps while the skip
 * empties it.
 */
public final class Skipper {
    private Skipper() { }

    /**
     * The largest number of bytes discarded by one call of a native method.
     */
    static final int MAX_DISCARD = 1 << 30;

    /**
     * A channel that can discard its input, blocking as a read would.
     */
    interface Discardable {
        /**
         * Discards up to {@code len > 0} bytes as a read of that many bytes
         * would read them, returning the number of bytes discarded or -1 at
         * end of stream; at most a page if {@code paced} is true.
         */
        int discard(int len, boolean paced) throws IOException;
    }

    /**
     * Skips n bytes from the channel of a ChannelInputStream, as the default
     * InputStream.skip would by reading them with the stream's read method:
     * until n bytes are skipped or end of stream. The channel is not a
     * seekable file. Returns IOStatus.UNSUPPORTED if the channel cannot
     * discard its input, in which case nothing has been skipped.
     */
    static long skip(ReadableByteChannel ch, long n) throws IOException {
        FileChannelImpl fci = null;
        Discardable d = null;
        if (ch instanceof FileChannelImpl c && !OperatingSystem.isWindows()) {
            // a FIFO or character device; reads are traced by JFR
            if (FileReadEvent.enabled())
                return IOStatus.UNSUPPORTED;
            fci = c;
        } else if (ch instanceof Discardable c) {
            d = c;
        } else {
            return IOStatus.UNSUPPORTED;
        }

        long remaining = n;
        boolean paced = false;
        while (remaining > 0) {
            int len = (int) Math.min(remaining, MAX_DISCARD);
            int r;
            if (fci != null) {
                r = fci.discard(len, paced);
            } else if (ch instanceof SelectableChannel sc) {
                synchronized (sc.blockingLock()) {
                    if (!sc.isBlocking())
                        throw new IllegalBlockingModeException();
                    r = d.discard(len, paced);
                }
            } else {
                r = d.discard(len, paced);
            }
            if (r < 0) {
                if (r == IOStatus.UNSUPPORTED) {
                    // decided by the channel before anything is discarded
                    assert remaining == n;
                    return r;
                }
                break;  // EOF
            }
            remaining -= r;
            paced |= (r < len);
        }
        return n - remaining;
    }

    /**
     * Skips n bytes from the file of a FileInputStream that is not a regular
     * file (a pipe, FIFO, socket or device), as InputStream.skip would by
     * reading them with the stream's read: until n bytes are skipped or end
     * of file, with the read's blocking and exceptions. Returns the number
     * of bytes skipped, or -1, having skipped nothing, if the platform has
     * no discard for such files (Windows).
     */
    public static long skip(FileDescriptor fd, long n) throws IOException {
        if (OperatingSystem.isWindows())
            return -1;
        long remaining = n;
        boolean paced = false;
        while (remaining > 0) {
            // the descriptor is read again by each call: -1 once closed
            int len = (int) Math.min(remaining, MAX_DISCARD);
            int r = file0(fd, len, paced);
            if (r < 0)
                break;  // EOF
            remaining -= r;
            paced |= (r < len);
        }
        return n - remaining;
    }

    /**
     * Discards up to len bytes from a stream socket: TCP if tcp is true,
     * otherwise a Unix domain socket.
     */
    static int discardSocket(FileDescriptor fd, int len, boolean tcp)
        throws IOException
    {
        return socket0(fd, len, tcp);
    }

    /**
     * Discards up to len bytes from a pipe, FIFO or character device (Unix);
     * from a pipe or FIFO at most a page if paced is true.
     */
    static int discardPipe(FileDescriptor fd, int len, boolean paced)
        throws IOException
    {
        return pipe0(fd, len, paced);
    }

    // -- Native methods --

    private static native int pipe0(FileDescriptor fd, int len, boolean paced)
        throws IOException;

    private static native int socket0(FileDescriptor fd, int len, boolean tcp)
        throws IOException;

    private static native int file0(FileDescriptor fd, int len, boolean paced)
        throws IOException;

    private static native void init0();

    static {
        IOUtil.load();
        init0();
    }
}

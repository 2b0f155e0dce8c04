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

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "jni.h"
#include "jni_util.h"
#include "nio.h"
#include "nio_util.h"
#include "skipper_util.h"
#include "sun_nio_ch_Skipper.h"

/*
 * Discards input on Linux: splice to /dev/null for pipes and FIFOs, recv
 * with MSG_TRUNC for TCP sockets (the kernel frees the data, nothing is
 * copied), and reads into a scratch buffer on the stack for everything else
 * (character devices, Unix domain sockets). Each function does one system
 * call at most that can block, so that the caller keeps the semantics of a
 * read: it blocks only when nothing is available, and EINTR and EAGAIN go
 * back to Java as IOS_INTERRUPTED and IOS_UNAVAILABLE.
 */

/*
 * /dev/null, opened once for splice; -1 if it cannot be opened or is not the
 * null device (a file bind-mounted over it would receive the skipped bytes).
 * O_NONBLOCK so that opening a FIFO put in its place fails with ENXIO rather
 * than block until it has a reader; writes to the null device never block.
 */
static int devNull = -1;

/*
 * 1 if splice from a pipe honours the pipe's O_NONBLOCK (Linux 5.1 and
 * later): then one splice does what a read does, blocking only if the pipe
 * is in blocking mode.
 */
static int spliceHonoursNonBlock = 0;

/*
 * The most bytes a paced discard splices: a page, one slot of a pipe.
 */
static jint paceBytes = 4096;

JNIEXPORT void JNICALL
Java_sun_nio_ch_Skipper_init0(JNIEnv *env, jclass clazz)
{
    struct stat st;
    long page = sysconf(_SC_PAGESIZE);
    int fd = open("/dev/null", O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (page > 0 && page <= (1 << 20))
        paceBytes = (jint)page;
    if (fd < 0)
        return;
    if (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3)) {
        int p[2];
        devNull = fd;
        /* an empty pipe in non-blocking mode: EAGAIN without SPLICE_F_NONBLOCK? */
        if (pipe2(p, O_NONBLOCK | O_CLOEXEC) == 0) {
            if (splice(p[0], NULL, devNull, NULL, 1, 0) < 0 && errno == EAGAIN)
                spliceHonoursNonBlock = 1;
            close(p[0]);
            close(p[1]);
        }
    } else {
        close(fd);
    }
}

/*
 * Splices up to len bytes from fd into /dev/null as a read of fd would read
 * them: one splice where splice honours the pipe's O_NONBLOCK; else
 * SPLICE_F_NONBLOCK first, so that a virtual thread's non-blocking pipe never
 * blocks its carrier, and an empty pipe in blocking mode is then waited for
 * in a blocking splice. A blocking splice, as read(2), holds the file while
 * it waits (a close by another thread does not wake it, a signal does, and
 * the descriptor number cannot be reused under it). At most a page if paced
 * (see Skipper). Returns the count, 0 at end of file, or -1 with errno set:
 * EAGAIN for an empty pipe in non-blocking mode, EINTR, and EINVAL if fd is
 * not a pipe.
 */
static ssize_t
spliceToNull(int fd, jint len, jboolean paced)
{
    ssize_t n;
    if (paced && len > paceBytes)
        len = paceBytes;
    if (spliceHonoursNonBlock)
        return splice(fd, NULL, devNull, NULL, (size_t)len, 0);
    n = splice(fd, NULL, devNull, NULL, (size_t)len, SPLICE_F_NONBLOCK);
    if (n < 0 && errno == EAGAIN) {
        int fl = fcntl(fd, F_GETFL);
        if (fl < 0)
            return -1;
        if ((fl & O_NONBLOCK) != 0) {
            errno = EAGAIN;
            return -1;
        }
        n = splice(fd, NULL, devNull, NULL, (size_t)len, 0);
    }
    return n;
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_Skipper_pipe0(JNIEnv *env, jclass clazz, jobject fdo, jint len,
                              jboolean paced)
{
    jint fd = fdval(env, fdo);
    if (devNull >= 0) {
        ssize_t n = spliceToNull(fd, len, paced);
        if (n >= 0 || errno != EINVAL)
            return convertReturnVal(env, (jint)n, JNI_TRUE);
        /* EINVAL: not a pipe (a character device), read it instead */
    }
    return discardScratch(env, fd, len, JNI_FALSE);
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_Skipper_socket0(JNIEnv *env, jclass clazz, jobject fdo,
                                jint len, jboolean tcp)
{
    jint fd = fdval(env, fdo);
    if (tcp) {
        ssize_t n = recv(fd, NULL, (size_t)len, MSG_TRUNC);
        if (n < 0 && (errno == ECONNRESET || errno == EPIPE)) {
            JNU_ThrowByName(env, "sun/net/ConnectionResetException", "Connection reset");
            return IOS_THROWN;
        }
        if (n >= 0 || (errno != EFAULT && errno != EINVAL && errno != EOPNOTSUPP))
            return convertReturnVal(env, (jint)n, JNI_TRUE);
        /* MSG_TRUNC does not discard on this socket, read it instead */
    }
    return discardScratch(env, fd, len, JNI_TRUE);
}

/*
 * Discards up to len bytes for FileInputStream.skip, as one read(2) of a
 * FileInputStream would read them: it blocks until something is there,
 * restarts after EINTR, and returns 0 at end of file and -1 with errno set
 * on error (EAGAIN included, for a descriptor in non-blocking mode).
 */
static ssize_t
discardFile(int fd, jint len, jboolean paced)
{
    struct stat st;
    int type, domain;
    socklen_t optlen;
    ssize_t n;

    if (devNull >= 0) {
        do {
            n = spliceToNull(fd, len, paced);
        } while (n < 0 && errno == EINTR);
        if (n >= 0 || errno != EINVAL)
            return n;
        /* EINVAL: not a pipe */
    }

    /* a TCP socket: recv with MSG_TRUNC frees the data without copying it */
    optlen = sizeof(type);
    if (fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode)
            && getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &optlen) == 0
            && type == SOCK_STREAM
            && (optlen = sizeof(domain),
                getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &optlen) == 0)
            && (domain == AF_INET || domain == AF_INET6)) {
        do {
            n = recv(fd, NULL, (size_t)len, MSG_TRUNC);
        } while (n < 0 && errno == EINTR);
        if (n >= 0 || (errno != EFAULT && errno != EINVAL && errno != EOPNOTSUPP))
            return n;
    }

    /* a character device, a Unix domain socket, or no splice */
    do {
        n = scratchRead(fd, len);
    } while (n < 0 && errno == EINTR);
    return n;
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_Skipper_file0(JNIEnv *env, jclass clazz, jobject fdo, jint len,
                              jboolean paced)
{
    jint fd = fdval(env, fdo);
    if (fd == -1) {
        JNU_ThrowIOException(env, "Stream Closed");
        return IOS_THROWN;
    }
    return discardResult(env, discardFile(fd, len, paced));
}

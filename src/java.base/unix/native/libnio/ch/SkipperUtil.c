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
#include <unistd.h>
#include <sys/uio.h>

#include "jni.h"
#include "jni_util.h"
#include "nio.h"
#include "nio_util.h"
#include "skipper_util.h"

#define SCRATCH_SIZE 8192       /* stack buffer of the read loop */
#define SCRATCH_IOV  32         /* times it is repeated in one readv */

/*
 * One readv into SCRATCH_IOV iovecs that all point to the same stack
 * buffer: up to SCRATCH_SIZE * SCRATCH_IOV bytes with one system call,
 * and nothing copied into the Java heap.
 */
ssize_t
scratchRead(int fd, jint len)
{
    char buf[SCRATCH_SIZE];
    struct iovec iov[SCRATCH_IOV];
    int cnt = 0;
    while (len > 0 && cnt < SCRATCH_IOV) {
        iov[cnt].iov_base = buf;
        iov[cnt].iov_len = (len < SCRATCH_SIZE) ? len : SCRATCH_SIZE;
        len -= iov[cnt].iov_len;
        cnt++;
    }
    /* a plain read when one buffer is enough: readv costs more for small counts */
    return (cnt == 1) ? read(fd, buf, iov[0].iov_len) : readv(fd, iov, cnt);
}

/*
 * scratchRead with the result mapped as a channel's read maps it.
 */
jint
discardScratch(JNIEnv *env, jint fd, jint len, jboolean socket)
{
    ssize_t n = scratchRead(fd, len);
    if (n < 0 && socket && (errno == ECONNRESET || errno == EPIPE)) {
        JNU_ThrowByName(env, "sun/net/ConnectionResetException", "Connection reset");
        return IOS_THROWN;
    }
    return convertReturnVal(env, (jint)n, JNI_TRUE);
}

/*
 * Maps the result of a discard for FileInputStream.skip as its read does.
 */
jint
discardResult(JNIEnv *env, ssize_t n)
{
    if (n > 0)
        return (jint) n;
    if (n == 0)
        return IOS_EOF;
    JNU_ThrowIOExceptionWithLastError(env, "Read error");
    return IOS_THROWN;
}

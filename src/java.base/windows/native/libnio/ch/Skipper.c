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

#include <winsock2.h>
#include <windows.h>

#include "jni.h"
#include "jni_util.h"
#include "nio.h"
#include "nio_util.h"
#include "sun_nio_ch_Skipper.h"

/*
 * Discards input on Windows, where only sockets (which also carry NIO pipes)
 * use it: one WSARecv into a scratch buffer on the stack, repeated in every
 * WSABUF, so that up to SCRATCH_SIZE * SCRATCH_BUFS bytes are discarded with
 * one call and nothing is copied into the Java heap. As a read, it blocks only
 * when nothing is available; WSAEWOULDBLOCK goes back as IOS_UNAVAILABLE.
 */

#define SCRATCH_SIZE 8192
#define SCRATCH_BUFS 8          /* 64k, less than MAX_BUFFER_SIZE */

JNIEXPORT void JNICALL
Java_sun_nio_ch_Skipper_init0(JNIEnv *env, jclass clazz)
{
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_Skipper_pipe0(JNIEnv *env, jclass clazz, jobject fdo, jint len,
                              jboolean paced)
{
    /* file channels skip by reading on Windows */
    return IOS_UNSUPPORTED;
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_Skipper_socket0(JNIEnv *env, jclass clazz, jobject fdo,
                                jint len, jboolean tcp)
{
    char scratch[SCRATCH_SIZE];
    WSABUF bufs[SCRATCH_BUFS];
    DWORD cnt = 0;
    DWORD read = 0;
    DWORD flags = 0;
    while (len > 0 && cnt < SCRATCH_BUFS) {
        bufs[cnt].buf = scratch;
        bufs[cnt].len = (u_long)((len < SCRATCH_SIZE) ? len : SCRATCH_SIZE);
        len -= (jint)bufs[cnt].len;
        cnt++;
    }
    if (WSARecv((SOCKET)fdval(env, fdo), bufs, cnt, &read, &flags, 0, 0) == SOCKET_ERROR) {
        int theErr = WSAGetLastError();
        if (theErr == WSAEWOULDBLOCK)
            return IOS_UNAVAILABLE;
        if (theErr == WSAECONNRESET) {
            JNU_ThrowByName(env, "sun/net/ConnectionResetException", "Connection reset");
        } else {
            JNU_ThrowIOExceptionWithLastError(env, "Read failed");
        }
        return IOS_THROWN;
    }
    return convertReturnVal(env, (jint)read, JNI_TRUE);
}

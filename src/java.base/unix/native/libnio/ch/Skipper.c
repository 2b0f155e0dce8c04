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

#include "jni.h"
#include "jni_util.h"
#include "nio.h"
#include "nio_util.h"
#include "skipper_util.h"
#include "sun_nio_ch_Skipper.h"

/*
 * Discards input on Unix platforms other than Linux (which has its own
 * Skipper.c with splice and MSG_TRUNC) with discardScratch (SkipperUtil.c):
 * one read into a native scratch buffer, nothing copied into the Java heap.
 * As a read, it blocks only when nothing is available; EINTR and EAGAIN go
 * back to Java as IOS_INTERRUPTED and IOS_UNAVAILABLE.
 */

JNIEXPORT void JNICALL
Java_sun_nio_ch_Skipper_init0(JNIEnv *env, jclass clazz)
{
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_Skipper_pipe0(JNIEnv *env, jclass clazz, jobject fdo, jint len,
                              jboolean paced)
{
    return discardScratch(env, fdval(env, fdo), len, JNI_FALSE);
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_Skipper_socket0(JNIEnv *env, jclass clazz, jobject fdo,
                                jint len, jboolean tcp)
{
    return discardScratch(env, fdval(env, fdo), len, JNI_TRUE);
}

JNIEXPORT jint JNICALL
Java_sun_nio_ch_Skipper_file0(JNIEnv *env, jclass clazz, jobject fdo, jint len,
                              jboolean paced)
{
    jint fd = fdval(env, fdo);
    ssize_t n;
    if (fd == -1) {
        JNU_ThrowIOException(env, "Stream Closed");
        return IOS_THROWN;
    }
    do {
        n = scratchRead(fd, len);
    } while (n < 0 && errno == EINTR);
    return discardResult(env, n);
}

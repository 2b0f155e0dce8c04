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

#ifndef SKIPPER_UTIL_H
#define SKIPPER_UTIL_H

#include <sys/types.h>

#include "jni.h"

/*
 * Discards up to len bytes from fd with one read into a native scratch
 * buffer, as a read of len bytes would read them. Returns the number of
 * bytes discarded or an IOS_* status; a connection reset on a socket
 * throws sun.net.ConnectionResetException, as the socket read does.
 * Shared by the Skipper.c of every Unix platform.
 */
jint discardScratch(JNIEnv *env, jint fd, jint len, jboolean socket);

/*
 * The read of discardScratch: returns what read(2) returns, the number of
 * bytes discarded, 0 at end of file, or -1 with errno set.
 */
ssize_t scratchRead(int fd, jint len);

/*
 * Maps what a discard for FileInputStream.skip returned (a count, 0 at end
 * of file, or -1 with errno set) as FileInputStream.read does: the count,
 * IOS_EOF, or an IOException "Read error" with the error's message.
 */
jint discardResult(JNIEnv *env, ssize_t n);

#endif /* SKIPPER_UTIL_H */

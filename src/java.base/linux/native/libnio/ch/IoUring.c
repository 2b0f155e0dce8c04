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

/*
 * Natives for sun.nio.ch.IoUring: an io_uring for positional file reads and
 * writes, used by one thread (the ring's reaper) but for wake0. When libnio is built without liburing (no -DNIO_URING)
 * every function reports that io_uring is not available and Java keeps
 * pread/pwrite.
 */

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "jni.h"
#include "jni_util.h"
#include "jlong.h"
#include "nio.h"
#include "nio_util.h"
#include "sun_nio_ch_IoUring.h"

#ifdef NIO_URING
#include <liburing.h>

/*
 * Throws IOException with the given prefix and the message for err, and, for
 * EPERM, the value of the kernel.io_uring_disabled sysctl when it is readable.
 */
static void
throwSetupFailure(JNIEnv *env, const char *what, int err)
{
    char msg[256];
    char extra[64] = "";
    if (err == EPERM) {
        FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
        if (f != NULL) {
            int v;
            if (fscanf(f, "%d", &v) == 1) {
                snprintf(extra, sizeof(extra), " (kernel.io_uring_disabled=%d)", v);
            }
            fclose(f);
        }
    } else if (err == ENOMEM) {
        /* rings are charged to RLIMIT_MEMLOCK unless the process has CAP_IPC_LOCK */
        struct rlimit rl;
        if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
            snprintf(extra, sizeof(extra), " (RLIMIT_MEMLOCK=%llu)",
                     (unsigned long long) rl.rlim_cur);
        }
    }
    char reason[128];
    getErrorString(err, reason, sizeof(reason));
    snprintf(msg, sizeof(msg), "%s: %s%s", what, reason, extra);
    JNU_ThrowIOException(env, msg);
}
#endif

#define FALLBACK sun_nio_ch_IoUring_FALLBACK

#ifdef NIO_URING
/*
 * A ring, and the eventfd through which other threads wake its reaper when it
 * waits in enter0: a read of the eventfd is kept in flight, and completes
 * when wake0 writes to it.
 */
typedef struct {
    struct io_uring ring;
    int efd;
    int armed;          /* the eventfd read is in flight or in the SQ ring */
    uint64_t count;     /* what the eventfd read reads */
    int fault;          /* test-only: the next submission fails (1) or is not taken (2) */
} Ring;

/* user_data of the eventfd read, and of an SQE made a NOP */
#define WAKE_TAG ((__u64) -2)
#define NOP_TAG ((__u64) -1)

/*
 * Frees a ring: its fd, eventfd and memory must not outlive it.
 */
static void
destroyRing(Ring *r)
{
    io_uring_queue_exit(&r->ring);
    close(r->efd);
    free(r);
}

#endif

/*
 * Creates a ring and its eventfd.
 */
JNIEXPORT jlong JNICALL
Java_sun_nio_ch_IoUring_create0(JNIEnv *env, jclass clazz, jint sqEntries, jint cqEntries)
{
#ifdef NIO_URING
    Ring *r = calloc(1, sizeof(Ring));
    struct io_uring_params params;
    int res;

    if (r == NULL) {
        JNU_ThrowOutOfMemoryError(env, "io_uring");
        return 0;
    }
    memset(&params, 0, sizeof(params));
    params.flags = IORING_SETUP_CQSIZE;
    params.cq_entries = (unsigned) cqEntries;
    res = io_uring_queue_init_params((unsigned) sqEntries, &r->ring, &params);
    if (res < 0) {
        free(r);
        throwSetupFailure(env, "io_uring_setup", -res);
        return 0;
    }
    r->efd = eventfd(0, EFD_CLOEXEC);
    if (r->efd < 0) {
        int err = errno;
        io_uring_queue_exit(&r->ring);
        free(r);
        throwSetupFailure(env, "eventfd", err);
        return 0;
    }
    /* The kernel creates the ring fd close-on-exec; make sure of it. */
    if (fcntl(r->ring.ring_fd, F_SETFD, FD_CLOEXEC) < 0) {
        int err = errno;
        destroyRing(r);
        throwSetupFailure(env, "fcntl(FD_CLOEXEC)", err);
        return 0;
    }
    /* Completions must never be dropped: each in-flight op waits for its CQE. */
    if ((params.features & IORING_FEAT_NODROP) == 0) {
        destroyRing(r);
        JNU_ThrowIOException(env, "io_uring: kernel lacks IORING_FEAT_NODROP");
        return 0;
    }
    return ptr_to_jlong(r);
#else
    JNU_ThrowIOException(env, "libnio built without liburing");
    return 0;
#endif
}

/*
 * Returns JNI_TRUE if the ring reads at the file's current position, and
 * advances it, for an offset of -1 (IORING_FEAT_RW_CUR_POS, Linux 5.6).
 */
JNIEXPORT jboolean JNICALL
Java_sun_nio_ch_IoUring_curPos0(JNIEnv *env, jclass clazz, jlong address)
{
#ifdef NIO_URING
    Ring *r = jlong_to_ptr(address);
    return (r->ring.features & IORING_FEAT_RW_CUR_POS) ? JNI_TRUE : JNI_FALSE;
#else
    return JNI_FALSE;
#endif
}

/*
 * Checks that the ring created by create0 can be used. If it throws, the ring
 * has been destroyed.
 */
JNIEXPORT void JNICALL
Java_sun_nio_ch_IoUring_probe0(JNIEnv *env, jclass clazz, jlong address)
{
#ifdef NIO_URING
    Ring *r = jlong_to_ptr(address);
    struct io_uring *ring = &r->ring;
    struct io_uring_probe *probe;
    struct io_uring_sqe *sqe;
    struct io_uring_cqe *cqe;
    int ok, res;

    probe = io_uring_get_probe_ring(ring);
    if (probe == NULL) {
        destroyRing(r);
        JNU_ThrowIOException(env, "io_uring: IORING_REGISTER_PROBE failed");
        return;
    }
    ok = io_uring_opcode_supported(probe, IORING_OP_READ)
        && io_uring_opcode_supported(probe, IORING_OP_WRITE)
        && io_uring_opcode_supported(probe, IORING_OP_ASYNC_CANCEL)
        && io_uring_opcode_supported(probe, IORING_OP_NOP);
    io_uring_free_probe(probe);
    if (!ok) {
        destroyRing(r);
        JNU_ThrowIOException(env, "io_uring: IORING_OP_READ/WRITE/ASYNC_CANCEL not supported");
        return;
    }

    /* One NOP round trip: io_uring_enter may be filtered even when setup is not. */
    sqe = io_uring_get_sqe(ring);
    if (sqe == NULL) {
        destroyRing(r);
        JNU_ThrowIOException(env, "io_uring: no SQE for probe");
        return;
    }
    io_uring_prep_nop(sqe);
    io_uring_sqe_set_data64(sqe, NOP_TAG);
    do {
        res = io_uring_submit_and_wait(ring, 1);
    } while (res == -EINTR);
    if (res < 0) {
        destroyRing(r);
        throwSetupFailure(env, "io_uring_enter", -res);
        return;
    }
    do {
        res = io_uring_wait_cqe(ring, &cqe);
    } while (res == -EINTR);
    if (res < 0) {
        destroyRing(r);
        throwSetupFailure(env, "io_uring_wait_cqe", -res);
        return;
    }
    res = cqe->res;
    io_uring_cqe_seen(ring, cqe);
    if (res < 0) {
        destroyRing(r);
        throwSetupFailure(env, "io_uring NOP", -res);
    }
#else
    JNU_ThrowIOException(env, "libnio built without liburing");
#endif
}

/*
 * Frees a ring that create0 made and probe0 accepted, to which nothing was
 * submitted.
 */
JNIEXPORT void JNICALL
Java_sun_nio_ch_IoUring_destroy0(JNIEnv *env, jclass clazz, jlong address)
{
#ifdef NIO_URING
    destroyRing(jlong_to_ptr(address));
#endif
}

#ifdef NIO_URING
/*
 * Test-only fault injection, set by setTestFault0: the countdown of
 * operations before the io_uring_enter that submits one "fails" with EPERM,
 * of waits before one "fails" with EBADR (a dropped CQE), and of operations
 * before the kernel "takes none" of the SQEs of the submission with EBUSY.
 */
static volatile int testSubmitFault = 0;
static volatile int testWaitFault = 0;
static volatile int testBusyFault = 0;

static int
testFault(volatile int *countdown)
{
    int n = *countdown;
    if (n > 0) {
        *countdown = n - 1;
        return n == 1;
    }
    return 0;
}

/*
 * Makes each SQE that the kernel has not taken a NOP, so that it never reads
 * or writes a buffer through it, even if the ring is entered again, and
 * copies the user_data of each read or write among them to out with the
 * result FALLBACK. Returns the number copied.
 */
static int
refuseUntaken(Ring *r, jlong *out)
{
    struct io_uring *ring = &r->ring;
    unsigned head = io_uring_smp_load_acquire(ring->sq.khead);
    unsigned mask = *ring->sq.kring_mask;
    int n = 0;
    for (; head != ring->sq.sqe_tail; head++) {
        struct io_uring_sqe *sqe = &ring->sq.sqes[ring->sq.array[head & mask]];
        __u64 userData = sqe->user_data;
        if (userData == WAKE_TAG) {
            r->armed = 0;
        } else if (userData != NOP_TAG) {
            out[2 * n] = (jlong) userData;
            out[2 * n + 1] = (jlong) FALLBACK;
            n++;
        }
        io_uring_prep_nop(sqe);
        io_uring_sqe_set_data64(sqe, NOP_TAG);
    }
    return n;
}
#endif

/*
 * Writes an SQE for a read or write. Returns JNI_FALSE if the SQ ring is full.
 */
JNIEXPORT jboolean JNICALL
Java_sun_nio_ch_IoUring_prep0(JNIEnv *env, jclass clazz, jlong address, jboolean write,
                              jint fd, jlong bufAddress, jint len, jlong position,
                              jint userData)
{
#ifdef NIO_URING
    Ring *r = jlong_to_ptr(address);
    struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);
    if (sqe == NULL)
        return JNI_FALSE;
    if (write) {
        io_uring_prep_write(sqe, fd, jlong_to_ptr(bufAddress), (unsigned) len,
                            (__u64) position);
    } else {
        io_uring_prep_read(sqe, fd, jlong_to_ptr(bufAddress), (unsigned) len,
                           (__u64) position);
    }
    io_uring_sqe_set_data64(sqe, (__u64) (unsigned) userData);
    if (testFault(&testSubmitFault)) {
        r->fault = 1;
    } else if (testFault(&testBusyFault)) {
        r->fault = 2;
    }
    return JNI_TRUE;
#else
    return JNI_FALSE;
#endif
}

/*
 * The reaper's system call: submits the SQEs written since the last call and
 * takes the completions (see IoUring.enter0). out[0] is set to 0 or to the
 * errno that kills the ring; the pairs follow from out[2] on.
 */
JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUring_enter0(JNIEnv *env, jclass clazz, jlong address, jboolean wait,
                               jboolean arm, jlong bufAddress, jint cap)
{
#ifdef NIO_URING
    Ring *r = jlong_to_ptr(address);
    struct io_uring *ring = &r->ring;
    jlong *out = jlong_to_ptr(bufAddress);
    jlong *pairs = out + 2;
    struct io_uring_cqe *cqe;
    unsigned head;
    unsigned seen = 0;
    int n = 0;
    int err = 0;
    int res;

    out[0] = 0;
    if (arm && !r->armed) {
        struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
        /* none: the SQ ring is full of operations, whose completions wake the reaper */
        if (sqe != NULL) {
            io_uring_prep_read(sqe, r->efd, &r->count, sizeof(r->count), 0);
            io_uring_sqe_set_data64(sqe, WAKE_TAG);
            r->armed = 1;
        }
    }
    if (r->fault == 1) {
        /* as if io_uring_enter were denied */
        r->fault = 0;
        n = refuseUntaken(r, pairs);
        err = EPERM;
    } else if (r->fault == 2) {
        /* as if the kernel took nothing, for want of CQ ring space */
        r->fault = 0;
        n = refuseUntaken(r, pairs);
    } else if (wait && testFault(&testWaitFault)) {
        err = EBADR;
    } else {
        do {
            res = wait ? io_uring_submit_and_wait(ring, 1) : io_uring_submit_and_get_events(ring);
        } while (res == -EINTR);
        if (res < 0 && res != -EAGAIN && res != -EBUSY && res != -ETIME)
            err = -res;
        /* what the kernel did not take (EAGAIN, EBUSY, or a failed SQE) */
        if (io_uring_sq_ready(ring) > 0)
            n = refuseUntaken(r, pairs);
    }
    io_uring_for_each_cqe(ring, head, cqe) {
        if (n == cap)
            break;
        seen++;
        if (cqe->user_data == NOP_TAG)
            continue;
        if (cqe->user_data == WAKE_TAG) {
            r->armed = 0;
            continue;
        }
        pairs[2 * n] = (jlong) cqe->user_data;
        /* ECANCELED: the kernel cancelled the request (the ring died); it was
         * not done. Java sees only FALLBACK, so no errno value is compared
         * outside this file. */
        pairs[2 * n + 1] = (cqe->res == -ECANCELED) ? (jlong) FALLBACK : (jlong) cqe->res;
        n++;
    }
    io_uring_cq_advance(ring, seen);
    out[0] = err;
    return n;
#else
    jlong *out = jlong_to_ptr(bufAddress);
    out[0] = ENOSYS;
    return 0;
#endif
}

/*
 * Wakes the ring's reaper if it waits in enter0, or makes its next wait
 * return at once.
 */
JNIEXPORT void JNICALL
Java_sun_nio_ch_IoUring_wake0(JNIEnv *env, jclass clazz, jlong address)
{
#ifdef NIO_URING
    Ring *r = jlong_to_ptr(address);
    uint64_t one = 1;
    ssize_t res;
    do {
        res = write(r->efd, &one, sizeof(one));
    } while (res < 0 && errno == EINTR);
#endif
}

/*
 * Cancels every request of the ring and waits until the kernel is done with
 * each: when it returns 0, no request still uses a buffer, and every one that
 * has not been dropped has its CQE in the CQ ring. Returns -errno if
 * synchronous cancellation is not available (kernels before 6.0) or failed.
 */
JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUring_cancelAll0(JNIEnv *env, jclass clazz, jlong address)
{
#ifdef NIO_URING
    Ring *r = jlong_to_ptr(address);
    struct io_uring_sync_cancel_reg reg;
    int res;
    memset(&reg, 0, sizeof(reg));
    reg.fd = -1;
    reg.flags = IORING_ASYNC_CANCEL_ANY;
    reg.timeout.tv_sec = -1;
    reg.timeout.tv_nsec = -1;
    do {
        res = io_uring_register_sync_cancel(&r->ring, &reg);
    } while (res == -EINTR);
    return (res == -ENOENT) ? 0 : res;
#else
    return -ENOSYS;
#endif
}

JNIEXPORT jstring JNICALL
Java_sun_nio_ch_IoUring_errorString0(JNIEnv *env, jclass clazz, jint err)
{
    char reason[128];
    getErrorString(err, reason, sizeof(reason));
    return JNU_NewStringPlatform(env, reason);
}

/*
 * Test-only: arms the fault injection of a submission failing (kind 0), a
 * wait failing (kind 1) or a submission taken by the kernel in none of its
 * SQEs (kind 2), to happen on the n-th from now.
 */
JNIEXPORT void JNICALL
Java_sun_nio_ch_IoUring_setTestFault0(JNIEnv *env, jclass clazz, jint kind, jint n)
{
#ifdef NIO_URING
    if (kind == 0) {
        testSubmitFault = n;
    } else if (kind == 1) {
        testWaitFault = n;
    } else {
        testBusyFault = n;
    }
#endif
}

/*
 * preadv2 is looked up at run time, as FileDispatcherImpl.c looks up
 * copy_file_range, so that a libnio built against an older C library still
 * has it; RWF_NOWAIT is a kernel ABI constant.
 */
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

typedef ssize_t preadv2_func(int, const struct iovec *, int, off_t, int);
static preadv2_func *my_preadv2_func = NULL;

JNIEXPORT void JNICALL
Java_sun_nio_ch_IoUring_init0(JNIEnv *env, jclass clazz)
{
    my_preadv2_func = (preadv2_func *) dlsym(RTLD_DEFAULT, "preadv2");
}

/*
 * preadv2(RWF_NOWAIT): reads only what can be had without blocking.
 * Returns as pread0 does, IOS_UNAVAILABLE if the read would block,
 * IOS_UNSUPPORTED_CASE if the file does not support RWF_NOWAIT, or
 * IOS_UNSUPPORTED if the C library or the kernel does not.
 */
JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUring_preadNoWait0(JNIEnv *env, jclass clazz, jobject fdo,
                                     jlong address, jint len, jlong position)
{
    struct iovec iov;
    ssize_t n;
    if (my_preadv2_func == NULL)
        return IOS_UNSUPPORTED;
    iov.iov_base = jlong_to_ptr(address);
    iov.iov_len = (size_t) len;
    n = my_preadv2_func(fdval(env, fdo), &iov, 1, (off_t) position, RWF_NOWAIT);
    if (n < 0) {
        if (errno == ENOSYS)
            return IOS_UNSUPPORTED;
        if (errno == EOPNOTSUPP || errno == EINVAL)
            return IOS_UNSUPPORTED_CASE;
    }
    return convertReturnVal(env, (jint) n, JNI_TRUE);
}

/*
 * Maps a negative CQE result as pread0/pwrite0 map errno: IOS_INTERRUPTED for
 * EINTR, IOS_UNAVAILABLE for EAGAIN, else
 * throws IOException "Read failed"/"Write failed" with the error's message.
 */
JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUring_error0(JNIEnv *env, jclass clazz, jint res, jboolean reading)
{
    errno = -res;
    return convertReturnVal(env, -1, reading);
}

/*
 * Returns JNI_TRUE if fd is a regular file or a block device, the files that
 * io_uring reads and writes at a position as pread/pwrite do. For a pipe,
 * FIFO, socket or terminal it ignores the offset where pread/pwrite fail
 * with ESPIPE, and a character device may return a short count. If fstat
 * fails, JNI_FALSE: pread/pwrite then report the error.
 */
JNIEXPORT jboolean JNICALL
Java_sun_nio_ch_IoUring_isFileOrBlockDevice0(JNIEnv *env, jclass clazz, jint fd)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return JNI_FALSE;
    return (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)) ? JNI_TRUE : JNI_FALSE;
}

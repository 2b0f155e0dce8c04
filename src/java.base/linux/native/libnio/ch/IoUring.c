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
 * Natives for sun.nio.ch.IoUring: a small shared io_uring used for positional
 * file reads and writes. When libnio is built without liburing (no -DNIO_URING)
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

JNIEXPORT jlong JNICALL
Java_sun_nio_ch_IoUring_create0(JNIEnv *env, jclass clazz, jint sqEntries, jint cqEntries)
{
#ifdef NIO_URING
    struct io_uring *ring = calloc(1, sizeof(struct io_uring));
    struct io_uring_params params;
    int res;

    if (ring == NULL) {
        JNU_ThrowOutOfMemoryError(env, "io_uring");
        return 0;
    }
    memset(&params, 0, sizeof(params));
    params.flags = IORING_SETUP_CQSIZE;
    params.cq_entries = (unsigned) cqEntries;
    res = io_uring_queue_init_params((unsigned) sqEntries, ring, &params);
    if (res < 0) {
        free(ring);
        throwSetupFailure(env, "io_uring_setup", -res);
        return 0;
    }
    /* The kernel creates the ring fd close-on-exec; make sure of it. */
    if (fcntl(ring->ring_fd, F_SETFD, FD_CLOEXEC) < 0) {
        int err = errno;
        io_uring_queue_exit(ring);
        free(ring);
        throwSetupFailure(env, "fcntl(FD_CLOEXEC)", err);
        return 0;
    }
    /* Completions must never be dropped: each in-flight op waits for its CQE. */
    if ((params.features & IORING_FEAT_NODROP) == 0) {
        io_uring_queue_exit(ring);
        free(ring);
        JNU_ThrowIOException(env, "io_uring: kernel lacks IORING_FEAT_NODROP");
        return 0;
    }
    return ptr_to_jlong(ring);
#else
    JNU_ThrowIOException(env, "libnio built without liburing");
    return 0;
#endif
}

#ifdef NIO_URING
/*
 * Frees a ring that failed the probe: its fd and memory must not outlive it.
 */
static void
destroyRing(struct io_uring *ring)
{
    io_uring_queue_exit(ring);
    free(ring);
}
#endif

/*
 * Returns JNI_TRUE if the ring reads at the file's current position, and
 * advances it, for an offset of -1 (IORING_FEAT_RW_CUR_POS, Linux 5.6).
 */
JNIEXPORT jboolean JNICALL
Java_sun_nio_ch_IoUring_curPos0(JNIEnv *env, jclass clazz, jlong address)
{
#ifdef NIO_URING
    struct io_uring *ring = jlong_to_ptr(address);
    return (ring->features & IORING_FEAT_RW_CUR_POS) ? JNI_TRUE : JNI_FALSE;
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
    struct io_uring *ring = jlong_to_ptr(address);
    struct io_uring_probe *probe;
    struct io_uring_sqe *sqe;
    struct io_uring_cqe *cqe;
    int ok, res;

    probe = io_uring_get_probe_ring(ring);
    if (probe == NULL) {
        destroyRing(ring);
        JNU_ThrowIOException(env, "io_uring: IORING_REGISTER_PROBE failed");
        return;
    }
    ok = io_uring_opcode_supported(probe, IORING_OP_READ)
        && io_uring_opcode_supported(probe, IORING_OP_WRITE)
        && io_uring_opcode_supported(probe, IORING_OP_ASYNC_CANCEL)
        && io_uring_opcode_supported(probe, IORING_OP_NOP);
    io_uring_free_probe(probe);
    if (!ok) {
        destroyRing(ring);
        JNU_ThrowIOException(env, "io_uring: IORING_OP_READ/WRITE/ASYNC_CANCEL not supported");
        return;
    }

    /* One NOP round trip: io_uring_enter may be filtered even when setup is not. */
    sqe = io_uring_get_sqe(ring);
    if (sqe == NULL) {
        destroyRing(ring);
        JNU_ThrowIOException(env, "io_uring: no SQE for probe");
        return;
    }
    io_uring_prep_nop(sqe);
    io_uring_sqe_set_data64(sqe, 0);
    do {
        res = io_uring_submit_and_wait(ring, 1);
    } while (res == -EINTR);
    if (res < 0) {
        destroyRing(ring);
        throwSetupFailure(env, "io_uring_enter", -res);
        return;
    }
    do {
        res = io_uring_wait_cqe(ring, &cqe);
    } while (res == -EINTR);
    if (res < 0) {
        destroyRing(ring);
        throwSetupFailure(env, "io_uring_wait_cqe", -res);
        return;
    }
    res = cqe->res;
    io_uring_cqe_seen(ring, cqe);
    if (res < 0) {
        destroyRing(ring);
        throwSetupFailure(env, "io_uring NOP", -res);
    }
#else
    JNU_ThrowIOException(env, "libnio built without liburing");
#endif
}

/*
 * Frees a ring that create0 made and probe0 accepted, which will not be used:
 * no operation was submitted to it.
 */
JNIEXPORT void JNICALL
Java_sun_nio_ch_IoUring_destroy0(JNIEnv *env, jclass clazz, jlong address)
{
#ifdef NIO_URING
    destroyRing(jlong_to_ptr(address));
#endif
}

#define FALLBACK sun_nio_ch_IoUring_FALLBACK
#define BUSY sun_nio_ch_IoUring_BUSY

#ifdef NIO_URING
/* user_data of an SQE turned into a NOP after a failed submission */
#define NOP_TAG ((__u64) -1)

/*
 * Test-only fault injection, set by setTestFault0: the countdown of
 * submissions before io_uring_enter "fails" with EPERM after the SQE has been
 * made visible to the kernel, of reaper waits before one "fails" with EBADR
 * (a dropped CQE), and of submissions before the kernel "takes none" of the
 * SQE with EBUSY.
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
 * Submits the SQE just prepared, the only entry of the SQ ring besides NOPs
 * that a BUSY submission left. Returns 0 when the kernel has taken it, BUSY
 * if it took none for want of memory or of CQ ring space (EAGAIN, EBUSY:
 * the caller does the operation another way, or again once completions
 * have been taken; it holds the submit lock, so it does not wait here), or
 * -errno if io_uring_enter failed otherwise. Unless it returns 0 the SQE,
 * which io_uring_submit has made visible to the kernel, is turned into a
 * NOP before returning: the kernel never reads or writes the caller's buffer
 * through it, even if the ring is entered again.
 */
static int
submitSqe(struct io_uring *ring, struct io_uring_sqe *sqe)
{
    int res;

    do {
        if (testFault(&testSubmitFault)) {
            /* as if io_uring_enter were denied: the SQE stays in the SQ ring */
            ring->sq.sqe_head = ring->sq.sqe_tail;
            io_uring_smp_store_release(ring->sq.ktail, ring->sq.sqe_tail);
            res = -EPERM;
        } else if (testFault(&testBusyFault)) {
            /* as if the kernel took nothing: the SQE stays in the SQ ring */
            ring->sq.sqe_head = ring->sq.sqe_tail;
            io_uring_smp_store_release(ring->sq.ktail, ring->sq.sqe_tail);
            res = -EBUSY;
        } else {
            res = io_uring_submit(ring);
        }
    } while (res == -EINTR);
    if (res >= 0 && io_uring_sq_ready(ring) == 0)
        return 0;
    if (res >= 0 || res == -EAGAIN || res == -EBUSY)
        res = BUSY;
    /*
     * The kernel did not take the SQE, which is visible to it in the SQ
     * ring: make it harmless.
     */
    io_uring_prep_nop(sqe);
    io_uring_sqe_set_data64(sqe, NOP_TAG);
    return res;
}

/*
 * Queues one read or write and submits it, as submitSqe. The caller holds the
 * ring's submit lock, and every earlier submission has been taken by the
 * kernel or neutralized, so the SQ ring holds no other entry.
 */
static int
submit(struct io_uring *ring, jboolean write, jint fd, jlong bufAddress,
       jint len, jlong position, jlong userData)
{
    struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

    if (sqe == NULL)
        return -EBUSY;   /* cannot happen: the SQ ring is empty */
    if (write) {
        io_uring_prep_write(sqe, fd, jlong_to_ptr(bufAddress), (unsigned) len,
                            (__u64) position);
    } else {
        io_uring_prep_read(sqe, fd, jlong_to_ptr(bufAddress), (unsigned) len,
                           (__u64) position);
    }
    io_uring_sqe_set_data64(sqe, (__u64) userData);
    return submitSqe(ring, sqe);
}

/*
 * Copies up to max completions from the CQ ring, without waiting, as
 * (user_data, res) pairs of jlong to out, and frees their entries; a
 * cancelled request's res becomes IoUring.FALLBACK. NOPs are skipped.
 * Returns the number copied. The caller holds the ring's reap lock.
 */
static int
drain(struct io_uring *ring, jlong *out, int max)
{
    struct io_uring_cqe *cqe;
    unsigned head;
    unsigned seen = 0;
    int n = 0;
    io_uring_for_each_cqe(ring, head, cqe) {
        if (n == max)
            break;
        seen++;
        if (cqe->user_data == NOP_TAG)
            continue;
        out[2 * n] = (jlong) cqe->user_data;
        /* ECANCELED: the kernel cancelled the request (the ring died, or the
         * thread that submitted it exited); it was not done. Java sees only
         * FALLBACK, so no errno value is compared outside this file. */
        out[2 * n + 1] = (cqe->res == -ECANCELED) ? (jlong) FALLBACK : (jlong) cqe->res;
        n++;
    }
    io_uring_cq_advance(ring, seen);
    return n;
}
#endif

JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUring_submit0(JNIEnv *env, jclass clazz, jlong address,
                                jboolean write, jint fd, jlong bufAddress,
                                jint len, jlong position, jlong userData)
{
#ifdef NIO_URING
    return submit(jlong_to_ptr(address), write, fd, bufAddress, len, position, userData);
#else
    return -ENOSYS;
#endif
}

/*
 * submit0, then drain0 if the kernel has taken the SQE: a read of cached
 * data completes during its submission, and its submitter takes the
 * completion in the same call. Returns the number of completions copied, or
 * -errno as submit0 (and nothing is copied). The caller holds the ring's
 * submit lock and reap lock.
 */
JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUring_submitDrain0(JNIEnv *env, jclass clazz, jlong address,
                                     jboolean write, jint fd, jlong bufAddress,
                                     jint len, jlong position, jlong userData,
                                     jlong outAddress, jint max)
{
#ifdef NIO_URING
    struct io_uring *ring = jlong_to_ptr(address);
    int res = submit(ring, write, fd, bufAddress, len, position, userData);
    if (res < 0)
        return res;
    return drain(ring, jlong_to_ptr(outAddress), max);
#else
    return -ENOSYS;
#endif
}

/*
 * Submits a NOP, whose completion wakes a thread waiting in wait0 and is
 * skipped by drain0. Returns as submitSqe; the caller holds the submit lock.
 */
JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUring_nop0(JNIEnv *env, jclass clazz, jlong address)
{
#ifdef NIO_URING
    struct io_uring *ring = jlong_to_ptr(address);
    struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

    if (sqe == NULL)
        return -EBUSY;   /* cannot happen: the SQ ring is empty */
    io_uring_prep_nop(sqe);
    io_uring_sqe_set_data64(sqe, NOP_TAG);
    return submitSqe(ring, sqe);
#else
    return -ENOSYS;
#endif
}

/*
 * Waits in the kernel until the CQ ring holds at least one completion.
 * Returns 0, or -errno for a failure that retrying will not cure.
 */
JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUring_wait0(JNIEnv *env, jclass clazz, jlong address)
{
#ifdef NIO_URING
    struct io_uring *ring = jlong_to_ptr(address);
    int res;
    if (testFault(&testWaitFault))
        return -EBADR;
    res = (int) syscall(__NR_io_uring_enter, ring->ring_fd, 0, 1,
                        IORING_ENTER_GETEVENTS, NULL, 0);
    if (res >= 0 || errno == EINTR || errno == EAGAIN || errno == EBUSY || errno == ETIME)
        return 0;
    return -errno;
#else
    return -ENOSYS;
#endif
}

/*
 * Copies up to max completions from the CQ ring, without waiting, as
 * (user_data, res) pairs of jlong to the array at bufAddress (see drain).
 */
JNIEXPORT jint JNICALL
Java_sun_nio_ch_IoUring_drain0(JNIEnv *env, jclass clazz, jlong address,
                               jlong bufAddress, jint max)
{
#ifdef NIO_URING
    return drain(jlong_to_ptr(address), jlong_to_ptr(bufAddress), max);
#else
    return 0;
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
    struct io_uring *ring = jlong_to_ptr(address);
    struct io_uring_sync_cancel_reg reg;
    int res;
    memset(&reg, 0, sizeof(reg));
    reg.fd = -1;
    reg.flags = IORING_ASYNC_CANCEL_ANY;
    reg.timeout.tv_sec = -1;
    reg.timeout.tv_nsec = -1;
    do {
        res = io_uring_register_sync_cancel(ring, &reg);
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
 * Test-only: arms the fault injection of submit0 failing (kind 0), wait0
 * (kind 1) or submit0 taking nothing (kind 2), to happen on the n-th call
 * from now.
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

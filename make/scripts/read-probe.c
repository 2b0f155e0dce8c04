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
 * What the probe costs a cached read, without a JVM: random reads of LEN
 * bytes at block-aligned offsets of FILE (read into the page cache first),
 * in turns of 2,000 with pread(2), preadv2(2) without flags,
 * preadv2(RWF_NOWAIT), and io_uring (one IORING_OP_READ submitted and its
 * completion taken in one io_uring_enter, which a cached read completes
 * inline): on a ring set up without flags, and on one set up as a single
 * thread's own ring would be at its cheapest (SINGLE_ISSUER, DEFER_TASKRUN,
 * the ring's fd and the file registered), so that the machine's drift
 * reaches them alike. Prints each one's mean time a read over COUNT reads,
 * and how many times RWF_NOWAIT returned EAGAIN all the same (the kernel
 * may, for a page it would have to wait for a lock on).
 *
 * Usage: read-probe FILE COUNT [LEN]
 *   cc -O2 -o build/read-probe make/scripts/read-probe.c -luring
 *   build/read-probe /var/tmp/file 3000000 4096
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

#define TURN 2000

#define HOWS 5
static const char *names[HOWS] = {
    "pread", "preadv2", "preadv2(RWF_NOWAIT)", "io_uring", "io_uring, registered"
};

// one read through a ring, completed before it returns; -errno on failure
static ssize_t ring_read(struct io_uring *ring, int fd, bool fixed, char *buf,
                         size_t len, off_t off) {
    struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
    struct io_uring_cqe *cqe;
    io_uring_prep_read(sqe, fd, buf, (unsigned) len, (__u64) off);
    if (fixed)
        sqe->flags |= IOSQE_FIXED_FILE;
    int ret = io_uring_submit_and_wait(ring, 1);
    if (ret < 0)
        return ret;
    ret = io_uring_peek_cqe(ring, &cqe);
    if (ret < 0)
        return ret;
    ssize_t res = cqe->res;
    io_uring_cqe_seen(ring, cqe);
    return res;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s FILE COUNT [LEN]\n", argv[0]);
        return 2;
    }
    long count = atol(argv[2]);
    size_t len = (argc > 3) ? (size_t) atol(argv[3]) : 4096;
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        perror(argv[1]);
        return 1;
    }
    long blocks = (st.st_size - (off_t) len) / 4096;
    char *buf = aligned_alloc(4096, (len + 4095) & ~(size_t) 4095);
    if (blocks <= 0 || buf == NULL) {
        fprintf(stderr, "file too small\n");
        return 1;
    }
    // the whole file into the page cache
    for (off_t off = 0; off < st.st_size; off += (off_t) len)
        if (pread(fd, buf, len, off) < 0)
            break;

    struct io_uring plain, own;
    int ret = io_uring_queue_init(8, &plain, 0);
    if (ret == 0)
        ret = io_uring_queue_init(8, &own, IORING_SETUP_SINGLE_ISSUER
                                           | IORING_SETUP_DEFER_TASKRUN);
    if (ret == 0)
        ret = io_uring_register_files(&own, &fd, 1);
    if (ret == 0)
        ret = (io_uring_register_ring_fd(&own) == 1) ? 0 : -EINVAL;
    if (ret < 0) {
        fprintf(stderr, "io_uring: %d\n", ret);
        return 1;
    }

    double total[HOWS] = { 0 };
    long eagain = 0;
    unsigned long x = 0x9E3779B97F4A7C15UL;
    for (long done = 0; done < count; done += TURN) {
        for (int how = 0; how < HOWS; how++) {
            double t0 = now();
            for (int i = 0; i < TURN; i++) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                off_t off = (off_t) (x % (unsigned long) blocks) * 4096;
                struct iovec iov = { buf, len };
                ssize_t n;
                switch (how) {
                case 0: n = pread(fd, buf, len, off); break;
                case 1: n = preadv2(fd, &iov, 1, off, 0); break;
                case 2: n = preadv2(fd, &iov, 1, off, RWF_NOWAIT); break;
                case 3: n = ring_read(&plain, fd, false, buf, len, off); break;
                default: n = ring_read(&own, 0, true, buf, len, off); break;
                }
                if (n < 0 && how == 2 && errno == EAGAIN) {
                    eagain++;
                } else if (n != (ssize_t) len) {
                    fprintf(stderr, "%s returned %zd\n", names[how], n);
                    return 1;
                }
            }
            total[how] += now() - t0;
        }
    }
    long reads = (count + TURN - 1) / TURN * TURN;
    for (int how = 0; how < HOWS; how++)
        printf("%-20s %6.0f ns a read (%.3f of pread)\n", names[how],
               total[how] / reads * 1e9, total[how] / total[0]);
    printf("RWF_NOWAIT returned EAGAIN %ld times in %ld reads\n", eagain, reads);
    return 0;
}

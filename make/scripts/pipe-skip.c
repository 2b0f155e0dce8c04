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
 * A producer and a consumer on one pipe, without a JVM: the child writes
 * records of RECORD bytes until TOTAL bytes are written, the parent discards
 * everything with read(2) of CHUNK bytes into a buffer, or with splice(2) of
 * at most CHUNK bytes to /dev/null. Prints throughput, the CPU time of each
 * side per GiB, and the number of calls the consumer made.
 *
 * Usage: pipe-skip RECORD TOTAL read|splice CHUNK
 *   cc -O2 -o build/pipe-skip make/scripts/pipe-skip.c
 *   build/pipe-skip 1048576 1073741824 splice 1073741824
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_seconds(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec
        + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv)
{
    if (argc != 5 || (strcmp(argv[3], "read") != 0 && strcmp(argv[3], "splice") != 0)) {
        fprintf(stderr, "usage: %s RECORD TOTAL read|splice CHUNK\n", argv[0]);
        return 2;
    }
    long record = atol(argv[1]), total = atol(argv[2]), chunk = atol(argv[4]);
    int splicing = strcmp(argv[3], "splice") == 0;
    int p[2];
    if (record <= 0 || chunk <= 0 || pipe(p) != 0)
        return 2;

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid == 0) {
        char *b = calloc(1, record);
        close(p[0]);
        for (long written = 0; written < total; ) {
            ssize_t n = write(p[1], b + written % record, record - written % record);
            if (n <= 0)
                _exit(1);
            written += n;
        }
        _exit(0);
    }
    close(p[1]);

    int devnull = open("/dev/null", O_WRONLY);
    char *buf = malloc(chunk < (1 << 20) ? chunk : (1 << 20));
    long got = 0, calls = 0;
    for (;;) {
        ssize_t n = splicing ? splice(p[0], NULL, devnull, NULL, chunk, 0)
                             : read(p[0], buf, chunk < (1 << 20) ? chunk : (1 << 20));
        calls++;
        if (n <= 0)
            break;
        got += n;
    }
    int status;
    waitpid(pid, &status, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);

    double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    double gib = got / 1073741824.0;
    printf("%s %ld: %.0f MB/s, consumer %.0f ms/GiB, producer %.0f ms/GiB, %ld calls\n",
           argv[3], chunk, got / s / 1e6, cpu_seconds(RUSAGE_SELF) * 1000 / gib,
           cpu_seconds(RUSAGE_CHILDREN) * 1000 / gib, calls);
    return got == total ? 0 : 1;
}

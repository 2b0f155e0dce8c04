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
 *
 * Please contact Oracle, 500 Oracle Parkway, Redwood Shores, CA 94065 USA
 * or visit www.oracle.com if you need additional information or have any
 * questions.
 */

/*
 * Runs a command (a java launcher) with io_uring made to fail in one of the
 * ways a container or an administrator can make it fail, for IoUringFault.java.
 * Built by the jtreg native test build into "IoUringFaultLauncher".
 *
 *   IoUringFaultLauncher [options] command [args...]
 *     --seccomp=all     io_uring_setup, io_uring_enter and io_uring_register
 *                       fail with EPERM (a seccomp filter, as Docker's default)
 *     --seccomp=enter   only io_uring_enter fails with EPERM: setup succeeds
 *     --memlock=N       RLIMIT_MEMLOCK soft and hard limit of N bytes
 *     --nofile=N        RLIMIT_NOFILE soft and hard limit of N
 *
 * Exit status 2 for a usage or setup error, 3 if the seccomp filter cannot be
 * built for this architecture; otherwise it is the command's.
 */

#include <stdio.h>

#ifdef __linux__
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

/* the io_uring system calls have the same number on every architecture */
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif
#ifndef __NR_io_uring_enter
#define __NR_io_uring_enter 426
#endif
#ifndef __NR_io_uring_register
#define __NR_io_uring_register 427
#endif

#if defined(__x86_64__)
#define FILTER_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define FILTER_ARCH AUDIT_ARCH_AARCH64
#endif

#ifdef FILTER_ARCH
/*
 * Installs a filter that fails the io_uring system calls selected by which
 * ("all" or "enter") with EPERM and allows everything else, including all
 * system calls of another architecture's ABI.
 */
static int
installSeccomp(const char *which)
{
    int all = strcmp(which, "all") == 0;
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FILTER_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        /* with "enter", the setup and register comparisons never match */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, all ? __NR_io_uring_setup : ~0U, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_enter, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, all ? __NR_io_uring_register : ~0U, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
    };
    struct sock_fprog prog;

    if (!all && strcmp(which, "enter") != 0) {
        fprintf(stderr, "IoUringFaultLauncher: unknown --seccomp=%s\n", which);
        return 2;
    }
    prog.len = (unsigned short) (sizeof(filter) / sizeof(filter[0]));
    prog.filter = filter;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        perror("IoUringFaultLauncher: prctl(PR_SET_NO_NEW_PRIVS)");
        return 2;
    }
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) {
        perror("IoUringFaultLauncher: prctl(PR_SET_SECCOMP)");
        return 2;
    }
    return 0;
}
#else
static int
installSeccomp(const char *which)
{
    (void) which;
    fprintf(stderr, "IoUringFaultLauncher: seccomp filter not supported on this architecture\n");
    return 3;
}
#endif

static int
setLimit(int resource, const char *name, const char *value)
{
    char *end;
    struct rlimit rl;
    unsigned long long v;

    errno = 0;
    v = strtoull(value, &end, 10);
    if (errno != 0 || end == value || *end != '\0') {
        fprintf(stderr, "IoUringFaultLauncher: bad value for %s: %s\n", name, value);
        return 2;
    }
    rl.rlim_cur = (rlim_t) v;
    rl.rlim_max = (rlim_t) v;
    if (setrlimit(resource, &rl) != 0) {
        fprintf(stderr, "IoUringFaultLauncher: setrlimit(%s, %llu): %s\n",
                name, v, strerror(errno));
        return 2;
    }
    return 0;
}

int
main(int argc, char **argv)
{
    int i = 1;
    int rc = 0;

    for (; i < argc && rc == 0 && strncmp(argv[i], "--", 2) == 0; i++) {
        const char *arg = argv[i];
        if (strncmp(arg, "--seccomp=", 10) == 0) {
            rc = installSeccomp(arg + 10);
        } else if (strncmp(arg, "--memlock=", 10) == 0) {
            rc = setLimit(RLIMIT_MEMLOCK, "RLIMIT_MEMLOCK", arg + 10);
        } else if (strncmp(arg, "--nofile=", 9) == 0) {
            rc = setLimit(RLIMIT_NOFILE, "RLIMIT_NOFILE", arg + 9);
        } else {
            fprintf(stderr, "IoUringFaultLauncher: unknown option %s\n", arg);
            rc = 2;
        }
    }
    if (rc != 0)
        return rc;
    if (i == argc) {
        fprintf(stderr, "usage: IoUringFaultLauncher [--seccomp=all|enter] [--memlock=N] "
                "[--nofile=N] command [args...]\n");
        return 2;
    }
    execv(argv[i], argv + i);
    fprintf(stderr, "IoUringFaultLauncher: exec %s: %s\n", argv[i], strerror(errno));
    return 2;
}
#else
int
main(void)
{
    fprintf(stderr, "IoUringFaultLauncher: Linux only\n");
    return 2;
}
#endif

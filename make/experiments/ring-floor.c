/*
 * Experiment: the kernel's floor for a read of cached data through io_uring,
 * against pread, with no JVM in the way. One thread reads random 4 KiB blocks
 * of a file that is in the page cache, each read submitted alone and taken
 * from the CQ ring right after io_uring_enter returns (what IoUring.execute
 * does when a read completes during its submission), in these variants:
 *
 *   pread        pread(2)
 *   ring         one SQE per io_uring_enter, as the JDK's ring does
 *   ring-fixed   the same with the file registered (IOSQE_FIXED_FILE)
 *   ring-regfd   the same with the ring's fd registered (io_uring_register_ring_fd),
 *                which only the thread that registers it can use
 *   ring-coop    a ring set up with COOP_TASKRUN | TASKRUN_FLAG
 *   ring-defer   a ring set up with SINGLE_ISSUER | DEFER_TASKRUN
 *   ring-all     all of the above that help a single thread: SINGLE_ISSUER |
 *                DEFER_TASKRUN, the file and the ring's fd registered (the
 *                best one SQE per io_uring_enter can do on this kernel)
 *   ring-batch8  8 SQEs per io_uring_enter: what batching at most could win
 *
 * Prints nanoseconds per read (the median of ROUNDS rounds, variants taking
 * turns) and each variant's speed relative to pread.
 *
 * Usage: ring-floor FILE [reads-per-round [rounds]]
 * Build: gcc -O2 -o ring-floor ring-floor.c -l:liburing.a
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 4096
#define BATCH 8
#define MAX_ROUNDS 64

enum { PREAD, RING, RING_FIXED, RING_REGFD, RING_COOP, RING_DEFER, RING_ALL, RING_BATCH, VARIANTS };

static const char *names[VARIANTS] = {
    "pread", "ring", "ring-fixed", "ring-regfd", "ring-coop", "ring-defer", "ring-all",
    "ring-batch8"
};

static int fd;
static long blocks;
static char *buf;
static unsigned long long rnd = 88172645463325252ULL;

static long next_block(void) {
    rnd ^= rnd << 13;
    rnd ^= rnd >> 7;
    rnd ^= rnd << 17;
    return (long) (rnd % (unsigned long long) blocks);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void fail(const char *what, int err) {
    fprintf(stderr, "ring-floor: %s: %s\n", what, strerror(err));
    exit(1);
}

static void check(int res) {
    if (res != BLOCK) {
        fprintf(stderr, "ring-floor: read returned %d\n", res);
        exit(1);
    }
}

/* Sets up a ring with the given flags; returns 0, or -errno if refused. */
static int setup(struct io_uring *ring, unsigned flags) {
    struct io_uring_params p;
    memset(&p, 0, sizeof(p));
    p.flags = flags;
    return io_uring_queue_init_params(64, ring, &p);
}

/* Reads n blocks, each (or each BATCH) submitted alone; returns ns per read. */
static double run_ring(struct io_uring *ring, long n, int fixed, int batch) {
    double t0 = now();
    for (long i = 0; i < n; i += batch) {
        for (int j = 0; j < batch; j++) {
            struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
            io_uring_prep_read(sqe, fixed ? 0 : fd, buf + j * BLOCK, BLOCK,
                               (unsigned long long) next_block() * BLOCK);
            if (fixed)
                sqe->flags |= IOSQE_FIXED_FILE;
        }
        int res = io_uring_submit(ring);
        if (res != batch)
            fail("io_uring_submit", res < 0 ? -res : EAGAIN);
        for (int j = 0; j < batch; j++) {
            struct io_uring_cqe *cqe;
            if (io_uring_peek_cqe(ring, &cqe) != 0) {
                /* not complete during the submission: wait (not expected) */
                res = io_uring_wait_cqe(ring, &cqe);
                if (res < 0)
                    fail("io_uring_wait_cqe", -res);
            }
            check(cqe->res);
            io_uring_cqe_seen(ring, cqe);
        }
    }
    return (now() - t0) / n;
}

static double run_pread(long n) {
    double t0 = now();
    for (long i = 0; i < n; i++)
        check((int) pread(fd, buf, BLOCK, next_block() * BLOCK));
    return (now() - t0) / n;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: ring-floor FILE [reads-per-round [rounds]]\n");
        return 2;
    }
    long n = (argc > 2) ? atol(argv[2]) : 1000000;
    int rounds = (argc > 3) ? atoi(argv[3]) : 7;
    if (rounds < 1 || rounds > MAX_ROUNDS || n < BATCH)
        return 2;
    n -= n % BATCH;

    fd = open(argv[1], O_RDONLY);
    if (fd < 0)
        fail(argv[1], errno);
    struct stat st;
    if (fstat(fd, &st) < 0)
        fail("fstat", errno);
    blocks = st.st_size / BLOCK;
    if (blocks < 1)
        fail("file shorter than a block", EINVAL);
    if (posix_memalign((void **) &buf, BLOCK, BATCH * BLOCK) != 0)
        fail("posix_memalign", ENOMEM);
    /* bring the file into the page cache */
    for (long b = 0; b < blocks; b++)
        check((int) pread(fd, buf, BLOCK, b * BLOCK));

    struct io_uring rings[VARIANTS];
    int ok[VARIANTS] = { 1 };
    unsigned flags[VARIANTS] = {
        0, 0, 0, 0,
        IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
        0
    };
    for (int v = RING; v < VARIANTS; v++) {
        int res = setup(&rings[v], flags[v]);
        ok[v] = (res == 0);
        if (!ok[v])
            printf("%-12s unavailable: %s\n", names[v], strerror(-res));
    }
    if (ok[RING_FIXED] && io_uring_register_files(&rings[RING_FIXED], &fd, 1) != 0) {
        printf("%-12s unavailable: cannot register the file\n", names[RING_FIXED]);
        ok[RING_FIXED] = 0;
    }
    if (ok[RING_REGFD] && io_uring_register_ring_fd(&rings[RING_REGFD]) != 1) {
        printf("%-12s unavailable: cannot register the ring's fd\n", names[RING_REGFD]);
        ok[RING_REGFD] = 0;
    }
    if (ok[RING_ALL] && (io_uring_register_files(&rings[RING_ALL], &fd, 1) != 0
                         || io_uring_register_ring_fd(&rings[RING_ALL]) != 1)) {
        printf("%-12s unavailable: cannot register the file and the ring's fd\n",
               names[RING_ALL]);
        ok[RING_ALL] = 0;
    }

    double t[VARIANTS][MAX_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        for (int v = 0; v < VARIANTS; v++) {
            if (!ok[v])
                continue;
            switch (v) {
            case PREAD:      t[v][r] = run_pread(n); break;
            case RING_FIXED:
            case RING_ALL:   t[v][r] = run_ring(&rings[v], n, 1, 1); break;
            case RING_BATCH: t[v][r] = run_ring(&rings[v], n, 0, BATCH); break;
            default:         t[v][r] = run_ring(&rings[v], n, 0, 1); break;
            }
        }
    }
    printf("%-12s %10s %10s %10s %12s\n", "variant", "ns/read", "min", "max", "vs pread");
    double base = 0;
    for (int v = 0; v < VARIANTS; v++) {
        if (!ok[v])
            continue;
        qsort(t[v], rounds, sizeof(double), cmp);
        double med = t[v][rounds / 2];
        if (v == PREAD)
            base = med;
        printf("%-12s %10.0f %10.0f %10.0f %11.2fx\n", names[v], med, t[v][0],
               t[v][rounds - 1], base / med);
    }
    return 0;
}

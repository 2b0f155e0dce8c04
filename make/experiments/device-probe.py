#!/usr/bin/env python3
#
# Diagnostic: where a FileChannelUring case spends its time, baseline against patched.
#
# Runs fork pairs of FileChannelUring.ops (order alternating within pairs, as compare.py
# does) and, for every measured iteration, reads what the host saw meanwhile: CPU use and
# context switches (/proc/stat), and the block device under the benchmark file (its
# /sys/block stat: completed reads per second, KiB per read, mean read latency, mean number
# of requests in flight). Optionally samples the fork's threads every 5 ms for a while and
# counts those blocked in the kernel (state D) by where they wait (wchan; a wait for a free
# request of the device queue is told apart by the thread's kernel stack, io_uring's or
# pread64's, which needs root).
#
# Usage (from the top of the clone, after make micro baseline):
#   python3 make/experiments/device-probe.py --pairs 8 \
#       --jmh "-wi 1 -w 1 -i 4 -r 2 -p threads=V1024 -p blockSize=65536 -p direct=true" \
#       [--threads-at 6 --threads-for 4]
#
import argparse
import collections
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'scripts'))
from compare import pair_geomean  # noqa: E402


def block_stat_path(path):
    """The /sys stat file of the block device holding path."""
    st = os.stat(path)
    return '/sys/dev/block/%d:%d/stat' % (os.major(st.st_dev), os.minor(st.st_dev))


def snapshot(stat_path):
    with open('/proc/stat') as f:
        lines = f.read().split('\n')
    cpu = [int(x) for x in lines[0].split()[1:9]]
    ctxt = next(int(line.split()[1]) for line in lines if line.startswith('ctxt '))
    with open(stat_path) as f:
        dev = [int(x) for x in f.read().split()]
    return time.time(), cpu, ctxt, dev


def window(a, b):
    """CPU busy %, context switches/s, device reads/s, KiB/read, ms/read, mean in flight."""
    dt = b[0] - a[0]
    cpu = [y - x for x, y in zip(a[1], b[1])]
    busy = 100.0 * (sum(cpu) - cpu[3] - cpu[4]) / max(sum(cpu), 1)
    dev = [y - x for x, y in zip(a[3], b[3])]
    reads = max(dev[0], 1)
    # stat fields: reads, merged, sectors, ms reading, ..., ms weighted by requests in flight
    return (busy, (b[2] - a[2]) / dt, dev[0] / dt, dev[2] * 0.5 / reads, dev[3] / reads,
            dev[10] / (dt * 1000.0))


def fork_pid(parent):
    """The pid of the JMH fork (a child java process of the driver), or None."""
    for p in os.listdir('/proc'):
        if not p.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % p) as f:
                ppid = int(f.read().rsplit(')', 1)[1].split()[1])
            if ppid == parent:
                return int(p)
        except (OSError, ValueError, IndexError):
            continue
    return None


def sample_threads(driver, start, duration, out):
    """Counts, per sample, the fork's threads in state D by wchan (mean over the samples)."""
    time.sleep(start)
    pid = fork_pid(driver.pid)
    if pid is None:
        return
    counts = collections.Counter()
    samples = 0
    end = time.time() + duration
    while time.time() < end:
        try:
            tasks = os.listdir('/proc/%d/task' % pid)
        except OSError:
            break
        samples += 1
        for t in tasks:
            base = '/proc/%d/task/%s/' % (pid, t)
            try:
                with open(base + 'stat') as f:
                    state = f.read().rsplit(')', 1)[1].split()[0]
                if state != 'D':
                    continue
                with open(base + 'comm') as f:
                    comm = f.read().strip()
                with open(base + 'wchan') as f:
                    wchan = f.read().strip()
                if wchan == 'blk_mq_get_tag':
                    # waiting for a free request of the device queue: in which call
                    with open(base + 'stack') as f:
                        stack = f.read()
                    wchan += (' (io_uring)' if 'io_issue_sqe' in stack
                              else ' (pread64)' if 'pread64' in stack else '')
            except OSError:
                continue
            # the JVM shortens long thread names for the kernel: ForkJoi..ker-12
            kind = 'carriers' if comm.startswith('ForkJoi') else comm
            counts[(kind, wchan)] += 1
        time.sleep(0.005)
    for k, v in counts.items():
        out[k] = v / max(samples, 1)


def run_fork(jdk, jar, jmh, stat_path, threads_at, threads_for):
    java = os.path.join(jdk, 'bin', 'java')
    cmd = [java, '-jar', jar, 'FileChannelUring.ops', '-f', '1', '-jvm', java] + jmh.split()
    driver = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    blocked = {}
    sampler = None
    if threads_for > 0:
        sampler = threading.Thread(target=sample_threads,
                                   args=(driver, threads_at, threads_for, blocked))
        sampler.start()
    ops, windows, prev, measuring = [], [], None, False
    for line in driver.stdout:
        # JMH prints "Iteration   n: " when an iteration's measurement ends (the
        # benchmark's teardown prints after it), its score once the line is complete
        if line.startswith('Iteration') or line.startswith('# Warmup Iteration'):
            snap = snapshot(stat_path)
            if prev is not None and line.startswith('Iteration'):
                windows.append(window(prev, snap))
            prev = snap
            measuring = line.startswith('Iteration')
        elif measuring and line.rstrip().endswith(' ops/s') and line[:1].isdigit():
            ops.append(float(line.split()[0]))
    driver.wait()
    if sampler:
        sampler.join()
    if driver.returncode != 0 or not ops:
        sys.exit('fork failed: ' + ' '.join(cmd))
    mean = [sum(w[i] for w in windows) / len(windows) for i in range(6)]
    return sum(ops) / len(ops), mean, blocked


def main():
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    ap = argparse.ArgumentParser()
    ap.add_argument('--baseline', default=os.path.join(top, 'build', 'baseline-jdk'))
    ap.add_argument('--patched', default=os.path.join(top, 'build', 'jdk'))
    ap.add_argument('--jar', default=os.path.join(top, 'build', 'benchmarks.jar'))
    ap.add_argument('--file', default='/var/tmp/nio-uring-bench.dat')
    ap.add_argument('--pairs', type=int, default=4)
    ap.add_argument('--jmh', default='-wi 1 -w 1 -i 4 -r 2')
    ap.add_argument('--threads-at', type=float, default=6.0)
    ap.add_argument('--threads-for', type=float, default=0.0)
    a = ap.parse_args()
    if not os.path.exists(a.file):
        sys.exit('%s: run the benchmark once to create it' % a.file)
    stat_path = block_stat_path(a.file)
    jdks = {'baseline': a.baseline, 'patched': a.patched}
    results = {'baseline': [], 'patched': []}
    print('%-8s %4s %10s %6s %8s %9s %7s %7s %7s' % ('jdk', 'pair', 'ops/s', 'busy%', 'ctxsw/s',
                                                    'dev rd/s', 'KiB/rd', 'ms/rd', 'inflight'))
    for pair in range(a.pairs):
        order = ['baseline', 'patched'] if pair % 2 == 0 else ['patched', 'baseline']
        for name in order:
            score, m, blocked = run_fork(jdks[name], a.jar, a.jmh, stat_path,
                                         a.threads_at, a.threads_for)
            results[name].append((score, m, blocked))
            print('%-8s %4d %10.0f %6.1f %8.0f %9.0f %7.1f %7.2f %7.1f' % ((name, pair + 1, score) + tuple(m)),
                  flush=True)
    ratios = [p[0] / b[0] for b, p in zip(results['baseline'], results['patched'])]
    if len(ratios) > 1:
        print('patched vs baseline, %d pairs: %.2f (95%%: %.2f to %.2f)'
              % ((len(ratios),) + pair_geomean(ratios)))
    for name in ('baseline', 'patched'):
        rs = results[name]
        m = [sum(r[1][i] for r in rs) / len(rs) for i in range(6)]
        print('%-8s mean: %.0f ops/s, CPU busy %.1f%%, %.0f context switches/s, device %.0f reads/s'
              ' of %.1f KiB, %.2f ms each, %.1f in flight'
              % ((name, sum(r[0] for r in rs) / len(rs)) + tuple(m)))
        if a.threads_for > 0:
            total = collections.Counter()
            for r in rs:
                for k, v in r[2].items():
                    total[k] += v / len(rs)
            for (kind, wchan), v in total.most_common(6):
                print('         threads in D: %6.2f %s in %s' % (v, kind, wchan))


if __name__ == '__main__':
    main()

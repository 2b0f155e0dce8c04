#!/usr/bin/env python3
#
# Experiment, not a benchmark: where the time of a read goes between the
# device and its reader, from the kernel's trace events (tracefs, as root).
# Runs one JMH fork of FileChannelUring.ops with the given JDK, records one
# second of its measurement phase, and prints, for the reads that went
# through a ring and for those that blocked in pread:
#   - how many there were (per reader: the turnaround of each kind),
#   - the device's time (io_uring submission or bio queued, to the request's
#     completion), and the part of it spent queued in the guest before the
#     driver issued the request,
#   - for ring reads, the delay from the request's completion to the CQE
#     (io_uring posts it from task work on the submitting thread, woken for
#     it), by what that thread was doing when the device completed,
#   - for blocked reads, the delay from the request's completion to the
#     reader running again.
#
# Usage:
#   python3 make/experiments/completion-trace.py --jdk build/jdk \
#       [--jar build/benchmarks.jar] [--out DIR] [--delay 6] \
#       [--jmh "-p threads=V16 -p cache=cold -p blockSize=4096 -p direct=true"]
#
# Matching: a ring read's bio is the next one its submitting thread queues
# after io_uring_submit_req; any other bio is a blocked read's. A request is
# found again at completion by its first sector.

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from collections import defaultdict

TRACING = "/sys/kernel/tracing"
EVENTS = ["io_uring/io_uring_submit_req", "io_uring/io_uring_complete",
          "block/block_bio_queue", "block/block_rq_issue", "block/block_rq_complete",
          "sched/sched_switch"]
LINE = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): (.*)$")
USER_DATA = re.compile(r"ring (\S+), req \S+, user_data (0x[0-9a-f]+)")


def write(name, value):
    with open(os.path.join(TRACING, name), "w") as f:
        f.write(value)


def record(args, trace_file):
    if not os.path.exists(os.path.join(TRACING, "trace")):
        subprocess.run(["mount", "-t", "tracefs", "nodev", TRACING], check=True)
    write("tracing_on", "0")
    write("trace", "")
    write("buffer_size_kb", "131072")
    for e in EVENTS:
        write("events/%s/enable" % e, "1")
    cmd = [os.path.join(args.jdk, "bin", "java"), "-jar", args.jar, "FileChannelUring.ops",
           "-f", "1", "-wi", "1", "-w", "1", "-i", "6", "-r", "1"] + args.jmh.split()
    with open(os.path.join(args.out, "jmh.log"), "w") as log:
        p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        try:
            time.sleep(args.delay)
            write("tracing_on", "1")
            time.sleep(1)
            write("tracing_on", "0")
            p.wait()
        finally:
            for e in EVENTS:
                write("events/%s/enable" % e, "0")
    with open(os.path.join(TRACING, "trace")) as src, open(trace_file, "w") as dst:
        for line in src:
            dst.write(line)


def analyze(trace_file):
    submitted = {}       # (ring, user_data) -> submitting pid
    awaiting_bio = {}    # pid -> (ring, user_data) submitted, bio not yet seen
    by_sector = {}       # sector -> (kind, key or pid, time queued)
    issued = {}          # sector -> time the driver issued the request
    state = {}           # pid -> prev_state when switched out, "run" when on a CPU
    completed = {}       # (ring, user_data) -> (time, submitter's state)
    woken = defaultdict(list)   # pid -> times its blocked read completed
    device = defaultdict(list)
    queued = defaultdict(list)
    cqe_delay = defaultdict(list)
    wake_delay = []
    ring_readers, pread_readers = set(), set()
    with open(trace_file) as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            _, pid, _, ts, event, rest = m.groups()
            t = float(ts) * 1e6
            if event == "sched_switch":
                a = dict(kv.split("=", 1) for kv in re.findall(r"(\w+=\S+)", rest))
                state[a["prev_pid"]] = a["prev_state"]
                nxt = a["next_pid"]
                for t0 in woken.pop(nxt, []):
                    wake_delay.append(t - t0)
                state[nxt] = "run"
            elif event == "io_uring_submit_req":
                key = USER_DATA.match(rest).groups()
                submitted[key] = (pid, t)
                awaiting_bio[pid] = key
            elif event == "block_bio_queue":
                sector = int(rest.split()[2])
                if pid in awaiting_bio:
                    key = awaiting_bio.pop(pid)
                    by_sector[sector] = ("ring", key, submitted[key][1])
                else:
                    by_sector[sector] = ("pread", pid, t)
            elif event == "block_rq_issue":
                issued[int(rest.split()[4])] = t
            elif event == "block_rq_complete":
                sector = int(rest.split()[3])
                t_issue = issued.pop(sector, None)
                if sector in by_sector:
                    kind, x, t0 = by_sector.pop(sector)
                    device[kind].append(t - t0)
                    if t_issue is not None and t_issue >= t0:
                        queued[kind].append(t_issue - t0)
                    if kind == "ring":
                        completed[x] = (t, state.get(submitted[x][0], "?")[:1])
                    else:
                        pread_readers.add(x)
                        if state.get(x, "run") != "run":
                            woken[x].append(t)
            elif event == "io_uring_complete":
                key = USER_DATA.match(rest).groups()
                if key in completed:
                    t1, s = completed.pop(key)
                    cqe_delay[s].append(t - t1)
                    cqe_delay["all"].append(t - t1)
                    ring_readers.add(submitted[key][0])
                submitted.pop(key, None)
    return device, queued, cqe_delay, wake_delay


def quantiles(a):
    a = sorted(a)
    q = lambda p: a[min(len(a) - 1, int(p * len(a)))]
    return "n %6d  mean %6.1f  p50 %6.1f  p90 %6.1f  p99 %6.1f us" % (
        len(a), statistics.mean(a), q(0.5), q(0.9), q(0.99))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jdk", help="the JDK to run (not with --analyze)")
    ap.add_argument("--jar", default="build/benchmarks.jar")
    ap.add_argument("--out", default="build/completion-trace")
    ap.add_argument("--delay", type=float, default=6.0,
                    help="seconds after the fork's start when the second traced begins")
    ap.add_argument("--jmh", default="-p threads=V16 -p cache=cold -p blockSize=4096 "
                                     "-p direct=true")
    ap.add_argument("--analyze", help="only analyze this trace file")
    args = ap.parse_args()
    if args.analyze:
        trace_file = args.analyze
    elif not args.jdk:
        ap.error("--jdk or --analyze is needed")
    else:
        os.makedirs(args.out, exist_ok=True)
        trace_file = os.path.join(args.out, "trace.txt")
        record(args, trace_file)
        with open(os.path.join(args.out, "jmh.log")) as log:
            for line in log:
                if line.startswith("FileChannelUring.ops"):
                    print(line.rstrip())
    device, queued, cqe_delay, wake_delay = analyze(trace_file)
    names = {"S": "sleeping", "D": "in uninterruptible sleep (a pread)", "R": "runnable",
             "r": "running", "?": "unknown"}
    for kind in ("ring", "pread"):
        if device[kind]:
            print("%-5s reads in the second traced, device time: %s"
                  % (kind, quantiles(device[kind])))
        if queued[kind]:
            print("  of which queued before the driver issued it:  %s"
                  % quantiles(queued[kind]))
    if cqe_delay:
        print("ring completion to CQE, all:         %s" % quantiles(cqe_delay["all"]))
        for s, a in sorted(cqe_delay.items()):
            if s != "all":
                print("  submitter %-34s %s" % (names.get(s, s) + ":", quantiles(a)))
    if wake_delay:
        print("pread completion to reader running:  %s" % quantiles(wake_delay))


if __name__ == "__main__":
    sys.exit(main())

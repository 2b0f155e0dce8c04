#!/usr/bin/env python3
"""Runs JMH benchmarks on the patched JDK's modes beside the controls a reviewer would pick
instead, in rounds, and tabulates each against the baseline.

Configurations (name=jdk[:jvm option ...], jdk being "baseline", "patched" or the path of
another JDK, such as an earlier build kept as a control), by default:
  baseline      the baseline JDK as shipped
  baseline-AA   the baseline again: the A/A row, the run's resolution
  baseline-256  the baseline with 256 carriers (jdk.virtualThreadScheduler.parallelism)
  auto          the patched JDK in its default mode
  compensate    the patched JDK, reads that would block compensated (Blocker), no ring
  always        the patched JDK, every operation through a ring
A configuration whose JDK is "fio" runs fio instead (one job, io_uring, the case's qd, op,
direct, file and fileSize, as long as JMH's warmup and measurement): the device's rate for one
thread that keeps that many operations outstanding, as a control for AsyncFileChannelUring; with
cache=hot the file is read into the page cache first and not invalidated, and with cache=evictN
it is evicted every N ms during the run, as the benchmark does. Its options after the colons,
engine=, jobs= and qd=, replace io_uring, one job and the case's qd: e.g.
"fio-uring=fio:jobs=2:qd=64" (one io_uring thread per CPU), "fio-psync=fio:engine=psync:jobs=256".

Every combination of the "-p name=a,b" options is a case. Each round runs every configuration
once on the case, one JMH fork each, in an order shuffled every round (seeded), so that drift
hits all alike. Per configuration: the mean score; the geometric mean of its ratio to the
baseline's score of the same round, with a 95% interval; the process CPU per operation and the
peak OS and carrier+reaper threads the benchmark prints (FileChannelUring). Writes OUT/table.md
and OUT/summary.json.
"""

import argparse
import json
import os
import random
import resource
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

DEFAULT_CONFIGS = [
    "baseline=baseline",
    "baseline-AA=baseline",
    "baseline-256=baseline:-Djdk.virtualThreadScheduler.parallelism=256",
    "auto=patched",
    "compensate=patched:-Djdk.internal.nio.ioUring.mode=compensate",
    "always=patched:-Djdk.internal.nio.ioUring.mode=always",
]


def parse_log(path):
    """CPU per op (mean over measurement iterations), the producer's CPU per op where the
    benchmark prints it (SkipEndToEnd), and peaks from a fork's output."""
    cpu, producer, peaks, measuring = [], [], {}, False
    with open(path) as log:
        for line in log:
            if line.startswith("Iteration "):
                measuring = True
            m = re.search(r"process CPU per op \(ns\): (\d+)", line)
            if m and measuring:
                cpu.append(int(m.group(1)))
            m = re.search(r"producer CPU per op \(ns\): (\d+)", line)
            if m and measuring:
                producer.append(int(m.group(1)))
            m = re.search(r"peak (OS threads|carrier\+reaper threads|RSS KiB): (\d+)", line)
            if m:
                peaks[m.group(1)] = max(peaks.get(m.group(1), 0), int(m.group(2)))
    return ((statistics.mean(cpu) if cpu else None),
            (statistics.mean(producer) if producer else None), peaks)


def jmh_option(opts, flag, default):
    return opts[opts.index(flag) + 1] if flag in opts else default


def run_fio(a, opts, tag, over=()):
    """fio in the shape of the case: one job keeping qd random operations outstanding, or as
    the configuration's options say."""
    params = dict(opts[i + 1].split("=", 1) for i in range(len(opts) - 1) if opts[i] == "-p")
    over = dict(o.split("=", 1) for o in over)
    seconds = int(jmh_option(opts, "-i", "4")) * int(jmh_option(opts, "-r", "2").rstrip("s"))
    ramp = int(jmh_option(opts, "-wi", "1")) * int(jmh_option(opts, "-w", "2").rstrip("s"))
    write = params.get("op", "read") == "write"
    path = params.get("file", "/var/tmp/nio-uring-bench.dat") + (".aw" if write else "")
    hot = params.get("cache") == "hot" and not write
    if hot:
        # as the benchmark's setup: the file read into the page cache
        with open(path, "rb") as f:
            while f.read(1 << 20):
                pass
    jobs = int(over.get("jobs", "1"))
    cmd = ["fio", "--name=" + tag, "--filename=" + path, "--rw=" + ("randwrite" if write else "randread"),
           "--bs=4k", "--ioengine=" + over.get("engine", "io_uring"),
           "--iodepth=" + over.get("qd", params.get("qd", "1")), "--numjobs=%d" % jobs,
           "--group_reporting", "--thread",
           "--size=" + params.get("fileSize", "2147483648"), "--fadvise_hint=0", "--invalidate=" + ("0" if hot else "1"),
           "--direct=" + ("1" if params.get("direct") == "true" else "0"), "--time_based",
           "--ramp_time=%d" % ramp, "--runtime=%d" % seconds, "--output-format=json"]
    print("## %s: %s" % (tag, " ".join(cmd)), flush=True)
    cache = params.get("cache", "")
    evicter = None
    if cache.startswith("evict"):
        # as the benchmark: the file dropped from the page cache every N ms
        evicter = subprocess.Popen(["sh", "-c", "while :; do sleep %s; dd if=%s iflag=nocache "
                                    "count=0 status=none; done" % (int(cache[5:]) / 1000.0, path)])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    finally:
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if evicter:
            evicter.kill()
            evicter.wait()
    with open(os.path.join(a.out, tag + ".json"), "w") as f:
        f.write(out)
    job = json.loads(out[out.index("{"):])["jobs"][0]
    io = job["write" if write else "read"]
    # fio's process CPU over its ramp and run, at the rate of the run
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    cpu_ns = cpu * 1e9 / max(1.0, io["iops"] * (ramp + seconds))
    return {"score": io["iops"], "unit": "ops/s", "mode": "thrpt", "benchmark": "fio.ops",
            "params": params, "cpu_ns": cpu_ns, "peaks": {"OS threads": jobs}}


def run_fork(a, conf, opts, tag):
    name, jdk, jvm = conf
    if jdk == "fio":
        return run_fio(a, opts, tag, jvm)
    java = os.path.join(jdk, "bin", "java")
    path = os.path.join(a.out, tag + ".json")
    logname = os.path.join(a.out, tag + ".log")
    cmd = [java, "-jar", a.jar, a.bench, "-f", "1", "-jvm", java, "-rf", "json", "-rff", path]
    if jvm:
        cmd += ["-jvmArgsAppend", " ".join(jvm)]
    cmd += opts
    print("## %s: %s" % (tag, " ".join(cmd)), flush=True)
    with open(logname, "w") as log:
        rc = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT)
    if rc != 0:
        sys.exit("JMH failed for %s: see %s" % (tag, logname))
    with open(path) as f:
        results = json.load(f)
    cpu, producer, peaks = parse_log(logname)
    r = results[0]
    return {"score": r["primaryMetric"]["score"], "unit": r["primaryMetric"]["scoreUnit"],
            "mode": r["mode"], "benchmark": r["benchmark"], "params": r.get("params") or {},
            "cpu_ns": cpu, "producer_ns": producer, "peaks": peaks}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--patched", required=True)
    ap.add_argument("--jar", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--jmh", default="-wi 1 -w 1 -i 3 -r 1")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--configs", default=",".join(DEFAULT_CONFIGS),
                    help="comma-separated name=baseline|patched|JDK path[:jvm option ...]")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    jdks = {"baseline": os.path.realpath(a.baseline), "patched": os.path.realpath(a.patched)}
    confs = []
    for c in a.configs.split(","):
        name, rest = c.split("=", 1)
        parts = rest.split(":")
        jdk = parts[0] if parts[0] == "fio" else (jdks.get(parts[0]) or os.path.realpath(parts[0]))
        confs.append((name, jdk, parts[1:]))
    names = [c[0] for c in confs]
    rng = random.Random(a.seed)

    summary = []
    for ci, opts in enumerate(compare.cases(a.jmh.split())):
        runs = {n: [] for n in names}
        for rnd in range(1, a.rounds + 1):
            order = confs[:]
            rng.shuffle(order)
            for conf in order:
                runs[conf[0]].append(run_fork(a, conf, opts,
                                              "case%d-round%d-%s" % (ci, rnd, conf[0])))
        first = runs[names[0]]
        # a JMH row names the case (fio's does not)
        named = next(runs[n] for n in names if runs[n][0]["benchmark"] != "fio.ops")
        case = {"benchmark": named[0]["benchmark"], "params": named[0]["params"],
                "unit": named[0]["unit"], "mode": named[0]["mode"], "configs": {}}
        for n in names:
            rs = runs[n]
            scores = [r["score"] for r in rs]
            ratios = [(r["score"] / b["score"]) if case["mode"] == "thrpt"
                      else (b["score"] / r["score"]) for r, b in zip(rs, first)]
            cpus = [r["cpu_ns"] for r in rs if r["cpu_ns"] is not None]
            producers = [r["producer_ns"] for r in rs if r.get("producer_ns") is not None]
            peaks = {}
            for r in rs:
                for k, v in r["peaks"].items():
                    peaks[k] = max(peaks.get(k, 0), v)
            case["configs"][n] = {
                "scores": scores, "mean": statistics.mean(scores), "ratios": ratios,
                "ratio": (list(compare.pair_geomean(ratios)) if len(ratios) > 1
                          and n != names[0] else [1.0, 1.0, 1.0]),
                "cpu_us": (statistics.mean(cpus) / 1000.0) if cpus else None,
                "producer_us": (statistics.mean(producers) / 1000.0) if producers else None,
                "peaks": peaks}
        summary.append(case)
        print(format_case(case, names, a.rounds), flush=True)
        with open(os.path.join(a.out, "summary.json"), "w") as f:
            json.dump({"bench": a.bench, "jmh": a.jmh, "rounds": a.rounds, "configs": a.configs,
                       "cases": summary}, f, indent=1)
    with open(os.path.join(a.out, "table.md"), "w") as f:
        f.write("\n\n".join(format_case(c, names, a.rounds) for c in summary) + "\n")
    print("table: " + os.path.join(a.out, "table.md"))


def num(x):
    """A score with three significant digits at least."""
    return "%.0f" % x if x >= 100 else "%.3g" % x


def format_case(case, names, rounds):
    label = case["benchmark"].rsplit(".", 2)[-2] + "." + case["benchmark"].rsplit(".", 1)[1]
    shown = ", ".join("%s=%s" % kv for kv in sorted(case["params"].items())
                      if kv[0] in ("threads", "qd", "executor", "cache", "blockSize", "direct", "op",
                                "fileSize"))
    lines = ["%s (%s), %d rounds" % (label, shown, rounds),
             "| configuration | %s | vs %s (95%% interval) | CPU us/op | peak OS threads "
             "| peak carrier+reaper threads | peak RSS MiB |" % (case["unit"], names[0]),
             "|---|---|---|---|---|---|---|"]
    for n in names:
        c = case["configs"][n]
        r = c["ratio"]
        rss = c["peaks"].get("RSS KiB")
        lines.append("| %s | %s | %.3f (%.3f-%.3f) | %s | %s | %s | %s |" % (
            n, num(c["mean"]), r[0], r[1], r[2],
            "%.1f" % c["cpu_us"] if c["cpu_us"] is not None else "-",
            c["peaks"].get("OS threads", "-"), c["peaks"].get("carrier+reaper threads", "-"),
            "%.0f" % (rss / 1024) if rss else "-"))
    return "\n".join(lines)


if __name__ == "__main__":
    main()

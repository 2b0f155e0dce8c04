#!/usr/bin/env python3
"""Runs the same JMH benchmarks on the baseline and the patched JDK and compares them.

Forks alternate between the two JDKs, each a separate JMH invocation with -f 1, so that drift
on the machine hits both sides alike, and the order within a pair alternates too (baseline
fork 1, patched fork 1, patched fork 2, baseline fork 2, ...), so that whatever the first run of
a pair leaves to the second (the device's cache, the order of a sample's tail) hits both.
With --per-case, every combination of the "-p name=a,b" options runs as its own pair of JMH
invocations, so that the two forks of a pair measure the same case back to back and no case
inherits the state (dirty pages, a grown carrier pool) another case left in the same VM.
The raw JSON of every run is kept; the merged result is printed as one table per benchmark
(baseline score, patched score, speedup, errors) and drawn as a PNG chart of the speedups.
"""

import argparse
import hashlib
import itertools
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time

# Two-sided 99.9% Student t quantiles (JMH reports the same interval), by degrees of freedom.
T999 = {1: 636.62, 2: 31.60, 3: 12.92, 4: 8.61, 5: 6.87, 6: 5.96, 7: 5.41, 8: 5.04, 9: 4.78,
        10: 4.59, 12: 4.32, 15: 4.07, 20: 3.85, 25: 3.73, 30: 3.65, 40: 3.55, 60: 3.46,
        120: 3.37}


def quantile(table, df, normal):
    """The quantile for the largest tabulated df not above df (normal when there is none)."""
    best = None
    for k in sorted(table):
        if k <= df:
            best = table[k]
    return best if best is not None else normal


def t999(df):
    return quantile(T999, df, 3.29)


# Two-sided 95% Student t quantiles, by degrees of freedom.
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
       10: 2.23, 12: 2.18, 15: 2.13, 20: 2.09, 25: 2.06, 30: 2.04, 40: 2.02, 60: 2.00,
       120: 1.98}


def t95(df):
    return quantile(T95, df, 1.96)


def pair_geomean(ratios):
    """Geometric mean of fork-pair speedups and its 95% interval (t quantile, log scale)."""
    logs = [math.log(r) for r in ratios]
    m = statistics.mean(logs)
    half = t95(len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
    return math.exp(m), math.exp(m - half), math.exp(m + half)


def interval(samples):
    if len(samples) < 2:
        return float("nan")
    return t999(len(samples) - 1) * statistics.stdev(samples) / math.sqrt(len(samples))


def key(result):
    params = result.get("params") or {}
    return (result["benchmark"], tuple(sorted(params.items())))


def peaks(logname):
    """Maximum of each "peak <what>: N" line a benchmark prints, per (benchmark, params)."""
    found = {}
    bench, params = None, ()
    with open(logname) as log:
        for line in log:
            if line.startswith("# Benchmark: "):
                bench = line[len("# Benchmark: "):].strip()
            elif line.startswith("# Parameters: ("):
                pairs = line.strip()[len("# Parameters: ("):-1].split(", ")
                params = tuple(sorted(tuple(p.split(" = ", 1)) for p in pairs))
            elif bench:
                # JMH prints "Iteration   1: " before what the benchmark prints
                m = re.search(r"peak ([^:]+): (\d+)", line)
                if not m:
                    continue
                what, n = m.group(1), int(m.group(2))
                d = found.setdefault((bench, params), {})
                d[what] = max(d.get(what, n), n)
    return found


def cases(jmh_opts):
    """One JMH option list per combination of the values of the "-p name=a,b" options."""
    rest, params = [], []
    i = 0
    while i < len(jmh_opts):
        if jmh_opts[i] == "-p" and i + 1 < len(jmh_opts) and "=" in jmh_opts[i + 1]:
            name, vals = jmh_opts[i + 1].split("=", 1)
            params.append([(name, v) for v in vals.split(",")])
            i += 2
        else:
            rest.append(jmh_opts[i])
            i += 1
    return [rest + [t for name, v in combo for t in ("-p", "%s=%s" % (name, v))]
            for combo in itertools.product(*params)]


def run(java, jar, bench, jdk, fork, out, jmh_opts, case=None):
    tag = "%s-fork%d" % (jdk[0], fork) + ("-case%d" % case if case is not None else "")
    path = os.path.join(out, tag + ".json")
    cmd = [java, "-jar", jar, bench, "-f", "1", "-jvm", os.path.join(jdk[1], "bin", "java"),
           "-rf", "json", "-rff", path] + jmh_opts
    print("## %s fork %d: %s" % (jdk[0], fork, " ".join(cmd)), flush=True)
    logname = os.path.join(out, tag + ".log")
    while True:
        with open(logname, "w") as log:
            rc = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT)
        with open(logname) as log:
            if rc == 0 or "Unable to acquire the JMH lock" not in log.read():
                break
        # another benchmark run holds the machine: wait for it rather than measure beside it
        print("   waiting for another JMH run to finish", flush=True)
        time.sleep(15)
    if rc != 0:
        sys.exit("JMH failed on %s (fork %d): see %s" % (jdk[0], fork, logname))
    with open(path) as f:
        return json.load(f), peaks(logname)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--patched", required=True)
    ap.add_argument("--jar", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--bench", default="")
    ap.add_argument("--forks", type=int, default=2)
    ap.add_argument("--jmh", default="")
    ap.add_argument("--per-case", action="store_true",
                    help="a pair of JMH invocations per combination of -p values")
    ap.add_argument("--host-java",
                    help="java that runs the JMH driver (default: the fork's own JDK's)")
    ap.add_argument("--replot", help="redraw DIR/speedup.png from DIR/summary.json and stop")
    a = ap.parse_args()
    if a.replot:
        with open(os.path.join(a.replot, "summary.json")) as f:
            summary = json.load(f)
        chart(summary["rows"], os.path.join(a.replot, "speedup.png"), summary["bench"])
        return
    if not a.bench:
        sys.exit("make compare needs BENCH=<regex> (e.g. BENCH=ChannelInputStreamSkip)")

    # one directory per benchmark selection, so that runs of different benchmarks are all kept
    name = a.bench + ("_" + a.jmh if a.jmh else "") + ("_per-case" if a.per_case else "")
    safe = "".join(c if c.isalnum() or c in "._-=," else "_" for c in name)
    if len(safe) > 120:
        # a shortened name ends with a digest of the whole, so that two selections that differ
        # only past the cut (-jvmArgsAppend ... at the end) do not share a directory
        safe = safe[:111] + "_" + hashlib.sha256(name.encode()).hexdigest()[:8]
    a.out = os.path.join(a.out, safe)
    os.makedirs(a.out, exist_ok=True)
    jdks = [("baseline", os.path.realpath(a.baseline)), ("patched", os.path.realpath(a.patched))]
    raw = {"baseline": {}, "patched": {}}
    peak = {"baseline": {}, "patched": {}}
    perfork = {"baseline": {}, "patched": {}}   # mean score of each fork, in fork order
    pct = {"baseline": {}, "patched": {}}       # SampleTime percentiles of each fork
    meta = {}
    runs = list(enumerate(cases(a.jmh.split()))) if a.per_case else [(None, a.jmh.split())]
    for fork, (case, opts) in itertools.product(range(1, a.forks + 1), runs):
        for jdk in (jdks if fork % 2 == 1 else jdks[::-1]):
            # JMH gives a fork the driver's own JVM options, so each JDK's forks are driven by
            # that JDK's java: a wrapper java's -D does not reach the other side's forks
            host = a.host_java or os.path.join(jdk[1], "bin", "java")
            results, found = run(host, a.jar, a.bench, jdk, fork, a.out, opts, case)
            for k, d in found.items():
                mine = peak[jdk[0]].setdefault(k, {})
                for what, n in d.items():
                    mine[what] = max(mine.get(what, n), n)
            for r in results:
                k = key(r)
                pm = r["primaryMetric"]
                meta[k] = (r["mode"], pm["scoreUnit"])
                # rawData: one list of iteration scores per fork (SampleTime has
                # histograms instead: the fork's score stands for it)
                for forkdata in pm.get("rawData") or [[pm["score"]]]:
                    raw[jdk[0]].setdefault(k, []).extend(forkdata)
                    perfork[jdk[0]].setdefault(k, []).append(statistics.mean(forkdata))
                if pm.get("scorePercentiles") and r["mode"] == "sample":
                    pct[jdk[0]].setdefault(k, []).append(pm["scorePercentiles"])
                for name, sm in (r.get("secondaryMetrics") or {}).items():
                    sk = (k[0] + ":" + name, k[1])
                    meta.setdefault(sk, (r["mode"], sm["scoreUnit"]))
                    for forkdata in sm["rawData"]:
                        raw[jdk[0]].setdefault(sk, []).extend(forkdata)

    rows = []
    for k in sorted(meta):
        b = raw["baseline"].get(k)
        p = raw["patched"].get(k)
        if not b or not p:
            continue
        mode, unit = meta[k]
        bm, pmn = statistics.mean(b), statistics.mean(p)
        if mode == "thrpt":
            speedup = pmn / bm if bm else float("nan")
        else:
            speedup = bm / pmn if pmn else float("nan")
        rows.append((k, mode, unit, bm, interval(b), pmn, interval(p), speedup))

    summary = {"bench": a.bench, "forks": a.forks, "jmh": a.jmh, "rows": []}
    table = []

    def emit(line):
        print(line)
        table.append(line)

    # parameters that have one value in every row are left out of the labels
    values = {}
    for row in rows:
        for pk, pv in row[0][1]:
            values.setdefault(pk, set()).add(pv)
    varying = {pk for pk, vs in values.items() if len(vs) > 1}

    current = None
    for k, mode, unit, bm, be, pmn, pe, sp in rows:
        cls = k[0].split(":")[0].rsplit(".", 1)[0]
        if cls != current:
            current = cls
            emit("\n%s (%s; speedup > 1 means patched is better)" % (cls, "forks " + str(a.forks)))
            emit("%-46s %14s %10s %14s %10s %8s  %s" % ("benchmark (params)", "baseline", "+-",
                                                           "patched", "+-", "speedup", "unit"))
        label = k[0][len(cls) + 1:]
        shown = [kv for kv in k[1] if kv[0] in varying]
        if shown:
            label += " (" + ", ".join("%s=%s" % kv for kv in shown) + ")"
        emit("%-46s %14.3f %10.3f %14.3f %10.3f %7.2fx  %s %s" % (label, bm, be, pmn, pe, sp,
                                                                  unit, mode))
        row = {"benchmark": k[0], "params": dict(k[1]), "mode": mode,
               "unit": unit, "baseline": bm, "baseline_error": be,
               "patched": pmn, "patched_error": pe, "speedup": sp}
        # fork i of each JDK ran back to back: their ratios show the spread between pairs
        fb, fp = perfork["baseline"].get(k, []), perfork["patched"].get(k, [])
        if len(fb) > 1 and len(fb) == len(fp):
            ratios = [(p / b if mode == "thrpt" else b / p) if b and p else float("nan")
                      for b, p in zip(fb, fp)]
            emit("%-46s %s" % ("  speedup per fork pair", " ".join("%.2f" % r for r in ratios)))
            row["pair_speedups"] = ratios
            if all(r > 0 for r in ratios):
                g = pair_geomean(ratios)
                emit("%-46s %.2f (95%%: %.2f to %.2f)" % (("  geometric mean of the pairs",) + g))
                row["pair_geomean"] = list(g)
                if len(ratios) >= 4:
                    # odd pairs ran the baseline first, even ones the patched JDK: a gap
                    # between the two says that a fork's figure depends on what ran before it
                    first = (pair_geomean(ratios[0::2])[0], pair_geomean(ratios[1::2])[0])
                    emit("%-46s %.2f / %.2f" % (("  pairs run baseline / patched first",) + first))
                    row["pair_geomean_by_order"] = list(first)
        for q in ("50.0", "90.0", "99.0", "99.9"):
            # SampleTime: each percentile, averaged over the forks
            qb = [d[q] for d in pct["baseline"].get(k, []) if q in d]
            qp = [d[q] for d in pct["patched"].get(k, []) if q in d]
            if qb and qp:
                emit("%-46s %14.3f %10s %14.3f" % ("  p" + q.rstrip("0").rstrip("."),
                                                   statistics.mean(qb), "",
                                                   statistics.mean(qp)))
                row.setdefault("percentiles", {})[q] = [statistics.mean(qb), statistics.mean(qp)]
        bp, pp = peak["baseline"].get(k), peak["patched"].get(k)
        if bp or pp:
            # the benchmark's own maxima over all iterations and forks
            for what in sorted(set(bp or {}) | set(pp or {})):
                emit("%-46s %14s %10s %14s" % ("  peak " + what, (bp or {}).get(what, "-"), "",
                                               (pp or {}).get(what, "-")))
            row["peaks"] = {"baseline": bp, "patched": pp}
        summary["rows"].append(row)
    with open(os.path.join(a.out, "table.txt"), "w") as f:
        f.write("\n".join(table).lstrip("\n") + "\n")
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    chart(summary["rows"], os.path.join(a.out, "speedup.png"), a.bench)


def chart(rows, png, title):
    """Absolute values with their errors (left) beside the speedups (right), one row per case."""
    rows = [r for r in rows if ":" not in r["benchmark"]]
    if not rows:
        return
    varying = {k for k in {k for r in rows for k in r["params"]}
               if len({r["params"].get(k) for r in rows}) > 1}
    units = sorted({r["unit"] for r in rows})
    dat = png[:-4] + ".dat"
    with open(dat, "w") as f:
        for i, r in enumerate(rows):
            label = r["benchmark"].rsplit(".", 1)[1]
            shown = ["%s=%s" % (k, v) for k, v in sorted(r["params"].items()) if k in varying]
            if shown:
                label += " " + ",".join(shown)
            sp = r["speedup"]
            lo, hi = (r["pair_geomean"][1], r["pair_geomean"][2]) if "pair_geomean" in r else (sp, sp)
            f.write('%d "%s" %f %f %f %f %f %f %f\n' % (
                i, label.replace('"', "'"), sp, lo, hi, r["baseline"], r["baseline_error"],
                r["patched"], r["patched_error"]))
    height = max(320, 30 * len(rows) + 140)
    script = """
set terminal png size 1400,%(h)d
set output '%(png)s'
set multiplot layout 1,2 title 'nio-uring vs baseline: %(title)s'
set style fill solid 0.6
set yrange [-1:%(n)d]
set ytics nomirror
set grid x
set xrange [0:*]
set key top right
set title 'absolute: mean and its 99.9%% error'
set xlabel '%(unit)s'
plot '%(dat)s' using 6:($1+0.2):(0):6:($1):($1+0.4):ytic(2) with boxxyerrorbars title 'baseline', \\
     '' using 6:($1+0.2):7 with xerrorbars lc rgb 'black' notitle, \\
     '' using 8:($1-0.2):(0):8:($1-0.4):($1) with boxxyerrorbars title 'patched', \\
     '' using 8:($1-0.2):9 with xerrorbars lc rgb 'black' notitle
set title 'speedup (> 1: patched is better); bar: 95%% interval of the fork pairs'
set xlabel 'patched / baseline (throughput), baseline / patched (time)'
set ytics format ''
unset key
set arrow from 1, graph 0 to 1, graph 1 nohead dt 2
plot '%(dat)s' using 3:1:(0):3:($1-0.35):($1+0.35) with boxxyerrorbars, \\
     '' using 3:1:4:5 with xerrorbars lc rgb 'black'
unset multiplot
""" % {"h": height, "png": png, "title": title.replace("'", ""), "n": len(rows), "dat": dat,
       "unit": " / ".join(units)}
    try:
        subprocess.run(["gnuplot"], input=script.encode(), check=True)
        print("\nchart: %s" % png)
    except (OSError, subprocess.CalledProcessError) as e:
        print("\nno chart (gnuplot: %s)" % e)


if __name__ == "__main__":
    main()

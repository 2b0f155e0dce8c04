#!/usr/bin/env python3
"""The read matrix: each cell run in rounds on the baseline, the baseline again (the A/A row),
the baseline with 256 carriers, and the patched JDK in auto, compensate and always
(controls.py), then one table of every cell against the baseline, with the guard's verdicts:

  - no cell of auto whose 95% interval lies wholly below --floor (0.95) of the baseline;
  - cold reads at 256 threads and more: auto at least --depth-share (0.95) of the best of
    always, compensate and the baseline with 256 carriers, with at most 8 carrier and reaper
    threads, and no more CPU per read than that best control (within the A/A row's spread).

Cells: cold 4 KiB random reads of a 2 GiB file (V1 to V1024), hot (V1, V4, V256), O_DIRECT
(V1, V256), Files.readAllBytes of cold 16 KiB files (V1, V256), and a search engine's reads
(op=search: a term's entry, its postings, stored documents of 1-16 KiB into heap buffers) with
the index hot and evicted every 200 ms (V4, V256). Then skip end to end (SkipEndToEnd: a
producer writes records while the consumer skips), the patched JDK against the baseline and
the A/A row, with the same floor. --cells narrows them (comma-separated
names as printed); --rounds-low is for V1 and V4, where differences are small. Writes
OUT/matrix.md, OUT/matrix.json and OUT/reads.png (reads/s and CPU per read of the cold cells
against the number of threads). Exits 1 if a verdict fails.

--device names the device the reads go to: virtio (the default: the file in /var/tmp),
ramdisk (a 1 GiB file on the RAM-backed loop device of make ramdisk, the cold cells' file
evicted every 100 ms during each run so that the reads stay cold) or throttled (the virtio disk,
the run inside a cgroup whose reads the block I/O controller caps: make/scripts/throttle.sh).
The cold cells also run fio on the same file: io_uring with one job per CPU keeping 64 reads
outstanding each (fio-uring), and psync with 256 jobs (fio-psync).
"""

import argparse
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import controls  # noqa: E402

# name, benchmark, JMH parameters
CELLS = [
    ("cold V1", "FileChannelUring.ops", "-p threads=V1 -p cache=cold"),
    ("cold V4", "FileChannelUring.ops", "-p threads=V4 -p cache=cold"),
    ("cold V16", "FileChannelUring.ops", "-p threads=V16 -p cache=cold"),
    ("cold V64", "FileChannelUring.ops", "-p threads=V64 -p cache=cold"),
    ("cold V256", "FileChannelUring.ops", "-p threads=V256 -p cache=cold"),
    ("cold V1024", "FileChannelUring.ops", "-p threads=V1024 -p cache=cold"),
    ("hot V1", "FileChannelUring.ops", "-p threads=V1 -p cache=hot"),
    ("hot V4", "FileChannelUring.ops", "-p threads=V4 -p cache=hot"),
    ("hot V256", "FileChannelUring.ops", "-p threads=V256 -p cache=hot"),
    ("O_DIRECT V1", "FileChannelUring.ops", "-p threads=V1 -p cache=cold -p direct=true"),
    ("O_DIRECT V256", "FileChannelUring.ops", "-p threads=V256 -p cache=cold -p direct=true"),
    ("readAllBytes 16 KiB V1", "FilesReadUring.readAllBytes",
     "-p threads=V1 -p cache=cold -p fileSize=16384"),
    ("readAllBytes 16 KiB V256", "FilesReadUring.readAllBytes",
     "-p threads=V256 -p cache=cold -p fileSize=16384"),
    ("search hot V4", "FileChannelUring.ops", "-p threads=V4 -p cache=hot -p op=search"),
    ("search hot V256", "FileChannelUring.ops", "-p threads=V256 -p cache=hot -p op=search"),
    ("search evicted V4", "FileChannelUring.ops",
     "-p threads=V4 -p cache=evict200 -p op=search"),
    ("search evicted V256", "FileChannelUring.ops",
     "-p threads=V256 -p cache=evict200 -p op=search"),
]
CONTROLS = ["always", "compensate", "baseline-256"]
FIO_CONFIGS = ["fio-uring=fio:jobs=%d:qd=64" % os.cpu_count(), "fio-psync=fio:engine=psync:jobs=256"]
RAMDISK_FILE = os.path.join(os.path.dirname(os.path.dirname(HERE)), "build", "ramdisk",
                            "nio-uring-bench.dat")

# Skip end to end (SkipEndToEnd): a producer writes records while the consumer skips to end of
# stream; the patched JDK against the baseline and the A/A row. Score: MiB/s.
SKIP_CELLS = [("skip %s %s %s" % (src, r, consumer), "SkipEndToEnd.skip",
               "-p source=%s -p record=%s -p consumer=%s" % (src, r, consumer))
              for consumer in ("platform", "virtual")
              for src in ("process", "fifo", "pipe", "tcp", "unix")
              for r in ("512", "4096", "10240", "65536", "1048576")]
SKIP_CONFIGS = "baseline=baseline,baseline-AA=baseline,patched=patched"


def threads_of(name):
    return int(name.rsplit("V", 1)[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--patched", required=True)
    ap.add_argument("--jar", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cells", default="", help="comma-separated cell names (default: all)")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--rounds-low", type=int, default=8, help="rounds of the V1 and V4 cells")
    ap.add_argument("--jmh", default="-wi 1 -w 1 -i 3 -r 1")
    ap.add_argument("--skip-jmh", default="-wi 2 -w 1 -i 3 -r 1")
    ap.add_argument("--skip-configs", default=SKIP_CONFIGS,
                    help="configurations of the skip cells (controls.py --configs)")
    ap.add_argument("--floor", type=float, default=0.95)
    ap.add_argument("--depth-share", type=float, default=0.95)
    ap.add_argument("--device", default="virtio", choices=["virtio", "ramdisk", "throttled"])
    ap.add_argument("--report", action="store_true",
                    help="run nothing: the table and chart of the cells in OUT/matrix.json")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    wanted = [c.strip() for c in a.cells.split(",") if c.strip()]
    cells = [c for c in CELLS + SKIP_CELLS if not wanted or c[0] in wanted]

    results = {}
    path = os.path.join(a.out, "matrix.json")
    if os.path.exists(path):
        with open(path) as f:
            results = json.load(f)   # cells of an earlier run of the same OUT are kept
    for name, bench, params in ([] if a.report else cells):
        skip = name.startswith("skip")
        rounds = a.rounds_low if not skip and threads_of(name) <= 4 else a.rounds
        out = os.path.join(a.out, name.replace(" ", "-"))
        if not skip and a.device == "ramdisk":
            params += " -p file=%s -p fileSize=1073741824" % RAMDISK_FILE
            params = params.replace("cache=cold", "cache=evict100")
        cmd = [sys.executable, os.path.join(HERE, "controls.py"), "--baseline", a.baseline,
               "--patched", a.patched, "--jar", a.jar, "--out", out,
               "--bench", "\\." + bench.replace(".", "\\.") + "$",
               "--rounds", str(rounds), "--jmh", (a.skip_jmh if skip else a.jmh) + " " + params]
        if skip:
            cmd += ["--configs", a.skip_configs]
        elif name.startswith("cold") and "direct=true" not in params:
            cmd += ["--configs", ",".join(controls.DEFAULT_CONFIGS + FIO_CONFIGS)]
        print("# " + " ".join(cmd), flush=True)
        subprocess.run(cmd, check=True)
        with open(os.path.join(out, "summary.json")) as f:
            results[name] = json.load(f)["cases"][0]
        with open(path, "w") as f:
            json.dump(results, f, indent=1)

    lines, failures = table(results, a)
    with open(os.path.join(a.out, "matrix.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    chart(results, os.path.join(a.out, "reads.png"))
    skip_chart(results, os.path.join(a.out, "skip.png"))
    for line in failures:
        print("FAIL: " + line)
    print("perf-matrix: %d cells, %d verdicts failed; table: %s"
          % (len(results), len(failures), os.path.join(a.out, "matrix.md")))
    sys.exit(1 if failures else 0)


def fmt(c):
    r = c["ratio"]
    return "%.2f (%.2f-%.2f)" % (r[0], r[1], r[2])


def table(results, a):
    lines = ["| cell | baseline ops/s | A/A | auto | always | compensate | baseline, 256 "
             "carriers | CPU us/op: baseline, auto, best control | carrier+reaper threads: "
             "auto, best control | fio io_uring, psync (ops/s, CPU us/op) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    failures = []
    order = [c[0] for c in CELLS + SKIP_CELLS]
    skips = []
    for name in sorted(results, key=lambda n: order.index(n) if n in order else 99):
        cs = results[name]["configs"]
        if name.startswith("skip"):
            skips.append(name)
            continue
        best = max(CONTROLS, key=lambda k: cs[k]["mean"])
        cpu = lambda k: ("%.1f" % cs[k]["cpu_us"]) if cs[k].get("cpu_us") else "-"
        thr = lambda k: str(cs[k]["peaks"].get("carrier+reaper threads", "-"))
        fio = ", ".join("%s (%s)" % (controls.num(cs[k]["mean"]), cpu(k))
                        for k in ("fio-uring", "fio-psync") if k in cs) or "-"
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s, %s, %s (%s) | %s, %s | %s |" % (
            name, controls.num(cs["baseline"]["mean"]), fmt(cs["baseline-AA"]), fmt(cs["auto"]),
            fmt(cs["always"]), fmt(cs["compensate"]), fmt(cs["baseline-256"]),
            cpu("baseline"), cpu("auto"), cpu(best), best, thr("auto"), thr(best), fio))
        auto = cs["auto"]
        if auto["ratio"][2] < a.floor:
            failures.append("%s: auto %s of the baseline, wholly below %.2f"
                            % (name, fmt(auto), a.floor))
        if name.startswith("cold") and threads_of(name) >= 256:
            share = auto["mean"] / cs[best]["mean"]
            if share < a.depth_share:
                failures.append("%s: auto %.0f ops/s, %.2f of %s's %.0f"
                                % (name, auto["mean"], share, best, cs[best]["mean"]))
            t = auto["peaks"].get("carrier+reaper threads")
            if t is not None and t > 8:
                failures.append("%s: auto had %d carrier and reaper threads" % (name, t))
            aa = cs["baseline-AA"]["ratio"]
            spread = max(aa[2] - 1, 1 - aa[1], 0.05)
            if (auto.get("cpu_us") and cs[best].get("cpu_us")
                    and auto["cpu_us"] > cs[best]["cpu_us"] * (1 + spread)):
                failures.append("%s: auto %.1f us of CPU a read, %s %.1f"
                                % (name, auto["cpu_us"], best, cs[best]["cpu_us"]))
    if skips:
        lines += ["", "| skip end to end (source, record, consumer) | baseline MiB/s | A/A "
                  "| patched | consumer CPU us/MiB: baseline, patched |", "|---|---|---|---|---|"]
    for name in skips:
        cs = results[name]["configs"]
        cpu = lambda k: ("%.0f" % cs[k]["cpu_us"]) if cs[k].get("cpu_us") else "-"
        lines.append("| %s | %.0f | %s | %s | %s, %s |" % (
            name[len("skip "):], cs["baseline"]["mean"], fmt(cs["baseline-AA"]),
            fmt(cs["patched"]), cpu("baseline"), cpu("patched")))
        if cs["patched"]["ratio"][2] < a.floor:
            failures.append("%s: patched %s of the baseline, wholly below %.2f"
                            % (name, fmt(cs["patched"]), a.floor))
    return lines, failures


def gnuplot(script, png):
    try:
        subprocess.run(["gnuplot"], input=script.encode(), check=True)
        print("chart: " + png)
    except (OSError, subprocess.CalledProcessError) as e:
        print("no chart (gnuplot: %s)" % e)


def chart(results, png):
    """Cold reads/s (log-log, with the rounds' range) and CPU per read against threads."""
    cold = sorted((threads_of(n), n) for n in results if n.startswith("cold"))
    if not cold:
        return
    names = ["baseline", "baseline-256", "compensate", "always", "auto"]
    dat = png[:-4] + ".dat"
    with open(dat, "w") as f:
        for t, n in cold:
            cs = results[n]["configs"]
            row = [str(t)]
            for k in names:
                s = cs[k]["scores"]
                row += ["%.1f" % cs[k]["mean"], "%.1f" % min(s), "%.1f" % max(s),
                        "%.2f" % (cs[k].get("cpu_us") or math.nan)]
            f.write(" ".join(row) + "\n")
    plots, cpus = [], []
    for i, k in enumerate(names):
        col = 2 + 4 * i
        plots.append("'%s' using ($1*%f):%d:%d:%d with yerrorlines title '%s'"
                     % (dat, 1 + 0.04 * (i - 2), col, col + 1, col + 2, k))
        cpus.append("'%s' using 1:%d with linespoints title '%s'" % (dat, col + 3, k))
    script = """
set terminal png size 1400,1000
set output '%s'
set multiplot layout 1,2 title 'Cold random 4 KiB reads of a 2 GiB file by virtual threads on 2 carriers'
set logscale x 2
set logscale y
set xlabel 'virtual threads'
set ylabel 'reads/s (mean; bar: lowest and highest round)'
set key top left
set grid
plot %s
unset logscale y
set ylabel 'process CPU per read (us)'
set yrange [0:*]
plot %s
unset multiplot
""" % (png, ", ".join(plots), ", ".join(cpus))
    gnuplot(script, png)


def skip_chart(results, png):
    """Skip end to end: throughput and consumer CPU per MiB of the patched JDK and of the A/A
    row, as ratios to the baseline with their 95% intervals, a cluster per cell."""
    cells = [c[0] for c in SKIP_CELLS if c[0] in results]
    if not cells:
        return
    dat = png[:-4] + ".dat"
    with open(dat, "w") as f:
        for i, n in enumerate(cells):
            cs = results[n]["configs"]
            row = [str(i), '"%s"' % n[len("skip "):].replace(" platform", "").replace(
                " virtual", " (virtual)")]
            for k in ("baseline-AA", "patched"):
                row += ["%.3f" % r for r in cs[k]["ratio"]]
            for k in ("baseline-AA", "patched"):
                b, c = cs["baseline"].get("cpu_us"), cs[k].get("cpu_us")
                row.append("%.3f" % (c / b) if b and c else "nan")
            f.write(" ".join(row) + "\n")
    script = """
set terminal png size 1400,1000
set output '%s'
set multiplot layout 2,1 title 'Skip end to end: a producer writes while the consumer skips (ratio to the baseline)'
set xtics rotate by -35 scale 0
set xrange [-0.6:%f]
set grid ytics
set key top left
set ylabel 'MiB/s skipped (geometric mean of rounds, 95%% interval)'
plot 1 with lines lc 'black' dt 2 notitle, \\
     '%s' using ($1-0.12):3:4:5:xtic(2) with yerrorbars pt 7 title 'A/A (baseline again)', \\
     '' using ($1+0.12):6:7:8 with yerrorbars pt 5 title 'patched'
set ylabel 'consumer CPU per MiB'
set yrange [0:*]
plot 1 with lines lc 'black' dt 2 notitle, \\
     '%s' using ($1-0.12):9:xtic(2) with points pt 7 title 'A/A (baseline again)', \\
     '' using ($1+0.12):10 with points pt 5 title 'patched'
unset multiplot
""" % (png, len(cells) - 0.4, dat, dat)
    gnuplot(script, png)


if __name__ == "__main__":
    main()

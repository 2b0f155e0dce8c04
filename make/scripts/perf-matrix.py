#!/usr/bin/env python3
"""The "never slower" guard: FileChannelUring reads on the baseline and the patched JDK over the
matrix of thread counts, cache states, block sizes and O_DIRECT, a pair of forks per case and
per fork number (compare.py --per-case). Writes OUT/matrix.md, one row per case with the
geometric mean of the pair speedups and its 95% interval, and prints every row whose mean is
below the bar (and every row whose interval reaches below it, as unresolved). Exits 1 if a row
is below the bar.

O_DIRECT reads do not go through the page cache, so they run cold only. With --files, relative
reads are guarded too: FilesReadUring.readAllBytes (Files.readAllBytes of many files of each
given size) over the same thread counts and cache states; --blocks none leaves out the
positional reads.
"""

import argparse
import json
import os
import subprocess
import sys


def compare(a, jmh, tag, bench="FileChannelUring.ops"):
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(a.out, tag)
    cmd = [sys.executable, os.path.join(here, "compare.py"), "--baseline", a.baseline,
           "--patched", a.patched, "--jar", a.jar, "--out", out,
           "--bench", bench, "--forks", str(a.forks), "--jmh", jmh,
           "--per-case"]
    print("# " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)
    # compare.py keeps the run in the one subdirectory of out it made for the selection
    dirs = [os.path.join(out, d) for d in os.listdir(out)]
    newest = max(dirs, key=lambda d: os.path.getmtime(os.path.join(d, "summary.json")))
    with open(os.path.join(newest, "summary.json")) as f:
        return json.load(f)["rows"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--patched", required=True)
    ap.add_argument("--jar", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--threads", default="P1,P2,V1,V2,V4,V16,V64,V256,V1024")
    ap.add_argument("--caches", default="cold,half,hot")
    ap.add_argument("--blocks", default="4096,65536")
    ap.add_argument("--direct", default="false,true")
    ap.add_argument("--files", default="",
                    help="file sizes for FilesReadUring.readAllBytes (relative reads)")
    ap.add_argument("--forks", type=int, default=8)
    ap.add_argument("--bar", type=float, default=0.98)
    ap.add_argument("--jmh", default="-wi 1 -w 1 -i 3 -r 1",
                    help="JMH options for every case (iterations and their length)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)

    common = "%s -p threads=%s -p blockSize=%s" % (a.jmh, a.threads, a.blocks)
    rows = []
    directs = a.direct.split(",") if a.blocks != "none" else []
    if "false" in directs:
        rows += compare(a, common + " -p direct=false -p cache=" + a.caches, "buffered")
    if "true" in directs:
        rows += compare(a, common + " -p direct=true -p cache=cold", "direct")
    if a.files:
        rows += [dict(r, files=True,
                      params=dict(r["params"], direct="false", blockSize=r["params"]["fileSize"]))
                 for r in compare(a, "%s -p threads=%s -p fileSize=%s -p cache=%s"
                                  % (a.jmh, a.threads, a.files, a.caches),
                                  "files", "FilesReadUring.readAllBytes")
                 if r["benchmark"].endswith(".readAllBytes")]

    order = {t: i for i, t in enumerate(a.threads.split(","))}
    def sortkey(r):
        p = r["params"]
        return (r.get("files", False), p["direct"], int(p["blockSize"]), p["cache"],
                order.get(p["threads"], 99))
    lines = ["| threads | cache | block | O_DIRECT | baseline ops/s | patched ops/s | "
             "speedup (pairs: geomean, 95% interval) | pairs | verdict |",
             "|---|---|---|---|---|---|---|---|---|"]
    below, unresolved = [], []
    for r in sorted((r for r in rows if r["benchmark"].endswith((".ops", ".readAllBytes"))),
                    key=sortkey):
        p = r["params"]
        g = r.get("pair_geomean") or [r["speedup"], float("nan"), float("nan")]
        n = len(r.get("pair_speedups") or [])
        if g[0] < a.bar:
            verdict = "BELOW %.2f" % a.bar
            below.append(r)
        elif not g[1] >= a.bar:
            verdict = "unresolved"
            unresolved.append(r)
        else:
            verdict = "ok"
        kib = int(p["blockSize"]) // 1024
        size = ("readAllBytes, %d KiB files" % kib) if r.get("files") else ("%d KiB" % kib)
        line = "| %s | %s | %s | %s | %.0f | %.0f | %.2fx (%.2f-%.2f) | %d | %s |" % (
            p["threads"], "-" if p["direct"] == "true" else p["cache"],
            size, "yes" if p["direct"] == "true" else "no",
            r["baseline"], r["patched"], g[0], g[1], g[2], n, verdict)
        lines.append(line)
        r["line"] = line
    with open(os.path.join(a.out, "matrix.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print("\nperf-matrix: %d cases, %d below %.2fx, %d unresolved (interval reaches below)"
          % (len(lines) - 2, len(below), a.bar, len(unresolved)))
    for r in below:
        print("BELOW: " + r["line"])
    for r in unresolved:
        print("UNRESOLVED: " + r["line"])
    print("table: " + os.path.join(a.out, "matrix.md"))
    sys.exit(1 if below else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
#
# Splits the rounds of make/experiments/rotate.py by measured iteration: for
# two JDKs of one or more rotate.py output directories, the geometric mean of
# the per-round ratios of each iteration (the first, the second, ...) and of
# the forks' scores, with 95% intervals, the rounds of every directory pooled.
# A ratio that is low in the first iteration alone is the JIT's warm-up, not
# the code that runs once it is compiled.
#
#   python3 make/experiments/iterations.py DIR:A:B [DIR:A:B ...]
#
# A and B name JDKs of that directory's rounds (DIR/A-forkN.json); the ratio is
# A against B. Different directories may name the same JDK differently, e.g.
# build/s40/hot-V2:auto:base build/s40/ab-V2:old:base. A round whose fork of
# A or of B left no result (a run stopped midway) is left out.

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import compare  # noqa: E402


def scores(path):
    """The fork's score and its iterations' scores, or None without a result."""
    try:
        with open(path) as f:
            metric = json.load(f)[0]["primaryMetric"]
        return metric["score"], metric["rawData"][0]
    except (OSError, ValueError, IndexError, KeyError):
        return None


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: iterations.py DIR:A:B [DIR:A:B ...]")
    whole = []
    per_iteration = {}
    for spec in sys.argv[1:]:
        d, a, b = spec.rsplit(":", 2)
        n = 1
        while os.path.exists(os.path.join(d, "%s-fork%d.json" % (a, n))):
            sa = scores(os.path.join(d, "%s-fork%d.json" % (a, n)))
            sb = scores(os.path.join(d, "%s-fork%d.json" % (b, n)))
            n += 1
            if sa is None or sb is None:
                continue
            whole.append(sa[0] / sb[0])
            for i, (x, y) in enumerate(zip(sa[1], sb[1])):
                per_iteration.setdefault(i, []).append(x / y)
    if len(whole) < 2:
        sys.exit("fewer than two rounds")
    for i in sorted(per_iteration):
        g, lo, hi = compare.pair_geomean(per_iteration[i])
        print("iteration %d: %.3f (95%%: %.3f to %.3f), %d rounds"
              % (i + 1, g, lo, hi, len(per_iteration[i])))
    g, lo, hi = compare.pair_geomean(whole)
    print("forks:       %.3f (95%%: %.3f to %.3f), %d rounds" % (g, lo, hi, len(whole)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
#
# Runs one JMH case on several JDKs in rounds, one fork per JDK per round, the
# JDKs' order rotating from round to round, and prints the geometric mean of
# the per-round ratios of every pair of JDKs with its 95% interval. Beside a
# two-JDK compare, each JDK then has a control measured in the same rounds:
# for example the baseline, the patched JDK and the patched JDK in `never`.
#
#   python3 make/experiments/rotate.py --jar build/benchmarks.jar --out DIR \
#       --rounds 48 --bench FileChannelUring.ops \
#       --jdk base=build/baseline-jdk --jdk auto=build/jdk --jdk never=NEVER_WRAPPER \
#       --jmh "-wi 1 -w 1 -i 3 -r 1 -p threads=V4 -p cache=cold -p blockSize=4096 -p direct=false"
#
# A JDK is a directory with bin/java (a wrapper script that adds options will do).
# JMH gives a fork the driving JVM's own options, so each JDK's forks are driven
# by that JDK's java, as in compare.py: a wrapper's -D must not reach the other
# JDKs' forks. Wrappers that add an option which may not be given twice (such
# as --patch-module) need --host-java, a java without added options.

import argparse
import itertools
import json
import os
import random
import shlex
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import compare  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jar", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--rounds", type=int, default=16)
    ap.add_argument("--jdk", action="append", required=True, help="name=directory")
    ap.add_argument("--jmh", default="")
    ap.add_argument("--host-java", help="the java that drives every fork (default: each JDK's own)")
    ap.add_argument("--shuffle", action="store_true",
                    help="a random order every round (seeded), so that no JDK always follows the same one")
    args = ap.parse_args()

    jdks = [tuple(j.split("=", 1)) for j in args.jdk]
    os.makedirs(args.out, exist_ok=True)
    jmh = shlex.split(args.jmh)
    scores = {name: [] for name, _ in jdks}
    rng = random.Random(1)
    for r in range(1, args.rounds + 1):
        if args.shuffle:
            order = rng.sample(jdks, len(jdks))
        else:
            k = (r - 1) % len(jdks)
            order = jdks[k:] + jdks[:k]
        for name, home in order:
            host = args.host_java or os.path.join(home, "bin", "java")
            result, _ = compare.run(host, args.jar, args.bench, (name, home), r, args.out, jmh)
            scores[name].append(result[0]["primaryMetric"]["score"])
    with open(os.path.join(args.out, "scores.json"), "w") as f:
        json.dump(scores, f, indent=1)

    print()
    print("%s, %d rounds: %s" % (args.bench, args.rounds, args.jmh))
    for name, _ in jdks:
        s = scores[name]
        print("  %-10s mean %12.1f  min %12.1f  max %12.1f" % (name, sum(s) / len(s), min(s), max(s)))
    for (a, _), (b, _) in itertools.combinations(jdks, 2):
        ratios = [y / x for x, y in zip(scores[a], scores[b])]
        g, lo, hi = compare.pair_geomean(ratios)
        print("  %s against %s: %.3f (95%%: %.3f to %.3f)" % (b, a, g, lo, hi))


if __name__ == "__main__":
    main()

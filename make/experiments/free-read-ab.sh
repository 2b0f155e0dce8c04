#!/bin/bash
# Diagnostic, not a benchmark: FreeRead.java (threads reading cached 4 KiB blocks without
# stopping) with the patched JDK in MODE (default auto), the patched JDK in never, and the
# baseline, one JVM per run, ROUNDS rounds with the order rotated, then the geometric mean of
# the per-round ratios with its 95% interval (compare.py's). Without JMH's latch, it tells
# the reads apart from the harness.
# Usage: free-read-ab.sh OUTDIR ROUNDS P|V THREADS [SECONDS]   (env: MODE, FILE, JDK, BASELINE_JDK)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$1 rounds=$2 kind=$3 threads=$4 seconds=${5:-5}
mode=${MODE:-auto}
jdk=${JDK:-$root/build/jdk} base=${BASELINE_JDK:-$root/build/baseline-jdk}
file=${FILE:-$out/free-read.dat}
mkdir -p "$out"
if [ ! -f "$file" ]; then
    head -c $((64 << 20)) /dev/urandom > "$file"
fi
cat "$file" > /dev/null      # in the page cache
src=$root/make/experiments/FreeRead.java
log=$out/free-read-$kind$threads-$mode.txt
: > "$log"
run() {
    case $1 in
        mode)  "$jdk/bin/java" -Djdk.nio.file.ioUring="$mode" "$src" "$file" "$kind" "$threads" "$seconds" ;;
        never) "$jdk/bin/java" -Djdk.nio.file.ioUring=never "$src" "$file" "$kind" "$threads" "$seconds" ;;
        base)  "$base/bin/java" "$src" "$file" "$kind" "$threads" "$seconds" ;;
    esac
}
order=(mode never base)
for ((i = 0; i < rounds; i++)); do
    declare -A r=()
    for ((j = 0; j < 3; j++)); do
        c=${order[$(( (i + j) % 3 ))]}
        r[$c]=$(run "$c")
    done
    echo "${r[mode]} ${r[never]} ${r[base]}" | tee -a "$log"
done
python3 - "$log" "$mode" "$root/make/scripts" <<'EOF'
import statistics, sys
sys.path.insert(0, sys.argv[3])
from compare import pair_geomean
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if len(l.split()) == 3]
mode = sys.argv[2]
print("%d rounds; mean reads/s: %s %.0f, never %.0f, baseline %.0f"
      % ((len(rows), mode) + tuple(statistics.mean(r[i] for r in rows) for i in range(3))))
for name, a, b in ((mode + "/baseline", 0, 2), ("never/baseline", 1, 2), (mode + "/never", 0, 1)):
    print("%-16s %.2f (%.2f-%.2f)" % ((name,) + pair_geomean([r[a] / r[b] for r in rows])))
EOF

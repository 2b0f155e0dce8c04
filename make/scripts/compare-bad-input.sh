#!/bin/bash
# Runs the bad-input cases (test/jdk/java/nio/channels/FileChannel/IoUringBadInputCases.java) on
# the baseline JDK and on the patched JDK with jdk.nio.file.ioUring=never, auto and always, each
# on a platform and on a virtual thread, and diffs every output against the baseline's on a
# platform thread. Prints the case count, one line per run, and every differing line; non-zero
# exit if any run differs or fails.
# Usage: compare-bad-input.sh BASELINE_JDK PATCHED_JDK OUTDIR [HUGE]
#   HUGE: all, devices, none or auto (default: all if MemAvailable >= 8 GiB, else none); the huge
#   cases use a 2 GiB direct buffer on /dev/zero and /dev/null and (all) a sparse 3 GiB file in
#   OUTDIR.
set -uo pipefail
. "$(dirname "$0")/common.sh"

# the paths made absolute: the cases run in a directory of their own
baseline=$(realpath -m "$1") patched=$(realpath -m "$2") out=$(realpath -m "$3") huge=${4:-auto}
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$top/test/jdk/java/nio/channels/FileChannel/IoUringBadInputCases.java

for j in "$baseline" "$patched"; do
    [ -x "$j/bin/java" ] || die "no JDK at $j (make baseline / make)"
done
if [ "$huge" = auto ]; then
    avail=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
    if [ "${avail:-0}" -ge $((8 * 1024 * 1024)) ]; then huge=all; else huge=none; fi
fi

rm -rf "$out"
mkdir -p "$out/classes" || die "cannot create $out"
"$baseline/bin/javac" -XDignore.symbol.file -nowarn -d "$out/classes" "$src" 2>"$out/javac.log" \
    || { cat "$out/javac.log"; die "javac failed"; }

runs=("baseline:platform" "baseline:virtual")
for mode in never auto always; do
    for kind in platform virtual; do
        runs+=("$mode:$kind")
    done
done

# one run: JDK, mode (or baseline), thread kind -> $out/<mode>.<kind>.txt
run() {
    local mode=$1 kind=$2 jdk=$patched opts=()
    if [ "$mode" = baseline ]; then
        jdk=$baseline
    else
        opts+=("-Djdk.internal.nio.ioUring.mode=$mode")
    fi
    local work=$out/work.$mode.$kind
    mkdir -p "$work"
    (cd "$work" && "$jdk/bin/java" "${opts[@]}" -Dbadinput.huge=$huge -XX:MaxDirectMemorySize=3g \
         -cp "$out/classes" IoUringBadInputCases "$kind" \
         >"$out/$mode.$kind.txt" 2>"$out/$mode.$kind.err")
    local rc=$?
    rm -rf "$work"
    return $rc
}

note "bad-input cases: baseline $baseline, patched $patched, huge cases: $huge"
status=0
ref=$out/baseline.platform.txt
for r in "${runs[@]}"; do
    mode=${r%%:*} kind=${r#*:}
    if ! run "$mode" "$kind"; then
        echo "$mode/$kind: FAILED (exit code != 0), stderr:"
        sed 's/^/    /' "$out/$mode.$kind.err"
        status=1
        continue
    fi
    total=$(grep -vc '^#' "$out/$mode.$kind.txt")
    if [ "$r" = baseline:platform ]; then
        echo "cases: $total (reference: baseline on a platform thread)"
        continue
    fi
    differing=$(diff <(grep -v '^#' "$ref") <(grep -v '^#' "$out/$mode.$kind.txt") | grep -c '^>')
    if [ "$differing" = 0 ] && [ "$total" = "$(grep -vc '^#' "$ref")" ]; then
        printf '%-10s %-8s %d cases, %d identical\n' "$mode" "$kind" "$total" "$total"
    else
        printf '%-10s %-8s %d cases, %d identical, %d differ:\n' "$mode" "$kind" "$total" \
            $((total - differing)) "$differing"
        diff <(grep -v '^#' "$ref") <(grep -v '^#' "$out/$mode.$kind.txt") \
            | grep '^[<>]' | sed 's/^</    baseline:/; s/^>/    patched: /'
        status=1
    fi
done
if [ $status = 0 ]; then
    note "bad input: patched == baseline in every mode and thread kind"
else
    note "bad input: differences found (outputs in $out)"
fi
exit $status

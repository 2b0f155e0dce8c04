#!/bin/bash
# Runs test/stress/NioUringStress.java with the source launcher (no build step) against a JDK:
# random positional FileChannel reads and writes with per-block checksums, skip on pipes, FIFOs
# and sockets, interrupts and asynchronous closes, on platform and virtual threads.
#   stress.sh stress JDK DURATION MODE [ARGS]   MODE auto|always|never|all (all: one run each)
#   stress.sh leak-check JDK [ARGS]             ~1M ops in `always` mode after a warm-up; checks
#                                               fds, threads and NMT memory return to their level
# ARGS go to the program (--platform=8 --virtual=256 --dir=/var/tmp --file-mib=64 ...).
# Prints each run's SUMMARY (and LEAK-CHECK) line at the end; non-zero exit if any run failed.
set -uo pipefail

what=$1 jdk=$2
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
prog=$top/test/stress/NioUringStress.java
java=$jdk/bin/java
[ -x "$java" ] || { echo "stress.sh: no JDK at $jdk" >&2; exit 2; }

summaries=()
status=0
run() {
    local log
    log=$(mktemp)
    echo "+ $java $*"
    "$java" "$@" 2>&1 | tee "$log"
    local rc=${PIPESTATUS[0]}
    [ "$rc" -eq 0 ] || status=1
    while IFS= read -r line; do summaries+=("$line"); done < <(grep -E '^(SUMMARY|LEAK-CHECK) ' "$log")
    grep -qE '^(SUMMARY|LEAK-CHECK) ' "$log" || summaries+=("(no summary: exit status $rc)")
    rm -f "$log"
}

case $what in
    stress)
        duration=${1:-60s} mode=${2:-auto}
        shift 2
        [ "$mode" = all ] && modes="auto always never" || modes=$mode
        for m in $modes; do
            run -Xmx1g -Djdk.nio.file.ioUring=$m -Djdk.nio.file.ioUring.debug=true \
                "$prog" --duration="$duration" "$@"
        done
        ;;
    leak-check)
        run -Xmx1g -XX:NativeMemoryTracking=summary -Djdk.nio.file.ioUring=always \
            -Djdk.nio.file.ioUring.debug=true "$prog" --leak-check "$@"
        ;;
    *)
        echo "usage: stress.sh stress|leak-check JDK ..." >&2; exit 2 ;;
esac

echo
printf '%s\n' "${summaries[@]}"
exit $status

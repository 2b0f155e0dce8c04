#!/bin/bash
# Runs test/stress/NioUringStress.java with the source launcher (no build step) against a JDK:
# random positional FileChannel reads and writes with per-block checksums, skip on pipes, FIFOs
# and sockets, interrupts and asynchronous closes, on platform and virtual threads.
#   stress.sh stress JDK DURATION MODE [ARGS]   MODE auto|always|never|all (all: one run each)
#   stress.sh leak-check JDK [ARGS]             ~1M ops after a warm-up (mode: $MODE, default
#                                               always); checks fds, threads, NMT memory and
#                                               malloc's memory outside NMT (after
#                                               System.trim_native_heap) return to their level,
#                                               and traces RSS
#   stress.sh selftest JDK DURATION MODE [ARGS] a short run with --inject-corruption: PASS only if
#                                               the run fails (non-zero exit, result=FAIL) and
#                                               reports every kind of injected corruption
# ARGS go to the program (--platform=8 --virtual=256 --dir=/var/tmp --file-mib=64 ...).
# Prints each run's SUMMARY (and LEAK-CHECK, SELFTEST) line at the end; non-zero exit if any run
# failed (for selftest: if the self-test failed).
set -uo pipefail

what=$1 jdk=$2
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
prog=$top/test/stress/NioUringStress.java
java=$jdk/bin/java
[ -x "$java" ] || { echo "stress.sh: no JDK at $jdk" >&2; exit 2; }

summaries=()
status=0
rc=0
run() {
    local log
    log=$(mktemp)
    echo "+ $java $*"
    "$java" "$@" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    [ "$rc" -eq 0 ] || status=1
    while IFS= read -r line; do summaries+=("$line"); done < <(grep -E '^(SUMMARY|LEAK-CHECK|SELFTEST) ' "$log")
    grep -qE '^(SUMMARY|LEAK-CHECK) ' "$log" || summaries+=("(no summary: exit status $rc)")
    rm -f "$log"
}

case $what in
    stress)
        duration=${1:-60s} mode=${2:-auto}
        shift 2
        [ "$mode" = all ] && modes="auto always never" || modes=$mode
        for m in $modes; do
            run -Xmx1g -Djdk.internal.nio.ioUring.mode=$m -Djdk.nio.file.ioUring.debug=true \
                "$prog" --duration="$duration" "$@"
        done
        ;;
    leak-check)
        # a pre-touched heap of fixed size, so that VmRSS growth is not the heap's
        run -Xms1g -Xmx1g -XX:+AlwaysPreTouch -XX:NativeMemoryTracking=detail \
            -Djdk.internal.nio.ioUring.mode=${MODE:-always} \
            -Djdk.nio.file.ioUring.debug=true "$prog" --leak-check "$@"
        ;;
    selftest)
        duration=${1:-15s} mode=${2:-auto}
        shift 2
        run -Xmx1g -Djdk.internal.nio.ioUring.mode=$mode -Djdk.nio.file.ioUring.debug=true \
            "$prog" --duration="$duration" --file-mib=16 --inject-corruption "$@"
        # the harness must fail the run, and say that each injected kind was caught
        why=()
        [ "$rc" -ne 0 ] || why+=("the harness exited with status 0")
        grep -qE '^SUMMARY .* result=FAIL$' < <(printf '%s\n' "${summaries[@]}") ||
            why+=("no SUMMARY line with result=FAIL")
        grep -qE '^SELFTEST .* result=PASS$' < <(printf '%s\n' "${summaries[@]}") ||
            why+=("no SELFTEST line with result=PASS")
        if [ ${#why[@]} -eq 0 ]; then
            status=0
            summaries+=("stress-selftest: PASS (every injected kind detected; the run failed with exit status $rc, as it must)")
        else
            status=1
            summaries+=("stress-selftest: FAIL ($(printf '%s; ' "${why[@]}" | sed 's/; $//'))")
        fi
        ;;
    *)
        echo "usage: stress.sh stress|leak-check|selftest JDK ..." >&2; exit 2 ;;
esac

echo
printf '%s\n' "${summaries[@]}"
exit $status

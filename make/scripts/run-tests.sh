#!/bin/bash
# Runs jtreg against a JDK image: by default the tests of the series SERIES (a comma-separated
# prefix of patches/series): each series' own tests and the JDK's tests that guard it
# (patches/<series>/jdk-tests); TEST narrows it to paths (relative to test/jdk, or starting
# with test/jdk/) or jtreg groups (jdk_nio, ...).
# Prints jtreg's summary and a closing "N passed, N failed" line; non-zero exit on any failure.
# Usage: run-tests.sh JDK TREE RESULTS "TEST" "JTREG_OPTIONS" SERIES
set -uo pipefail
. "$(dirname "$0")/common.sh"

jdk=$1 tree=$2 results=$3 tests=$4 options=$5 series=$6
top=$(cd "$(dirname "$0")/../.." && pwd)
jtreg_home=${JTREG_HOME:-/usr/share/jtreg}
testroot=$tree/test/jdk

selected=()
if [ -z "$tests" ]; then
    list=$("$top/make/scripts/series.sh" tests "$series") || exit 1
    for t in $list; do selected+=("$t"); done
else
    for t in $tests; do
        t=${t#test/jdk/}
        case "$t" in
            */*|*.java|*.sh) selected+=("$t") ;;
            :*) selected+=("$t") ;;
            *) selected+=(":$t") ;;
        esac
    done
fi

rm -rf "$results"
mkdir -p "$results"
native=${JTREG_NATIVE:-$tree/build/release/images/test/jdk/jtreg/native}
[ -d "$native" ] || die "no native test libraries at $native (make test builds them)"

note "jtreg: ${#selected[@]} selections against $("$jdk/bin/java" -version 2>&1 | sed -n 2p)"
# shellcheck disable=SC2086
(cd "$testroot" && "$jtreg_home/bin/jtreg" \
    -jdk:"$jdk" -dir:"$testroot" -w:"$results/work" -r:"$results/report" \
    -agentvm -conc:${JTREG_CONCURRENCY:-2} -timeoutFactor:${JTREG_TIMEOUT_FACTOR:-4} \
    -automatic -retain:fail,error -ignore:quiet -verbose:summary \
    -exclude:"$testroot/ProblemList.txt" -nativepath:"$native" \
    $options "${selected[@]}") 2>&1 | tee "$results/jtreg.log"
rc=${PIPESTATUS[0]}

summary=$(grep -E '^Test results:' "$results/jtreg.log" | tail -n 1)
passed=$(echo "$summary" | sed -n 's/.*passed: \([0-9,]*\).*/\1/p' | tr -d ,)
failed=$(echo "$summary" | sed -n 's/.*failed: \([0-9,]*\).*/\1/p' | tr -d ,)
errors=$(echo "$summary" | sed -n 's/.*error: \([0-9,]*\).*/\1/p' | tr -d ,)
passed=${passed:-0}
failed=$(( ${failed:-0} + ${errors:-0} ))
echo "Results: $results (report/html/report.html)"
echo "$passed passed, $failed failed"
if [ "$rc" != 0 ] || [ "$failed" != 0 ] || [ "$passed" = 0 ]; then
    exit 1
fi

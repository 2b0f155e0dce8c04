#!/bin/bash
# Runs upstream OpenJDK test suites against the baseline JDK and against the patched JDK in each
# io_uring mode, on platform threads and again with jtreg's Virtual test thread factory (the
# test's main thread is a virtual thread, as JTREG_TEST_THREAD_FACTORY=Virtual does in OpenJDK's
# make test). The tests come from the pristine upstream tree, so the project's own tests are not
# among them. Writes one results directory per column and a table (table.md): tests run, passed,
# failed, and the failures that the baseline does not also have.
# Usage: test-upstream.sh PATCHED_JDK BASELINE_JDK PRISTINE_TREE NATIVE_DIR FACTORY_JAR OUT "SUITES" "COLUMNS"
set -uo pipefail
. "$(dirname "$0")/common.sh"

patched=$1 baseline=$2 tree=$3 native=$4 factory=$5 out=$6 suites=$7 columns=$8
scripts=$(cd "$(dirname "$0")" && pwd)
testroot=$tree/test/jdk
mkdir -p "$out"

# column name -> JDK and jtreg options
column_jdk() {
    case $1 in baseline*) echo "$baseline" ;; *) echo "$patched" ;; esac
}
column_options() {
    local opts=""
    case $1 in
        never*|auto*|always*) opts="-javaoptions:-Djdk.internal.nio.ioUring.mode=${1%%-*}" ;;
    esac
    case $1 in
        *-virtual) opts="$opts -testThreadFactory:Virtual -testThreadFactoryPath:$factory"
                   opts="$opts -exclude:$testroot/ProblemList-Virtual.txt" ;;
    esac
    echo "$opts"
}

for col in $columns; do
    # REUSE=1 keeps a column that has already run (e.g. the baseline) instead of running it again
    if [ "${REUSE:-0}" = 1 ] && grep -q '^Test results:' "$out/$col/jtreg.log" 2>/dev/null; then
        note "upstream suites on $col: kept from an earlier run"
        continue
    fi
    note "upstream suites ($suites) on $col"
    JTREG_NATIVE=$native "$scripts/run-tests.sh" "$(column_jdk "$col")" "$tree" "$out/$col" \
        "$suites" "$(column_options "$col")" > "$out/$col.log" 2>&1
    tail -n 1 "$out/$col.log"
done

# failed and error tests of a column, one per line
failures() {
    awk '$2 ~ /^(Failed|Error)\./ {print $1}' "$out/$1/report/text/summary.txt" 2>/dev/null \
        | sort -u
}

{
    echo "Suites: $suites"
    echo
    echo "| column | run | passed | failed | failures the baseline does not have |"
    echo "|---|---|---|---|---|"
    for col in $columns; do
        line=$(grep -E '^Test results:' "$out/$col/jtreg.log" 2>/dev/null | tail -n 1)
        num() { echo "$line" | sed -n "s/.*$1: \([0-9,]*\).*/\1/p" | tr -d ,; }
        passed=$(num passed); failed=$(num failed); errors=$(num error)
        passed=${passed:-0}; failed=$(( ${failed:-0} + ${errors:-0} ))
        base=baseline; case $col in *-virtual) base=baseline-virtual ;; esac
        new=""
        if [ "$col" != "$base" ]; then
            new=$(comm -23 <(failures "$col") <(failures "$base") | tr '\n' ' ')
        fi
        echo "| $col | $((passed + failed)) | $passed | $failed | ${new:-none} |"
    done
    echo
    for col in $columns; do
        f=$(failures "$col" | tr '\n' ' ')
        [ -z "$f" ] || echo "- $col failed: $f"
    done
} > "$out/table.md"
cat "$out/table.md"

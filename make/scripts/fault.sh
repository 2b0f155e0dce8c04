#!/bin/bash
# Fault injection for the io_uring path that changes machine-global state, so it is not a jtreg
# test: kernel.io_uring_disabled set before the VM starts (c) and switched while it runs (d).
# Scenarios run one at a time; the sysctl is put back after each one and on any exit.
# Each prints PASS or FAIL with the reason and the VM's jdk.nio.file.ioUring diagnostic; every
# run's reads, return values and file must be byte-identical to a pread/pwrite run's.
# Needs root and a writable /proc/sys/kernel/io_uring_disabled (kernel 6.6+), else skips.
# Usage: fault.sh JDK WORKDIR
set -uo pipefail
. "$(dirname "$0")/common.sh"

# the paths made absolute: the children run in a directory of their own
jdk=$(realpath -m "$1") work=$(realpath -m "$2")
sysctl=/proc/sys/kernel/io_uring_disabled
java=$jdk/bin/java
timeout_s=300

if [ "$(id -u)" != 0 ] || [ ! -w "$sysctl" ]; then
    note "fault: SKIPPED (needs root and a writable $sysctl)"
    exit 0
fi
orig=$(cat "$sysctl")
restore() { echo "$orig" > "$sysctl"; }
trap 'restore; note "fault: kernel.io_uring_disabled restored to $(cat "$sysctl")"' EXIT
trap 'exit 130' INT TERM HUP

rm -rf "$work"
mkdir -p "$work/classes"
chmod 755 "$work" "$work/classes"
tests=$(dirname "$0")/../../test/jdk/java/nio/channels/FileChannel
"$jdk/bin/javac" -d "$work/classes" "$(dirname "$0")/FaultChild.java" \
    "$tests/IoUringRings.java" "$tests/IoUringModelFile.java" || die "javac FaultChild failed"

passed=0 failed=0
pass() { echo "PASS $name: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $name: $*"; failed=$((failed + 1)); }

# run NAME MODE WHEN SYSCTL_AT_START SYSCTL_AT_GO USER
# Runs FaultChild with -Djdk.nio.file.ioUring=MODE and the debug diagnostic, as USER, with the
# sysctl at SYSCTL_AT_START; with WHEN wait-first or wait-between, sets it to SYSCTL_AT_GO when
# the child is ready. Leaves $dir/out, $dir/err, $diag and $rc.
run() {
    name=$1
    local mode=$2 when=$3 start=$4 go=$5 user=$6
    dir=$work/$name
    early=
    mkdir -p "$dir" && chmod 1777 "$dir"
    echo "$start" > "$sysctl"
    local cmd=("$java" -Djdk.internal.nio.ioUring.mode="$mode" -Djdk.nio.file.ioUring.debug=true
               -cp "$work/classes" FaultChild "$dir" "$when")
    if [ "$user" != root ]; then
        cmd=(setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups "${cmd[@]}")
    fi
    echo "== $name: kernel.io_uring_disabled=$start${go:+ then $go}, ${cmd[*]}"
    (cd "$dir" && exec timeout "$timeout_s" "${cmd[@]}") > "$dir/out" 2> "$dir/err" &
    local pid=$!
    if [ "$when" != plain ]; then
        local i=0
        while [ ! -e "$dir/ready" ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 1200 ]; do
            sleep 0.1; i=$((i + 1))
        done
        if [ ! -e "$dir/ready" ]; then
            kill "$pid" 2>/dev/null
        else
            early=$(grep -c '^jdk.nio.file.ioUring=' "$dir/err")
            echo "$go" > "$sysctl"
            touch "$dir/go"
        fi
    fi
    wait "$pid"
    rc=$?
    restore
    diag=$(grep '^jdk.nio.file.ioUring=' "$dir/err")
    sed 's/^/    /' "$dir/out" "$dir/err"
}

# check EXPECTED_DIAG_PATTERN RING_FDS: exit 0, the one diagnostic matching the pattern (grep -E,
# whole line), the reference digest, and RING_FDS io_uring fds (a number, or + for some)
check() {
    local pattern=$1 fds=$2
    local digest n
    digest=$(sed -n 's/^digest: //p' "$dir/out")
    n=$(sed -n 's/^ring fds: //p' "$dir/out")
    if [ "$rc" = 124 ]; then
        fail "child timed out after ${timeout_s}s"
    elif [ "$rc" != 0 ]; then
        fail "child exited with $rc"
    elif [ "$(printf '%s\n' "$diag" | grep -c .)" != 1 ]; then
        fail "expected one diagnostic line, got: $diag"
    elif ! printf '%s\n' "$diag" | grep -Eqx -- "$pattern"; then
        fail "diagnostic does not match /$pattern/: $diag"
    elif [ "$digest" != "$reference" ]; then
        fail "results differ from pread/pwrite (digest $digest, reference $reference)"
    elif ! fds_ok "$n" "$fds"; then
        fail "$n io_uring fds open at the end, expected $fds"
    else
        return 0
    fi
    return 1
}

fds_ok() {     # COUNT EXPECTED (a number, or + for at least one)
    if [ "$2" = + ]; then [ "${1:-0}" -ge 1 ]; else [ "$1" = "$2" ]; fi
}

fallback() {   # MODE SYSCTL_VALUE: the diagnostic of io_uring_setup failing with EPERM
    printf 'jdk\\.nio\\.file\\.ioUring=%s: io_uring unavailable \\(io_uring_setup: Operation not permitted \\(kernel\\.io_uring_disabled=%s\\)\\), using pread/pwrite' "$1" "$2"
}
using() {      # MODE
    printf 'jdk\\.nio\\.file\\.ioUring=%s: using io_uring \\([0-9]+ ring\\(s\\) of depth [0-9]+\\)' "$1"
}

note "fault: kernel.io_uring_disabled is $orig; $("$java" -version 2>&1 | sed -n 2p)"

# the reference: pread/pwrite
run reference never plain "$orig" "" root
reference=$(sed -n 's/^digest: //p' "$dir/out")
if [ "$rc" != 0 ] || [ -z "$reference" ]; then
    fail "pread/pwrite run failed (exit $rc)"
    exit 1
fi
echo "reference digest $reference"

# c. io_uring_disabled=2: nobody may create rings
for mode in always auto; do
    run "disabled2-$mode" "$mode" plain 2 "" root
    check "$(fallback "$mode" 2)" 0 && pass "$diag"
done

# c. io_uring_disabled=1: only CAP_SYS_ADMIN (or kernel.io_uring_group): root still may
run disabled1-root always plain 1 "" root
check "$(using always)" + && pass "$diag (root has CAP_SYS_ADMIN)"
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
    run disabled1-nobody always plain 1 "" nobody
    check "$(fallback always 1)" 0 && pass "$diag (unprivileged user)"
fi

# d(i). disabled=2 after the VM started but before its first positional operation: the rings
# are created then, so creation fails and everything falls back
run disable-before-first-op always wait-first 0 2 root
if [ "${early:-1}" != 0 ]; then
    fail "diagnostic printed before the first positional op: rings were created too early"
else
    check "$(fallback always 2)" 0 && pass "$diag"
fi

# d(ii). disabled=2 once the rings exist: they keep working (the sysctl only gates setup)
run disable-with-rings always wait-between 0 2 root
before=$(sed -n 's/^ring fds before: //p' "$dir/out")
c0=$(sed -n 's/^ring completions before: //p' "$dir/out")
c1=$(sed -n 's/^ring completions: //p' "$dir/out")
if [ "${before:-0}" -lt 1 ]; then
    fail "no ring before the sysctl change (ring fds before: $before)"
elif [ $(( ${c1:-0} - ${c0:-0} )) -lt 200 ]; then
    # the 200 operations after the change must all have gone through the ring
    fail "rings not used after the sysctl change: completions $c0 -> $c1"
else
    check "$(using always)" + && pass "$diag; $((c1 - c0)) completions after kernel.io_uring_disabled=2"
fi

echo "fault: $passed passed, $failed failed"
[ "$failed" = 0 ]

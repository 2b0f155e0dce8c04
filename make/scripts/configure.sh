#!/bin/bash
# Runs OpenJDK's configure in TREE unless the same arguments configured it last time.
# Usage: configure.sh TREE ARGS...
set -euo pipefail
. "$(dirname "$0")/common.sh"

tree=$1
shift
outdir=$tree/build/release
stamp=$outdir/nio-uring-configure-args
want=$(printf '%s\n' "$@")
if [ -f "$outdir/spec.gmk" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] \
        && [ "$outdir/spec.gmk" -nt "$tree/make/autoconf/configure.ac" ] \
        && [ -z "$(find "$tree/make/autoconf" -newer "$outdir/spec.gmk" -print -quit)" ]; then
    exit 0
fi
note "configuring $tree"
mkdir -p "$tree/build"
(cd "$tree" && bash configure "$@") > "$tree/build/configure.log" 2>&1 || {
    tail -n 30 "$tree/build/configure.log" >&2
    die "configure failed, see $tree/build/configure.log"
}
grep -A 3 '^Configuration summary' "$tree/build/configure.log" | tail -n 3 || true
grep -E '^\* Version string' "$tree/build/configure.log" || true
echo "$want" > "$stamp"

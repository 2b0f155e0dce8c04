#!/bin/bash
# The kernel's floor for a read of cached data through io_uring, against pread, with no JVM in
# the way: make/experiments/ring-floor.c, built against the liburing the JDK links (liburing-dev,
# which the build installs), reading random 4 KiB blocks of a 64 MiB file in the page cache.
# Usage: ring-floor.sh OUTDIR [reads-per-round [rounds]]
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=$1 reads=${2:-1000000} rounds=${3:-7}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
cc -O2 -Wall ${LIBURING_CFLAGS:-} -o "$out/ring-floor" "$root/make/experiments/ring-floor.c" \
    -l:liburing.a || die "liburing-dev is needed (make deps installs it)"
file=$out/ring-floor.dat
if [ ! -f "$file" ] || [ "$(stat -c %s "$file")" != $((64 << 20)) ]; then
    head -c $((64 << 20)) /dev/urandom > "$file"
fi
"$out/ring-floor" "$file" "$reads" "$rounds" | tee "$out/ring-floor.txt"

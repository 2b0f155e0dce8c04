#!/bin/bash
# Measures the io_uring reaper design against the alternative of registering the ring fd with
# the JDK's Poller: make/experiments/poller-reaper.patch is applied to a copy of IoUring.java,
# compiled, and put in front of the patched JDK's java.base with --patch-module by a wrapper
# launcher; compare.py then runs the same benchmarks on the patched JDK as built ("baseline"
# column: a platform reaper thread per ring) and through the wrapper ("patched" column: a
# virtual reaper thread parked in the Poller).
# Usage: reaper-experiment.sh PATCHED_JDK JAR OUT BENCH FORKS "JMH_OPTIONS"
set -euo pipefail
. "$(dirname "$0")/common.sh"

jdk=$(cd "$1" && pwd) jar=$2 out=$3 bench=$4 forks=$5 jmh=$6
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$out/variant
rm -rf "$work"
mkdir -p "$work/src" "$work/classes" "$work/jdk/bin"

# offsetof(struct io_uring, ring_fd) in the liburing headers the build used
cat > "$work/offset.c" <<'C'
#include <stddef.h>
#include <stdio.h>
#include <liburing.h>
int main(void) { printf("%zu\n", offsetof(struct io_uring, ring_fd)); return 0; }
C
cc ${LIBURING_CFLAGS:-} -o "$work/offset" "$work/offset.c" || die "liburing headers needed"
offset=$("$work/offset")

rel=src/java.base/linux/classes/sun/nio/ch
mkdir -p "$work/src/$rel"
cp "$root/$rel/IoUring.java" "$work/src/$rel/"
(cd "$work/src" && patch -s -p1 < "$root/make/experiments/poller-reaper.patch")
java_file=$work/src/$rel/IoUring.java
sed -i "s/@RING_FD_OFFSET@/$offset/" "$java_file"
"$jdk/bin/javac" --patch-module java.base="$work/src/${rel%/sun/nio/ch}" \
    -d "$work/classes" "$java_file"

cat > "$work/jdk/bin/java" <<SH
#!/bin/sh
exec "$jdk/bin/java" --patch-module java.base="$work/classes" "\$@"
SH
chmod +x "$work/jdk/bin/java"
note "reaper experiment: baseline = platform reaper thread, patched = virtual reaper in the Poller"
python3 "$root/make/scripts/compare.py" --baseline "$jdk" --patched "$work/jdk" --jar "$jar" \
    --host-java "$jdk/bin/java" --out "$out" --bench "$bench" --forks "$forks" --jmh "$jmh"

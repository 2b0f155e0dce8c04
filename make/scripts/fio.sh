#!/bin/bash
# The device limit beside the FileChannelUring benchmark: fio with io_uring on the same files,
# block sizes and queue depths (random 4 KiB reads of the 2 GiB read file with the page cache
# dropped first, random writes to the 256 MiB write file), plus psync with 1 and 256 jobs for the
# reads and 64 jobs for the writes (what that many blocking threads get). Each case runs RUNTIME seconds (default 5). fio would advise
# POSIX_FADV_RANDOM, switching readahead off; the JDK does not, so neither does this.
# Usage: fio.sh OUTDIR
set -euo pipefail
. "$(dirname "$0")/common.sh"

out=$1
file=${FIO_FILE:-/var/tmp/nio-uring-bench.dat}
runtime=${RUNTIME:-5}
command -v fio >/dev/null || die "fio is not installed (make fio installs it)"
[ -f "$file" ] || die "$file does not exist: run the FileChannelUring benchmark once first"
[ -f "$file.w" ] || die "$file.w does not exist: run the FileChannelUring benchmark with -p op=write first"
mkdir -p "$out"

# name rw file bs direct sync engine iodepth numjobs
cases=(
    "read-512-qd64       randread  $file      512 0 none  io_uring 64  1"
    "read-4k-qd64        randread  $file       4k 0 none  io_uring 64  1"
    "read-4k-qd256       randread  $file       4k 0 none  io_uring 256 1"
    "read-64k-qd64       randread  $file      64k 0 none  io_uring 64  1"
    "read-4k-psync1      randread  $file       4k 0 none  psync    1   1"
    "read-4k-psync256    randread  $file       4k 0 none  psync    1   256"
    "read-4k-direct-qd64 randread  $file       4k 1 none  io_uring 64  1"
    "read-4k-direct-qd256 randread $file       4k 1 none  io_uring 256 1"
    "write-4k-qd64       randwrite $file.w     4k 0 none  io_uring 64  1"
    "write-4k-dsync-qd64 randwrite $file.w     4k 0 dsync io_uring 64  1"
    "write-4k-direct-qd64 randwrite $file.w    4k 1 none  io_uring 64  1"
    "write-4k-psync64    randwrite $file.w     4k 0 none  psync    1   64"
    "write-4k-dsync-psync64 randwrite $file.w  4k 0 dsync psync    1   64"
    "write-4k-direct-psync64 randwrite $file.w 4k 1 none  psync    1   64"
)

printf "%-24s %12s\n" "fio case (${runtime}s each)" "IOPS" | tee "$out/fio.txt"
for c in "${cases[@]}"; do
    read -r name rw f bs direct sync engine depth jobs <<<"$c"
    opts=(--name="$name" --filename="$f" --rw="$rw" --bs="$bs" --direct="$direct"
          --ioengine="$engine" --iodepth="$depth" --numjobs="$jobs" --group_reporting
          --time_based --runtime="$runtime" --invalidate=1 --randrepeat=0 --fadvise_hint=0
          --output-format=json --output="$out/$name.json")
    [ "$sync" = none ] || opts+=(--sync="$sync")
    # buffered reads start cold, as the benchmark's iterations do
    dd if="$f" iflag=nocache count=0 status=none
    fio "${opts[@]}" >/dev/null
    iops=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print("%.0f" % (j["read"]["iops"] + j["write"]["iops"]))' "$out/$name.json")
    printf "%-24s %12s\n" "$name" "$iops" | tee -a "$out/fio.txt"
done

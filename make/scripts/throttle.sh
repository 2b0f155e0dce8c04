#!/bin/bash
# Runs a command with its reads of the file system under DIR throttled by the cgroup v1 block
# I/O controller, as a slow SSD or a network disk would serve them: a group nio-uring under
# /sys/fs/cgroup/blkio whose blkio.throttle.read_iops_device caps the device at IOPS reads a
# second (cgroup v2 spells it io.max). The command and every thread it starts are in the group.
# Needs root.
#   throttle.sh IOPS DIR command...
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# -ge 3 ] || die "usage: throttle.sh IOPS DIR command..."
iops=$1 dir=$2
shift 2
root=/sys/fs/cgroup/blkio
[ -w "$root" ] || [ "$(id -u)" != 0 ] || die "no cgroup v1 blkio hierarchy at $root"
src=$(findmnt -n -o SOURCE --target "$dir")
dev=$(lsblk -ndo MAJ:MIN "$src" | tr -d ' ')
# the whole disk, where the file system is on a partition
parent=$(lsblk -ndo PKNAME "$src" 2>/dev/null || true)
[ -z "$parent" ] || dev=$(lsblk -ndo MAJ:MIN "/dev/$parent" | tr -d ' ')
group=$root/nio-uring
as_root mkdir -p "$group"
echo "$dev $iops" | as_root tee "$group/blkio.throttle.read_iops_device" >/dev/null
note "reads of $src ($dev) capped at $iops a second"
echo $$ | as_root tee "$group/tasks" >/dev/null
exec "$@"

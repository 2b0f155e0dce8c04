#!/bin/bash
# A block device without the virtual disk behind it: ext4 on a loop device whose backing file
# lives in /dev/shm, mounted at DIR. DSYNC writes still commit ext4's journal and O_DIRECT writes
# still go through the block layer and the loop driver, but the "device" is RAM, so a write
# benchmark there shows what is left of its spread when the disk is taken away
# (doc/results.md, Writes). Needs root (losetup, mount).
#   ramdisk.sh up DIR [SIZE_MIB]   create, format and mount (SIZE_MIB default 640)
#   ramdisk.sh down DIR            unmount, detach the loop device, delete the backing file
# Benchmark files go there with -p file=DIR/nio-uring-bench.dat (make perf-matrix DEVICE=ramdisk).
set -euo pipefail
. "$(dirname "$0")/common.sh"

what=${1:-} dir=${2:-}
[ -n "$dir" ] || die "usage: ramdisk.sh up|down DIR [SIZE_MIB]"
img=/dev/shm/nio-uring-ramdisk.img

case $what in
    up)
        size=${3:-640}
        if mountpoint -q "$dir"; then
            note "ramdisk already mounted at $dir"
            exit 0
        fi
        mkdir -p "$dir"
        as_root truncate -s "${size}M" "$img"
        loop=$(as_root losetup --find --show "$img")
        as_root mkfs.ext4 -q -F "$loop"
        as_root mount "$loop" "$dir"
        as_root chmod 1777 "$dir"
        note "ext4 on $loop (backed by $img, ${size} MiB) mounted at $dir"
        ;;
    down)
        if mountpoint -q "$dir"; then
            loop=$(findmnt -n -o SOURCE --target "$dir")
            as_root umount "$dir"
            as_root losetup -d "$loop"
        fi
        as_root rm -f "$img"
        note "ramdisk at $dir removed"
        ;;
    *)
        die "usage: ramdisk.sh up|down DIR [SIZE_MIB]" ;;
esac

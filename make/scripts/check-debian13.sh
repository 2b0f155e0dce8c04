#!/bin/bash
# The two commands on a fresh Debian 13 (trixie): makes a new root with debootstrap (minbase plus
# git, make and ca-certificates) from the archive this machine's apt sources name, clones this
# repository's HEAD commit into it, and runs `make` and then `make test` there as root, as a new
# user of such a machine would; times both and checks that the root's /etc/apt is unchanged.
# Root only (debootstrap, chroot, bind mounts); a full JDK build, so not part of CI.
# UPSTREAM_TARBALL, when set, is copied into the root and passed on; without it `make` fetches
# the source itself. The root's ccache is OUT/ccache, kept across runs.
# Usage: check-debian13.sh ROOT OUT
set -euo pipefail
. "$(dirname "$0")/common.sh"

root=$1 out=$2
topdir=$(cd "$(dirname "$0")/../.." && pwd)
suite=trixie
marker=.nio-uring-debian13-root
[ "$(id -u)" = 0 ] || die "check-debian13 needs root (debootstrap, chroot and bind mounts)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
root=$(realpath -m "$root")

# what the root's make sees of the machine; unmounted in reverse order on any exit. The root is
# bound onto itself first, so that it is a mount point: /proc/self/mounts in the chroot then has
# an entry for "/", which Files.getFileStore (the direct I/O tests) looks for.
mounts=("" proc sys dev dev/pts dev/shm root/.cache/ccache)
unmount_all() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        if mountpoint -q "$root/${mounts[i]}"; then umount "$root/${mounts[i]}"; fi
    done
}
trap unmount_all EXIT

# A new root each run: an old one is removed only if this script made it, and only once
# nothing is mounted below it.
if [ -e "$root" ]; then
    [ -e "$root/$marker" ] || die "$root exists and is not a root this script made; remove it or pick another DEBIAN13_ROOT"
    unmount_all
    ! grep -qE " $root(/| )" /proc/mounts || die "something is still mounted at or below $root"
    note "removing the previous root $root"
    rm -rf --one-file-system "$root"
fi

install_packages debootstrap
mirror=$(debian_mirror)
note "debootstrap $suite from $mirror into $root (log: $out/debootstrap.log)"
t0=$(date +%s)
debootstrap --variant=minbase --include=git,make,ca-certificates "$suite" "$root" "$mirror" \
    > "$out/debootstrap.log" 2>&1 || die "debootstrap failed (see $out/debootstrap.log)"
touch "$root/$marker"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# the machine's name resolves, as on an installed Debian (tests connect to the local host name)
echo "127.0.1.1 $(hostname)" >> "$root/etc/hosts"
# The archive is checked as this machine's apt checks it (a mirror whose later suites' Release
# files have expired is accepted here only if it is on the machine itself).
checks=$(apt-config dump | grep -E '^Acquire::Check-(Valid-Until|Date) ' || true)
[ -z "$checks" ] || echo "$checks" > "$root/etc/apt/apt.conf.d/99nio-uring-host-checks"
# and trusts the certificate authorities this machine adds to Debian's (Maven Central over TLS)
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >> "$out/debootstrap.log" 2>&1
fi
t_root=$(( $(date +%s) - t0 ))

mkdir -p "$out/ccache" "$root/root/.cache/ccache"
mount --bind "$root" "$root"
mount -t proc proc "$root/proc"
mount --bind /sys "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
mount --bind /dev/shm "$root/dev/shm"
mount --bind "$out/ccache" "$root/root/.cache/ccache"

# HEAD of this clone, as the default branch of a bare repository in the root to clone from
rev=$(git -C "$topdir" rev-parse HEAD)
[ -z "$(git -C "$topdir" status --porcelain --untracked-files=no)" ] \
    || note "uncommitted changes in $topdir are not tested: the root gets commit $rev"
git init -q --bare --initial-branch=main "$root/srv/nio-uring.git"
git -C "$topdir" push -q "$root/srv/nio-uring.git" "$rev:refs/heads/main"

in_root() {
    chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}
make_env=""
if [ -n "${UPSTREAM_TARBALL:-}" ]; then
    mkdir -p "$root/root/upstream"
    cp "$UPSTREAM_TARBALL" "$root/root/upstream/"
    make_env="UPSTREAM_TARBALL=/root/upstream/$(basename "$UPSTREAM_TARBALL")"
fi
in_root git clone -q /srv/nio-uring.git /root/nio-uring

apt_sums() { (cd "$root/etc/apt" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
apt_sums > "$out/etc-apt.before"

run_step() {  # NAME COMMAND: runs it in the clone, log in OUT/NAME.log; sets secs
    local name=$1 rc t
    note "Debian 13 root: $2 (log: $out/$name.log)"
    t=$(date +%s)
    set +e
    in_root bash -c "cd /root/nio-uring && env $make_env $2" 2>&1 | tee "$out/$name.log"
    rc=${PIPESTATUS[0]}
    set -e
    secs=$(( $(date +%s) - t ))
    return "$rc"
}
rc=0
run_step make make || rc=$?
t_make=$secs t_test=0
if [ "$rc" = 0 ]; then
    run_step test "make test" || rc=$?
    t_test=$secs
fi

apt_sums > "$out/etc-apt.after"
if cmp -s "$out/etc-apt.before" "$out/etc-apt.after"; then
    apt_state="unchanged"
else
    apt_state="CHANGED (diff $out/etc-apt.before $out/etc-apt.after)"
    [ "$rc" != 0 ] || rc=1
fi
counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out/test.log" 2>/dev/null | tail -n 1) || true
{
    echo "commit $rev on $(. "$root/etc/os-release" && echo "$PRETTY_NAME"), kernel $(uname -r), $(nproc) CPUs"
    echo "root from $mirror: $(( t_root / 60 )) min $(( t_root % 60 )) s"
    echo "make: $(( t_make / 60 )) min $(( t_make % 60 )) s; make test: $(( t_test / 60 )) min $(( t_test % 60 )) s"
    in_root dpkg-query -W -f='${Package} ${Version}\n' openjdk-25-jdk-headless jtreg8 gcc 2>/dev/null || true
    echo "/etc/apt: $apt_state"
    echo "${counts:-make test did not finish}"
} | tee "$out/summary.txt"
exit "$rc"

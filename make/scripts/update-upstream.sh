#!/bin/bash
# Moves the pinned upstream in make/conf to another upload of Debian's openjdk-26 source package,
# as a distribution maintainer moves a patch series to a new update release: downloads it with
# apt-get source from DEBIAN_SOURCE_SUITE (added for that command only), and writes its version,
# tarball name, sha256 and top directory into make/conf. The release tag follows the version; its
# pinned commit is cleared, since it was the old tag's. Without a version, lists what Debian
# offers. `make update-upstream` then runs `make check-patches` against the new tree.
# Usage: update-upstream.sh CONF [DEBIAN_VERSION]
set -euo pipefail
. "$(dirname "$0")/common.sh"

conf=$1 version=${2:-}
: "${BUILD_DIR:?}" "${UPSTREAM_DEB_SOURCE:?}" "${DEBIAN_SOURCE_SUITE:?}"
dl=$BUILD_DIR/download
mkdir -p "$dl"

suite_apt_opts "$DEBIAN_SOURCE_SUITE" deb-src
apt-get "${APT_OPTS[@]}" update -q > "$dl/apt-get.log" 2>&1 \
    || die "apt-get update of Debian $DEBIAN_SOURCE_SUITE failed (see $dl/apt-get.log)"
offered=$(apt-cache "${APT_OPTS[@]}" showsrc "$UPSTREAM_DEB_SOURCE" 2>/dev/null \
              | sed -n 's/^Version: //p' | sort -u) || true
if [ -z "$version" ]; then
    note "make/conf pins $UPSTREAM_DEB_SOURCE ${UPSTREAM_DEB_VERSION:-?}; Debian $DEBIAN_SOURCE_SUITE offers:"
    echo "${offered:-nothing}" | sed 's/^/  /'
    note "move to one with: make update-upstream VERSION=<one of them>"
    exit 0
fi
grep -qxF "$version" <<<"$offered" \
    || die "Debian $DEBIAN_SOURCE_SUITE has no $UPSTREAM_DEB_SOURCE $version; it offers: $(echo $offered)"

# 26.0.3+7-1 -> upstream version 26.0.3+7 (the Debian revision is what follows the last '-')
upstream=${version%-*}
name=${UPSTREAM_DEB_SOURCE}_$upstream.orig.tar.xz
note "fetching $UPSTREAM_DEB_SOURCE=$version from Debian $DEBIAN_SOURCE_SUITE"
(cd "$dl" && apt-get "${APT_OPTS[@]}" source --download-only -q "$UPSTREAM_DEB_SOURCE=$version" \
     >> "$dl/apt-get.log" 2>&1) || die "apt-get source failed (see $dl/apt-get.log)"
[ -f "$dl/$name" ] || die "apt-get source left no $dl/$name"
sha=$(sha256sum "$dl/$name" | awk '{print $1}')
top=$(tar -tf "$dl/$name" 2>/dev/null | head -n 1 | sed 's|/.*||') || true
[ -n "$top" ] || die "cannot read the top directory of $dl/$name"

set_conf() {  # NAME VALUE: rewrite the line "NAME := ..." of make/conf
    grep -q "^$1 :=" "$conf" || die "$conf has no $1"
    sed -i "s|^$1 :=.*|$1 :=${2:+ $2}|" "$conf"
}
set_conf UPSTREAM_VERSION "$upstream"
set_conf UPSTREAM_DEB_VERSION "$version"
set_conf UPSTREAM_TARBALL_NAME "$name"
set_conf UPSTREAM_SHA256 "$sha"
set_conf UPSTREAM_TOPDIR "$top"
set_conf UPSTREAM_GIT_TAG "jdk-$upstream"
set_conf UPSTREAM_GIT_COMMIT ""
note "make/conf now pins $UPSTREAM_DEB_SOURCE $version ($name, sha256 $sha)"

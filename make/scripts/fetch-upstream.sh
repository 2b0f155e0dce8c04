#!/bin/bash
# Obtains the pinned upstream source and leaves it, verified and unpacked, in $PRISTINE.
# Sources, first that applies: UPSTREAM_DIR (an unpacked tree, used as it is), UPSTREAM_TARBALL,
# a tarball already downloaded into the download cache, `apt-get source` from Debian's
# DEBIAN_SOURCE_SUITE (added for that command only), the release tag if its commit is pinned.
set -euo pipefail
. "$(dirname "$0")/common.sh"

: "${BUILD_DIR:?}" "${UPSTREAM_SHA256:?}" "${UPSTREAM_TARBALL_NAME:?}" "${UPSTREAM_TOPDIR:?}"
pristine=$BUILD_DIR/upstream/$UPSTREAM_TOPDIR
stamp=$pristine/.nio-uring-verified
dl=$BUILD_DIR/download

if [ -n "${UPSTREAM_DIR:-}" ]; then
    [ -f "$UPSTREAM_DIR/make/conf/version-numbers.conf" ] || die "UPSTREAM_DIR=$UPSTREAM_DIR is not an OpenJDK tree"
    mkdir -p "$BUILD_DIR/upstream"
    ln -sfn "$(cd "$UPSTREAM_DIR" && pwd)" "$pristine"
    exit 0
fi
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$UPSTREAM_SHA256" ]; then
    exit 0
fi

verify() {  # file -> ok or die
    local got
    got=$(sha256sum "$1" | awk '{print $1}')
    [ "$got" = "$UPSTREAM_SHA256" ] || die "$1: sha256 $got, expected $UPSTREAM_SHA256"
    note "verified $1 (sha256 $UPSTREAM_SHA256)"
}

mkdir -p "$dl"
tarball=""
if [ -n "${UPSTREAM_TARBALL:-}" ]; then
    tarball=$UPSTREAM_TARBALL
elif [ -f "$dl/$UPSTREAM_TARBALL_NAME" ]; then
    tarball=$dl/$UPSTREAM_TARBALL_NAME
else
    # Debian's source package, from its suite through a private sources list (common.sh)
    src_suite=${DEBIAN_SOURCE_SUITE:?}
    note "fetching $UPSTREAM_DEB_SOURCE=$UPSTREAM_DEB_VERSION from Debian $src_suite with apt-get source"
    suite_apt_opts "$src_suite" deb-src
    if ! apt-get "${APT_OPTS[@]}" update -q > "$dl/apt-get.log" 2>&1; then
        why="apt-get update of Debian $src_suite failed (see $dl/apt-get.log)"
    elif (cd "$dl" && apt-get "${APT_OPTS[@]}" source --download-only -q \
            "$UPSTREAM_DEB_SOURCE=$UPSTREAM_DEB_VERSION" >> "$dl/apt-get.log" 2>&1) \
            && [ -f "$dl/$UPSTREAM_TARBALL_NAME" ]; then
        tarball=$dl/$UPSTREAM_TARBALL_NAME
    else
        offered=$(apt-cache "${APT_OPTS[@]}" showsrc "$UPSTREAM_DEB_SOURCE" 2>/dev/null \
                      | sed -n 's/^Version: //p' | sort -u | paste -sd ' ') || true
        if grep -qF " $UPSTREAM_DEB_VERSION " <<<" $offered "; then
            why="apt-get source $UPSTREAM_DEB_SOURCE=$UPSTREAM_DEB_VERSION failed (see $dl/apt-get.log)"
        else
            why="Debian $src_suite no longer has $UPSTREAM_DEB_SOURCE $UPSTREAM_DEB_VERSION; it offers: ${offered:-no version}"
        fi
    fi
fi

rm -rf "$pristine" "$pristine.tmp"
mkdir -p "$pristine.tmp"
if [ -n "$tarball" ]; then
    verify "$tarball"
    note "unpacking $tarball"
    tar -xf "$tarball" -C "$pristine.tmp"
    mv "$pristine.tmp/$UPSTREAM_TOPDIR" "$pristine"
    rmdir "$pristine.tmp"
else
    [ -n "${UPSTREAM_GIT_COMMIT:-}" ] || die "the pinned upstream source cannot be had.
  $why.
  The release tag is no fallback: make/conf pins no commit for it (UPSTREAM_GIT_COMMIT).
  Pass the pinned release: UPSTREAM_TARBALL=/path/to/$UPSTREAM_TARBALL_NAME (checked against
  the sha256 in make/conf) or UPSTREAM_DIR=/path/to/an/unpacked/tree; or move make/conf to an
  update Debian offers: make update-upstream VERSION=<Debian version> (doc/driver.md)."
    note "$why; trying the release tag"
    note "cloning $UPSTREAM_GIT_URL at $UPSTREAM_GIT_TAG"
    git clone -q --depth 1 --branch "$UPSTREAM_GIT_TAG" "$UPSTREAM_GIT_URL" "$pristine.tmp/src" \
        || die "cannot clone $UPSTREAM_GIT_URL"
    got=$(git -C "$pristine.tmp/src" rev-parse HEAD)
    [ "$got" = "$UPSTREAM_GIT_COMMIT" ] || die "$UPSTREAM_GIT_TAG is $got, expected $UPSTREAM_GIT_COMMIT"
    rm -rf "$pristine.tmp/src/.git"
    mv "$pristine.tmp/src" "$pristine"
    rmdir "$pristine.tmp"
fi
echo "$UPSTREAM_SHA256" > "$stamp"

#!/bin/bash
# Obtains the pinned upstream source and leaves it, verified and unpacked, in $PRISTINE.
# Sources, first that applies: UPSTREAM_DIR (an unpacked tree, used as it is), UPSTREAM_TARBALL,
# a tarball already downloaded into the download cache, `apt-get source`, the release tag.
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
    note "fetching $UPSTREAM_DEB_SOURCE=$UPSTREAM_DEB_VERSION with apt-get source"
    add_suite "${DEBIAN_SOURCE_SUITE:?}" deb-src
    if (cd "$dl" && apt-get source --download-only -q "$UPSTREAM_DEB_SOURCE=$UPSTREAM_DEB_VERSION" >/dev/null 2>&1) \
            && [ -f "$dl/$UPSTREAM_TARBALL_NAME" ]; then
        tarball=$dl/$UPSTREAM_TARBALL_NAME
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
    [ -n "${UPSTREAM_GIT_COMMIT:-}" ] || die "no upstream source: apt-get source failed and the release tag
  has no pinned commit in make/conf; pass UPSTREAM_TARBALL=/path/$UPSTREAM_TARBALL_NAME"
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

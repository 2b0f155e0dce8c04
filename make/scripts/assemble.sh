#!/bin/bash
# Assembles a source tree: pristine upstream, plus (for "patched") the src/ and test/ overlay
# and patches/series applied with no fuzz and no offset. Only files whose content changed are
# written to the destination, so unchanged files keep their timestamps and the JDK's own make
# rebuilds incrementally. The destination's build/ (configure and build output) is kept.
# Usage: assemble.sh patched|baseline PRISTINE DEST
set -euo pipefail
. "$(dirname "$0")/common.sh"

kind=$1 pristine=$2 dest=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
stage=$dest.stage

rm -rf "$stage"
mkdir -p "$(dirname "$dest")"
cp -al "$(readlink -f "$pristine")" "$stage"
rm -f "$stage/.nio-uring-verified"

if [ "$kind" = patched ]; then
    # Overlay: the project's own files, laid out as in the JDK. Replace rather than write
    # through, since the staged files are hard links to the pristine tree.
    (cd "$top" && find src test -type f ! -name '*~' ! -name '.*') | while read -r f; do
        mkdir -p "$stage/$(dirname "$f")"
        cp --remove-destination "$top/$f" "$stage/$f"
    done
    "$top/make/scripts/apply-patches.sh" "$top/patches" "$stage"
fi

mkdir -p "$dest"
rsync -rl --checksum --delete --exclude=/build/ "$stage/" "$dest/"
rm -rf "$stage"

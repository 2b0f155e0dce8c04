#!/bin/bash
# Assembles a source tree: the pristine JDK source, plus (for "patched") the files of src/ and
# test/ and the patches of the series SERIES (a comma-separated prefix of patches/series),
# applied with no fuzz and no offset. Only files whose content changed are
# written to the destination, so unchanged files keep their timestamps and the JDK's own make
# rebuilds incrementally. The destination's build/ (configure and build output) is kept.
# Usage: assemble.sh patched|baseline PRISTINE DEST [SERIES]
set -euo pipefail
. "$(dirname "$0")/common.sh"

kind=$1 pristine=$2 dest=$3 series=${4:-}
top=$(cd "$(dirname "$0")/../.." && pwd)
stage=$dest.stage

rm -rf "$stage"
mkdir -p "$(dirname "$dest")"
cp -al "$(readlink -f "$pristine")" "$stage"
rm -f "$stage/.nio-uring-verified"

if [ "$kind" = patched ]; then
    # Overlay: the series' own files, laid out as in the JDK. Replace rather than write
    # through, since the staged files are hard links to the pristine tree.
    files=$("$top/make/scripts/series.sh" files "$series")
    for f in $files; do
        mkdir -p "$stage/$(dirname "$f")"
        cp --remove-destination "$top/$f" "$stage/$f"
    done
    "$top/make/scripts/apply-patches.sh" "$series" "$stage"
fi

mkdir -p "$dest"
rsync -rl --checksum --delete --exclude=/build/ "$stage/" "$dest/"
rm -rf "$stage"

#!/bin/bash
# Applies the patches of the series SERIES (comma-separated, a prefix of patches/series) to a
# tree with GNU patch, refusing any fuzz or offset.
# Usage: apply-patches.sh SERIES TREE
set -euo pipefail
. "$(dirname "$0")/common.sh"

series=$1 tree=$2
pdir=$(cd "$(dirname "$0")/../../patches" && pwd)
list=$("$(dirname "$0")/series.sh" patches "$series")
for p in $list; do
    [ -f "$pdir/$p" ] || die "patches/${p%%/*}/series names ${p#*/}, which does not exist"
    if ! out=$(patch -d "$tree" -p1 --fuzz=0 --forward --no-backup-if-mismatch -i "$pdir/$p" 2>&1); then
        echo "$out" >&2
        die "patches/$p does not apply"
    fi
    # GNU patch says so for every hunk that did not land exactly where the patch put it.
    if echo "$out" | grep -Eq '(offset -?[0-9]+ line|with fuzz [0-9]+)'; then
        echo "$out" >&2
        die "patches/$p applies only with an offset or fuzz: regenerate it (make refresh-patches)"
    fi
done

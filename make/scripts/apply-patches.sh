#!/bin/bash
# Applies patches/series to a tree with GNU patch, refusing any fuzz or offset.
# Usage: apply-patches.sh PATCHDIR TREE
set -euo pipefail
. "$(dirname "$0")/common.sh"

pdir=$1 tree=$2
[ -f "$pdir/series" ] || exit 0
while read -r p _; do
    case "$p" in ''|'#'*) continue ;; esac
    [ -f "$pdir/$p" ] || die "patches/series names $p, which does not exist"
    if ! out=$(patch -d "$tree" -p1 --fuzz=0 --forward --no-backup-if-mismatch -i "$pdir/$p" 2>&1); then
        echo "$out" >&2
        die "patches/$p does not apply"
    fi
    # GNU patch says so for every hunk that did not land exactly where the patch put it.
    if echo "$out" | grep -Eq '(offset -?[0-9]+ line|with fuzz [0-9]+)'; then
        echo "$out" >&2
        die "patches/$p applies only with an offset or fuzz: regenerate it (make refresh-patches)"
    fi
done < "$pdir/series"

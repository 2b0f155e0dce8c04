#!/bin/bash
# Regenerates patch files from the assembled tree, so that patches are edited as real files:
# edit build/src/patched/<file>, then `make refresh-patches`. Every upstream file belongs to
# exactly one patch. With NEW=name.patch FILES="path ...", starts a new patch for those files
# (DEP-3 header to fill in) and appends it to the series.
# Usage: refresh-patches.sh PATCHDIR PRISTINE TREE
set -euo pipefail
. "$(dirname "$0")/common.sh"

pdir=$1 pristine=$(readlink -f "$2") tree=$3
touch "$pdir/series"

if [ -n "${NEW:-}" ]; then
    [ -n "${FILES:-}" ] || die "NEW=$NEW needs FILES=\"path ...\""
    [ ! -e "$pdir/$NEW" ] || die "$pdir/$NEW exists"
    {
        echo "Description: TODO: what this hook does and why"
        echo "Author: $(git config user.name 2>/dev/null || id -un) <$(git config user.email 2>/dev/null || echo unknown)>"
        echo "Forwarded: not-needed"
        echo "Last-Update: $(date +%Y-%m-%d)"
        echo "---"
        for f in $FILES; do echo "--- a/$f"; done
    } > "$pdir/$NEW"
    echo "$NEW" >> "$pdir/series"
fi

while read -r p _; do
    case "$p" in ''|'#'*) continue ;; esac
    files=$(grep -E '^--- a/' "$pdir/$p" | sed -e 's|^--- a/||' -e 's|[[:space:]].*||' | sort -u)
    header=$(sed -n '1,/^---$/p' "$pdir/$p")
    out=$pdir/$p.new
    printf '%s\n' "$header" > "$out"
    for f in $files; do
        [ -f "$tree/$f" ] || die "$p: $tree/$f is missing"
        diff -uN --label "a/$f" --label "b/$f" "$pristine/$f" "$tree/$f" >> "$out" || true
    done
    if cmp -s "$out" "$pdir/$p"; then rm -f "$out"; else mv "$out" "$pdir/$p"; note "refreshed patches/$p"; fi
done < "$pdir/series"

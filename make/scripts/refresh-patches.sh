#!/bin/bash
# Regenerates patch files from the assembled tree, so that patches are edited as real files:
# edit build/src/patched/<file>, then `make refresh-patches`. A file that several patches
# change belongs to the last of them in the series: the earlier ones keep their hunks for it
# as they are, and the last one gets the difference between the file they produce and the
# tree. With NEW=series/name.patch FILES="path ...", starts a new patch for those files (DEP-3
# header to fill in) and appends it to that series. TREE holds every series.
# Usage: refresh-patches.sh PATCHDIR PRISTINE TREE
set -euo pipefail
. "$(dirname "$0")/common.sh"

pdir=$1 pristine=$(readlink -f "$2") tree=$3

if [ -n "${NEW:-}" ]; then
    [ -n "${FILES:-}" ] || die "NEW=$NEW needs FILES=\"path ...\""
    [ ! -e "$pdir/$NEW" ] || die "$pdir/$NEW exists"
    [ -f "$pdir/$(dirname "$NEW")/series" ] || die "NEW=$NEW: no series $(dirname "$NEW") in $pdir"
    {
        echo "Description: TODO: what this hook does and why"
        echo "Author: nio-uring contributors"
        echo "Forwarded: not-needed"
        echo "Last-Update: $(date +%Y-%m-%d)"
        echo "---"
        for f in $FILES; do echo "--- a/$f"; done
    } > "$pdir/$NEW"
    basename "$NEW" >> "$pdir/$(dirname "$NEW")/series"
fi

files_of() {
    grep -E '^--- a/' "$1" | sed -e 's|^--- a/||' -e 's|[[:space:]].*||' | sort -u
}

# the hunks of one file in a patch
hunks_of() {
    awk -v f="--- a/$2" '/^--- a\// { on = ($0 == f || index($0, f "\t") == 1) } on' "$1"
}

series=$("$(dirname "$0")/series.sh" patches "$("$(dirname "$0")/series.sh" all)")

# stage/<file>: the file as the patches so far in the series leave it
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

for p in $series; do
    header=$(sed -n '1,/^---$/p' "$pdir/$p")
    out=$pdir/$p.new
    printf '%s\n' "$header" > "$out"
    later=$(for q in $(echo "$series" | awk -v p="$p" 'after; $0 == p { after = 1 }'); do
                files_of "$pdir/$q"; done | sort -u)
    for f in $(files_of "$pdir/$p"); do
        [ -f "$tree/$f" ] || die "$p: $tree/$f is missing"
        if [ ! -f "$stage/$f" ]; then
            mkdir -p "$stage/$(dirname "$f")"
            if [ -f "$pristine/$f" ]; then cp "$pristine/$f" "$stage/$f"; else : > "$stage/$f"; fi
        fi
        if grep -qx "$f" <<<"$later"; then
            # a later patch owns this file: keep these hunks, and apply them
            hunks_of "$pdir/$p" "$f" > "$stage/.hunks"
            cat "$stage/.hunks" >> "$out"
            patch -s --fuzz=0 -o "$stage/.next" "$stage/$f" "$stage/.hunks" >/dev/null \
                || die "$p: its hunks for $f no longer apply"
            mv "$stage/.next" "$stage/$f"
        else
            diff -uN --label "a/$f" --label "b/$f" "$stage/$f" "$tree/$f" >> "$out" || true
            cp "$tree/$f" "$stage/$f"
        fi
    done
    if cmp -s "$out" "$pdir/$p"; then rm -f "$out"; else mv "$out" "$pdir/$p"; note "refreshed patches/$p"; fi
done

#!/bin/bash
# Checks patches/series against pristine upstream: every patch carries a DEP-3 header and the
# series applies with no fuzz and no offset. Usage: check-patches.sh PATCHDIR PRISTINE
set -euo pipefail
. "$(dirname "$0")/common.sh"

pdir=$1 pristine=$2
fail=0
n=0
[ -f "$pdir/series" ] || die "no $pdir/series"
while read -r p _; do
    case "$p" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    [ -f "$pdir/$p" ] || { echo "$p: listed in series but missing"; fail=1; continue; }
    header=$(sed -n '1,/^\(---\|diff\|Index:\) /p' "$pdir/$p")
    for field in Description Author Forwarded Last-Update; do
        echo "$header" | grep -q "^$field:" || { echo "$p: DEP-3 header lacks $field:"; fail=1; }
    done
    if echo "$header" | grep -q 'JDK-[0-9]' && ! echo "$header" | grep -q '^Bug:'; then
        echo "$p: names a JBS issue but has no Bug: field"; fail=1
    fi
done < "$pdir/series"
for f in "$pdir"/*.patch; do
    [ -e "$f" ] || continue
    grep -qx "$(basename "$f")" <(sed 's/[[:space:]].*//' "$pdir/series") \
        || { echo "$(basename "$f"): not listed in series"; fail=1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -al "$(readlink -f "$pristine")" "$tmp/tree"
if ! "$(dirname "$0")/apply-patches.sh" "$pdir" "$tmp/tree"; then
    fail=1
fi
[ $fail = 0 ] || die "check-patches failed"
note "check-patches: $n patches apply to $(basename "$(readlink -f "$pristine")") with no fuzz and no offset, DEP-3 headers present"

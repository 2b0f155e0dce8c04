#!/bin/bash
# Checks the patch series against the pristine JDK source: every patch carries a DEP-3 header,
# every patch file is listed in its series, every file of src/ and test/ belongs to exactly one
# series, and the series apply in order with no fuzz and no offset.
# Usage: check-patches.sh PATCHDIR PRISTINE
set -euo pipefail
. "$(dirname "$0")/common.sh"

pdir=$1 pristine=$2
fail=0
all=$("$(dirname "$0")/series.sh" all)
list=$("$(dirname "$0")/series.sh" patches "$all")
n=0
for p in $list; do
    n=$((n + 1))
    [ -f "$pdir/$p" ] || { echo "$p: listed in series but missing"; fail=1; continue; }
    header=$(sed -n '1,/^\(---\|diff\|Index:\) /p' "$pdir/$p")
    for field in Description Author Forwarded Last-Update; do
        grep -q "^$field:" <<<"$header" || { echo "$p: DEP-3 header lacks $field:"; fail=1; }
    done
    grep -q '^Author: nio-uring contributors' <<<"$header" \
        || { echo "$p: Author: is not the project's (nio-uring contributors)"; fail=1; }
    if grep -q 'JDK-[0-9]' <<<"$header" && ! grep -q '^Bug:' <<<"$header"; then
        echo "$p: names a JBS issue but has no Bug: field"; fail=1
    fi
done
for f in "$pdir"/*/*.patch "$pdir"/*.patch; do
    [ -e "$f" ] || continue
    rel=${f#"$pdir"/}
    grep -qx "$rel" <<<"$list" || { echo "$rel: not listed in a series"; fail=1; }
done
"$(dirname "$0")/series.sh" check || fail=1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -al "$(readlink -f "$pristine")" "$tmp/tree"
if ! "$(dirname "$0")/apply-patches.sh" "$all" "$tmp/tree"; then
    fail=1
fi
[ $fail = 0 ] || die "check-patches failed"
note "check-patches: $n patches in ${all//,/, } apply to $(basename "$(readlink -f "$pristine")") with no fuzz and no offset, DEP-3 headers present"

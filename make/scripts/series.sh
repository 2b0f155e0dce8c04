#!/bin/bash
# The patch series of patches/series and what belongs to each.
#   series.sh all                   every series of patches/series, comma-separated
#   series.sh check-prefix SERIES   SERIES (comma-separated) is a prefix of patches/series
#   series.sh patches SERIES        the patch files, in the order they apply
#   series.sh files SERIES          the project's files under src/ and test/ of those series
#   series.sh tests SERIES          jtreg selections: their tests, then the JDK's tests guarding them
#   series.sh check                 every file under src/ and test/ is in exactly one series
set -euo pipefail
. "$(dirname "$0")/common.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
pdir=$top/patches

# lines of a list file without comments and blank lines
entries() { sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1"; }

all=$(entries "$pdir/series")

selected() {
    local want=${1//,/ } i=0 s
    set -- $all
    for s in $want; do
        [ $# -gt 0 ] && [ "$1" = "$s" ] \
            || die "SERIES=${want// /,}: not a prefix of the series in patches/series ($(echo $all | tr ' ' ,))"
        shift
    done
    echo "$want"
}

case $1 in all|check) ;; *) sel=$(selected "${2:-}") ;; esac
case $1 in
    all) echo $all | tr ' ' , ;;
    check-prefix) ;;
    patches) for s in $sel; do entries "$pdir/$s/series" | sed "s|^|$s/|"; done ;;
    files) for s in $sel; do entries "$pdir/$s/files"; done ;;
    tests)
        for s in $sel; do
            entries "$pdir/$s/files" | sed -n 's|^test/jdk/||p' | while read -r f; do
                if grep -q "@test" "$top/test/jdk/$f"; then echo "$f"; fi
            done
        done
        for s in $sel; do entries "$pdir/$s/jdk-tests"; done ;;
    check)
        fail=0
        listed=$(for s in $all; do entries "$pdir/$s/files"; done | sort)
        dup=$(echo "$listed" | uniq -d)
        [ -z "$dup" ] || { echo "in more than one series: $dup"; fail=1; }
        have=$(cd "$top" && find src test -type f ! -name '*~' ! -name '.*' | sort)
        missing=$(comm -23 <(echo "$have") <(echo "$listed" | uniq))
        [ -z "$missing" ] || { echo "in no series' files list: $missing"; fail=1; }
        gone=$(comm -13 <(echo "$have") <(echo "$listed" | uniq))
        [ -z "$gone" ] || { echo "listed but missing: $gone"; fail=1; }
        [ $fail = 0 ] || die "patches/*/files do not match src/ and test/" ;;
    *) die "series.sh: no such command $1" ;;
esac

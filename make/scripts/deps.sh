#!/bin/bash
# Installs what building, testing and benchmarking need on Debian 12, and nothing when it is
# all there. Usage: deps.sh DEPS_DIR NEXT_SUITE JMH_ARTIFACTS...
set -euo pipefail
. "$(dirname "$0")/common.sh"

deps_dir=$1 suite=$2
shift 2

packages="autoconf make zip unzip file rsync patch build-essential ccache
  libasound2-dev libcups2-dev libfontconfig1-dev libx11-dev libxext-dev libxrender-dev
  libxrandr-dev libxtst-dev libxt-dev libgif-dev liblcms2-dev libharfbuzz-dev
  libfreetype-dev libjpeg-dev libpng-dev zlib1g-dev libpcsclite-dev
  liburing-dev maven fio gnuplot-nox python3 dpkg-dev gcc-mingw-w64-x86-64"

missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
    note "installing:$missing"
    as_root apt-get update -q >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null
fi

# jtreg 8.1 (JDK 26's tests need it) comes from the next Debian suite; only jtreg8 itself is
# taken from there, its dependencies come from this release where it has them.
if [ ! -e /usr/share/jtreg/lib/jtreg.jar ]; then
    add_suite "$suite" deb
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "jtreg8/$suite" >/dev/null
fi

# JMH and its dependencies, from Maven Central, as the jar directory configure's --with-jmh wants.
mkdir -p "$deps_dir/jmh"
for a in "$@"; do
    IFS=: read -r g n v <<<"$a"
    [ -e "$deps_dir/jmh/$n-$v.jar" ] && continue
    note "fetching $a"
    mvn -q -B -Dstyle.color=never dependency:copy -Dartifact="$a" -DoutputDirectory="$deps_dir/jmh" >"$deps_dir/mvn.log" 2>&1 \
        || die "mvn could not fetch $a (see $deps_dir/mvn.log)"
done

#!/bin/bash
# Installs what building and testing need on Debian 12, and nothing when it is all there.
# With --for, installs instead the tool of one optional target: fio (make fio), gnuplot (the
# charts of make compare), mingw (make check-windows).
# Usage: deps.sh DEPS_DIR NEXT_SUITE JMH_ARTIFACTS...
#        deps.sh --for fio|gnuplot|mingw
set -euo pipefail
. "$(dirname "$0")/common.sh"

if [ "${1:-}" = --for ]; then
    case $2 in
        fio) install_packages fio ;;
        gnuplot) install_packages gnuplot-nox ;;
        mingw) install_packages gcc-mingw-w64-x86-64 ;;
        *) die "deps.sh --for $2: no such tool" ;;
    esac
    exit 0
fi

deps_dir=$1 suite=$2
shift 2

# Maven is here because configure's --with-jmh checks that the JMH jars exist (and records
# their paths), and the configure arguments must not change between `make`, `make test` and
# `make micro`: a different configuration rebuilds the whole JDK. dpkg-dev is for apt-get source.
install_packages autoconf make zip unzip file rsync patch build-essential ccache \
    libasound2-dev libcups2-dev libfontconfig1-dev libx11-dev libxext-dev libxrender-dev \
    libxrandr-dev libxtst-dev libxt-dev libgif-dev liblcms2-dev libharfbuzz-dev \
    libfreetype-dev libjpeg-dev libpng-dev zlib1g-dev libpcsclite-dev \
    liburing-dev maven python3 dpkg-dev

# jtreg 8.1 (JDK 26's tests need it) comes from the next Debian suite, added for this one
# install only; only jtreg8 itself is taken from there, its dependencies come from this release
# where it has them.
if [ ! -e /usr/share/jtreg/lib/jtreg.jar ]; then
    suite_apt_opts "$suite" deb
    note "installing jtreg8 from Debian $suite"
    as_root apt-get "${APT_OPTS[@]}" update -q >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" install -y -q \
        --no-install-recommends "jtreg8/$suite" >/dev/null
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

#!/bin/bash
# Installs what building and testing need on Debian 12 or 13, and nothing when it is all there:
# also the boot JDK where none is found and the release packages one (Debian 13's openjdk-25).
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

# The boot JDK, unless BOOT_JDK names one: when boot-jdk.sh finds none (JAVA_HOME,
# /usr/lib/jvm), this release's JDK 25 or 26 package where it has one (Debian 13:
# openjdk-25-jdk-headless), installed into /usr/lib/jvm where boot-jdk.sh then finds it.
# Debian 12 has neither; there boot-jdk.sh stops at configure time and says what to do.
if [ -z "${BOOT_JDK:-}" ] && ! "$(dirname "$0")/boot-jdk.sh" >/dev/null 2>&1; then
    for p in openjdk-25-jdk-headless openjdk-26-jdk-headless; do
        package_available "$p" || continue
        note "no JDK 25 or 26 in JAVA_HOME or /usr/lib/jvm: installing this release's $p as the boot JDK"
        install_packages "$p"
        break
    done
fi

# jtreg 8 (JDK 26's tests need it): jtreg8 of this release where it has one (Debian 13), else
# from the next Debian suite, added for this one install only (Debian 12); only jtreg8 itself
# is taken from there, its dependencies come from this release where it has them.
if [ ! -e /usr/share/jtreg/lib/jtreg.jar ]; then
    if package_available jtreg8; then
        install_packages jtreg8
    else
        suite_apt_opts "$suite" deb
        note "installing jtreg8 from Debian $suite"
        as_root apt-get "${APT_OPTS[@]}" update -q >/dev/null
        as_root env DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" install -y -q \
            --no-install-recommends "jtreg8/$suite" >/dev/null
    fi
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

#!/bin/bash
# Prints the boot JDK for configure: BOOT_JDK if set, else JAVA_HOME, else the first JDK under
# /usr/lib/jvm, each only if it is a JDK (java and javac) of feature release 25 or 26. Stops with
# what to do when there is none: the driver installs no JDK, because Debian 12 packages none of
# these releases and the ones of later Debian releases would upgrade the C library.
# Usage: boot-jdk.sh
set -euo pipefail
. "$(dirname "$0")/common.sh"

# the feature release of the JDK at $1 (25 for "25.0.3"), or nothing if it is not a JDK
feature_of() {
    [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 0
    "$1/bin/java" -version 2>&1 | sed -n '1s/^[^"]*"\([0-9]*\).*/\1/p'
}

usable() {
    case "$(feature_of "$1")" in 25|26) return 0 ;; *) return 1 ;; esac
}

if [ -n "${BOOT_JDK:-}" ]; then
    usable "$BOOT_JDK" || die "BOOT_JDK=$BOOT_JDK is not a JDK 25 or 26 (bin/java and bin/javac)"
    echo "$BOOT_JDK"
    exit 0
fi
if [ -n "${JAVA_HOME:-}" ]; then
    if usable "$JAVA_HOME"; then
        echo "$JAVA_HOME"
        exit 0
    fi
    note "JAVA_HOME=$JAVA_HOME is not a JDK 25 or 26, looking in /usr/lib/jvm" >&2
fi
for d in /usr/lib/jvm/*; do
    [ -d "$d" ] && [ ! -L "$d" ] || continue
    if usable "$d"; then
        echo "$d"
        exit 0
    fi
done
die "no boot JDK: building JDK 26 needs a JDK 25 or 26, and none was found in BOOT_JDK,
  JAVA_HOME or /usr/lib/jvm. Unpack a JDK 25 tarball (Temurin, Oracle or any other OpenJDK
  build for Linux x64) anywhere and pass its directory:
      make BOOT_JDK=/path/to/jdk-25
  or install a distribution's JDK 25 package into /usr/lib/jvm. The driver installs none
  itself: Debian 12 has no JDK 25 or 26, and Debian 13's openjdk-25 would upgrade the C library."

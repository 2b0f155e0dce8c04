#!/bin/bash
# Prints the boot JDK for configure: BOOT_JDK if set, else JAVA_HOME, else the first JDK under
# /usr/lib/jvm, each only if it is a JDK (java and javac) of feature release 25 or 26. Stops with
# what to do when there is none. deps.sh (run before) has already installed the release's JDK 25
# or 26 package where there is one (Debian 13); Debian 12 has none, so there it is up to the user.
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
  or install a vendor's JDK 25 package into /usr/lib/jvm. Where the distribution packages a
  JDK 25 or 26 (Debian 13: openjdk-25-jdk-headless) make installs it itself; apt on this
  machine ($(. /etc/os-release && echo "${PRETTY_NAME:-?}")) offers none."

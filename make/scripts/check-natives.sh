#!/bin/bash
# Syntax-checks the project's native files that a Linux build does not compile: those under
# src/*/windows/native with the MinGW-w64 cross compiler against the JDK's Windows headers, and
# those under src/*/unix/native that a same-named file under src/*/linux/native replaces on Linux,
# and the Linux files that use liburing as a build without it compiles them.
# Needs the JNI headers that a build of TREE generated (run `make` first).
# Usage: check-natives.sh TREE
set -euo pipefail
. "$(dirname "$0")/common.sh"

tree=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
headers=$tree/build/release/support/headers
[ -d "$headers/java.base" ] || die "no generated JNI headers in $headers: run make first"
mingw=x86_64-w64-mingw32-gcc
command -v $mingw >/dev/null || die "$mingw not found (make check-windows installs it: gcc-mingw-w64-x86-64)"

incs() {  # os module lib -> -I flags as the JDK build has them for that library
    local os=$1 m=$2 lib=$3
    for d in share/native/include $os/native/include share/native/libjava $os/native/libjava \
             share/native/$lib share/native/$lib/ch $os/native/$lib $os/native/$lib/ch; do
        [ -d "$tree/src/$m/$d" ] && echo "-I$tree/src/$m/$d"
    done
    echo "-I$headers/$m -I$tree/src/hotspot/share/include -I$tree/build/release/support/modules_include/$m"
    [ "$os" = windows ] && echo "-I$tree/src/hotspot/os/windows/include" \
                        || echo "-I$tree/src/hotspot/os/posix/include"
}

n=0
while read -r f; do
    lib=$(echo "$f" | sed -n 's|^src/[^/]*/windows/native/\([^/]*\)/.*|\1|p')
    m=$(echo "$f" | cut -d/ -f2)
    # shellcheck disable=SC2046
    $mingw -fsyntax-only -Wall -Werror -DWIN32 -D_WIN64 -D_WINDOWS -D_LITTLE_ENDIAN \
        $(incs windows "$m" "$lib") "$top/$f"
    note "check-natives: $f (mingw, windows headers) ok"
    n=$((n + 1))
done < <(cd "$top" && find src -path '*/windows/native/*' -name '*.c' | sort)

while read -r f; do
    linux=$(echo "$f" | sed 's|/unix/native/|/linux/native/|')
    [ -f "$top/$linux" ] || continue
    lib=$(echo "$f" | sed -n 's|^src/[^/]*/unix/native/\([^/]*\)/.*|\1|p')
    m=$(echo "$f" | cut -d/ -f2)
    # shellcheck disable=SC2046
    gcc -fsyntax-only -Wall -Werror -D_GNU_SOURCE -D_REENTRANT $(incs unix "$m" "$lib") "$top/$f"
    note "check-natives: $f (gcc, replaced by $linux on Linux) ok"
    n=$((n + 1))
done < <(cd "$top" && find src -path '*/unix/native/*' -name '*.c' | sort)
# Linux files that use liburing, as a build configured with --disable-io-uring (or without
# liburing) compiles them: NIO_URING undefined, no liburing header needed.
while read -r f; do
    lib=$(echo "$f" | sed -n 's|^src/[^/]*/linux/native/\([^/]*\)/.*|\1|p')
    m=$(echo "$f" | cut -d/ -f2)
    # shellcheck disable=SC2046
    gcc -fsyntax-only -Wall -Werror -D_GNU_SOURCE -D_REENTRANT -UNIO_URING \
        $(incs linux "$m" "$lib") $(incs unix "$m" "$lib") "$top/$f"
    note "check-natives: $f (gcc, without NIO_URING) ok"
    n=$((n + 1))
done < <(cd "$top" && grep -rl 'NIO_URING' --include='*.c' src/*/linux/native | sort)
note "check-natives: $n files"

# Shared helpers for the nio-uring driver scripts. Sourced, not run.

die() { echo "nio-uring: error: $*" >&2; exit 1; }
note() { echo "nio-uring: $*"; }

# Run a command as root: directly, through sudo, or not at all (then say what to run).
as_root() {
    if [ "$(id -u)" = 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo "$@"
    else
        die "cannot install as $(id -un); run as root:  $*"
    fi
}

# The Debian archive URI this machine already uses for its own suite, so that an extra suite
# comes from the same mirror.
debian_mirror() {
    local uri
    uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null \
              | awk '{print $2}' | grep -v -- '-security' | head -n 1)
    [ -n "$uri" ] || uri=$(grep -hs '^deb ' /etc/apt/sources.list 2>/dev/null \
              | awk '{print $2}' | grep -v -- '-security' | head -n 1)
    [ -n "$uri" ] || die "no Debian archive found in the apt sources"
    echo "$uri"
}

# Adds a Debian suite from the same mirror, once: TYPES "deb" (binary packages, pinned at
# priority 100 so that only what is asked for by name comes from it) or "deb-src" (sources).
add_suite() {
    local suite=$1 types=$2 list=/etc/apt/sources.list.d/nio-uring-$1.sources
    if [ -f "$list" ] && grep -qx "Types: $types" "$list"; then
        return 0
    fi
    local uri
    uri=$(debian_mirror)
    note "adding Debian $suite ($types) from $uri"
    printf 'Types: %s\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$types" "$uri" "$suite" | as_root tee "$list" >/dev/null
    if [ "$types" = deb ]; then
        printf 'Package: *\nPin: release n=%s\nPin-Priority: 100\n' "$suite" \
            | as_root tee /etc/apt/preferences.d/nio-uring-"$suite" >/dev/null
    fi
    as_root apt-get update -q >/dev/null
}

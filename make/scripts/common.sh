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

# Adds Debian's next suite (binary and source) with a low pin, once.
add_next_suite() {
    local suite=$1 list=/etc/apt/sources.list.d/nio-uring-$1.sources
    if [ -f "$list" ] && grep -q '^Types: deb deb-src' "$list"; then
        return 0
    fi
    local uri
    uri=$(debian_mirror)
    note "adding Debian $suite (pin priority 100) from $uri"
    printf 'Types: deb deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$uri" "$suite" | as_root tee "$list" >/dev/null
    printf 'Package: *\nPin: release n=%s\nPin-Priority: 100\n' "$suite" \
        | as_root tee /etc/apt/preferences.d/nio-uring-"$suite" >/dev/null
    as_root apt-get update -q >/dev/null
}

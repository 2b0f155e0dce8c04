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

# Installs the Debian packages named that are not installed yet.
install_packages() {
    local p missing=""
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
    done
    [ -n "$missing" ] || return 0
    note "installing:$missing"
    as_root apt-get update -q >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null
}

# True when this machine's apt sources offer the package (it has an install candidate). grep
# reads all (no -q): apt-cache must not die of SIGPIPE under pipefail.
package_available() {
    apt-cache policy "$1" 2>/dev/null | grep '^ *Candidate: [^(]' >/dev/null
}

# The archive URI of this machine's own Debian release (VERSION_CODENAME in /etc/os-release),
# read from its apt sources: one-line entries in sources.list and sources.list.d/*.list,
# deb822 stanzas in sources.list.d/*.sources. Another suite is taken from the same archive.
debian_mirror() {
    local codename uri
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    [ -n "$codename" ] || die "/etc/os-release names no release codename"
    uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
              | sed -e 's/#.*//' -e 's/\[[^]]*\]//' \
              | awk -v s="$codename" '$1 == "deb" && $3 == s { print $2; exit }')
    if [ -z "$uri" ]; then
        uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v s="$codename" '
            BEGIN { RS = ""; FS = "\n" }
            {
                delete f
                for (i = 1; i <= NF; i++) {
                    if ($i ~ /^[[:space:]]*#/ || $i !~ /:/) continue
                    k = tolower($i); sub(/[[:space:]]*:.*/, "", k)
                    v = $i; sub(/^[^:]*:[[:space:]]*/, "", v)
                    f[k] = " " v " "
                }
                if (f["types"] ~ / deb / && f["suites"] ~ (" " s " ") && f["enabled"] !~ / no /) {
                    split(f["uris"], u, " "); print u[1]; exit
                }
            }')
    fi
    [ -n "$uri" ] || die "no Debian archive for $codename found in /etc/apt's sources"
    echo "$uri"
}

# Sets APT_OPTS: options that give apt-get and apt-cache one more Debian suite, from the same
# archive as the machine's own release, for the one command they are passed to. TYPES is
# "deb-src" (that suite's sources only) or "deb" (the machine's own sources plus that suite's
# binary packages, pinned at priority 100 so that only what is asked for by name comes from
# it, and their dependencies from the machine's release where it has them). The sources list,
# preferences, package indices and caches are private, under $BUILD_DIR/apt/SUITE-TYPES;
# /etc/apt is read, never written. Run `apt-get "${APT_OPTS[@]}" update` before the first use.
suite_apt_opts() {
    local suite=$1 types=$2
    local dir=${BUILD_DIR:?}/apt/$suite-$types
    local line="$types [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(debian_mirror) $suite main"
    mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/sources.list.d"
    APT_OPTS=(-o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::State::Lists=$dir/lists"
              -o "Dir::Cache=$dir/cache")
    if [ "$types" = deb ]; then
        { cat /etc/apt/sources.list 2>/dev/null || true; echo "$line"; } > "$dir/sources.list"
        { cat /etc/apt/preferences 2>/dev/null && echo || true
          printf 'Package: *\nPin: release n=%s\nPin-Priority: 100\n' "$suite"; } > "$dir/preferences"
        APT_OPTS+=(-o "Dir::Etc::Preferences=$dir/preferences")
        # the machine's own indices as a start, so that an update fetches only what changed
        if [ ! -e "$dir/lists/.seeded" ]; then
            find /var/lib/apt/lists -maxdepth 1 -type f -name '*_*' -exec cp -p {} "$dir/lists/" \;
            touch "$dir/lists/.seeded"
        fi
    else
        echo "$line" > "$dir/sources.list"
        APT_OPTS+=(-o "Dir::Etc::SourceParts=$dir/sources.list.d")
    fi
}

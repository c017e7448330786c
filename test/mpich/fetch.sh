#!/bin/sh
# fetch.sh DIR: unpacks MPICH 4.0.2's sources (for its test suite,
# test/mpi) from Debian's `mpich` source package into DIR, once. The
# sources stay outside rdmpi's tree: rdmpi only runs them. Adds a deb-src
# entry for the mirror of the machine's existing Debian source, installs
# dpkg-dev if it is missing, and needs root (or sudo) for both.
# Prints the path of the unpacked tree on stdout.
set -e
dir=${1:?usage: fetch.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

found=$(ls -d "$dir"/mpich-4.0.2/test/mpi 2>/dev/null || true)
if [ -n "$found" ]; then
    echo "$dir/mpich-4.0.2"
    exit 0
fi

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
say() { echo "fetch: $*" >&2; }

# A deb-src entry for the same mirror and suites as the machine's Debian
# entry (deb822 .sources on Debian 12, a one-line list before that).
have_src() {
    grep -qs '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources ||
        grep -qs '^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list
}
if ! have_src; then
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        say "adding deb-src for $(sed -n 's/^URIs: //p' /etc/apt/sources.list.d/debian.sources | head -1)"
        # The first stanza is the main archive (security has no mpich).
        awk 'BEGIN { RS=""; ORS="\n\n" } NR == 1 { sub(/Types: deb/, "Types: deb-src"); print }' \
            /etc/apt/sources.list.d/debian.sources |
            $SUDO tee /etc/apt/sources.list.d/debian-src.sources >/dev/null
    elif grep -qs '^deb ' /etc/apt/sources.list; then
        say "adding deb-src lines to /etc/apt/sources.list.d/debian-src.list"
        sed -n 's/^deb \(.*debian\/* .*\)$/deb-src \1/p' /etc/apt/sources.list |
            grep -v security | $SUDO tee /etc/apt/sources.list.d/debian-src.list >/dev/null
    else
        say "no Debian apt source found to mirror for deb-src"
        exit 1
    fi
    $SUDO apt-get update -qq
fi
if ! command -v dpkg-source >/dev/null 2>&1; then
    say "installing dpkg-dev"
    $SUDO apt-get install -y -qq --no-install-recommends dpkg-dev >/dev/null
fi

# The source package of the installed MPICH (4.0.2 on Debian 12).
tmp=$dir/.fetch.$$
rm -rf "$tmp"
mkdir -p "$tmp"
say "apt-get source mpich=4.0.2 into $dir"
if ! (cd "$tmp" && apt-get source -qq --download-only mpich=4.0.2-3 >&2 ||
      apt-get source -qq --download-only mpich >&2); then
    # The index may be stale since the entry was added by someone else.
    $SUDO apt-get update -qq
    (cd "$tmp" && apt-get source -qq --download-only mpich >&2)
fi
orig=$(ls "$tmp"/mpich_4.0.2.orig.tar.* 2>/dev/null | head -1)
[ -n "$orig" ] || { say "no mpich_4.0.2.orig tarball in the source package"; exit 1; }
# Only the test suite and what its configure needs; the upstream tarball
# as released (Debian's patches touch the library, not test/mpi).
tar -C "$tmp" -xf "$orig" mpich-4.0.2/test/mpi mpich-4.0.2/confdb 2>/dev/null ||
    tar -C "$tmp" -xf "$orig"
mv "$tmp"/mpich-4.0.2 "$dir"/
mv "$tmp"/*.orig.tar.* "$tmp"/*.dsc "$dir"/ 2>/dev/null || true
rm -rf "$tmp"
echo "$dir/mpich-4.0.2"

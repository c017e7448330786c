#!/bin/sh
# Installs the Debian packages rdmpi needs to build and test. Idempotent:
# packages already present are not touched. Needs root (or sudo).
set -e
PKGS="build-essential autoconf automake libtool pkg-config
      libpmix-dev libhwloc-dev libibverbs-dev librdmacm-dev libcunit1-dev
      gfortran mpich libmpich-dev openmpi-bin libopenmpi-dev
      iproute2 procps python3 clang libclang-rt-14-dev meson ninja-build man-db"
missing=
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null

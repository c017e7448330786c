#!/bin/sh
# MPICH binary compatibility: builds the MPI test programs with Debian's
# MPICH compiler wrapper (mpicc.mpich, against MPICH's own mpi.h), then runs
# them with rdmpi's mpirun and rdmpi's library found first under the name
# MPICH binaries ask for (libmpich.so.12). Every case must pass as it does
# when built against rdmpi.
set -u
top_srcdir=$(cd "${srcdir:-.}" && pwd)
top_builddir=$(pwd)
lib=$top_builddir/.libs/libmpi.so.12
mpirun=$top_builddir/mpirun/mpirun

if ! command -v mpicc.mpich >/dev/null 2>&1; then
    echo "mpich-binaries: mpicc.mpich not found; install it with: apt-get install mpich libmpich-dev" >&2
    exit 1
fi
[ -f "$lib" ] || { echo "mpich-binaries: $lib not built" >&2; exit 1; }

tmp=$(mktemp -d /tmp/rdmpi-mpich-abi.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/bin" "$tmp/lib"
ln -s "$lib" "$tmp/lib/libmpich.so.12"

sh "$top_srcdir/test/mpi/build-with.sh" mpicc.mpich "$tmp/bin" >/dev/null || {
    echo "mpich-binaries: building the tests with mpicc.mpich failed" >&2
    exit 1
}

# The binaries really are MPICH's and really load our library.
probe=$tmp/bin/init_basic
if ! readelf -d "$probe" | grep -q 'NEEDED.*libmpich.so.12'; then
    echo "mpich-binaries: $probe does not link libmpich.so.12" >&2
    exit 1
fi
resolved=$(LD_LIBRARY_PATH=$tmp/lib ldd "$probe" | awk '/libmpich.so.12/ {print $3}')
if [ "$(readlink -f "$resolved")" != "$(readlink -f "$lib")" ]; then
    echo "mpich-binaries: libmpich.so.12 resolves to $resolved, not rdmpi's $lib" >&2
    exit 1
fi

LD_LIBRARY_PATH=$tmp/lib MPI_TEST_DIR=$tmp/bin MPIRUN=$mpirun \
    bash "$top_srcdir/test/mpi/runtests.sh" "$@"

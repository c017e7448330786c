#!/bin/sh
# abi-fortran.sh: Fortran programs built by MPICH (mpif90.mpich, MPICH's
# mpif.h and mpi module, linked to libmpichfort.so.12 and libmpich.so.12)
# run unchanged on rdmpi: the loader is pointed at libmpifort and libmpi
# under MPICH's sonames, and the cases of fortran.testlist are run with
# rdmpi's mpirun. Needs mpif90.mpich (scripts/deps.sh installs it).
# Under "make check" the current directory is top_builddir.
srcdir=$(cd "${srcdir:-$(dirname "$0")/../..}" && pwd)
fc=${MPICH_FC:-mpif90.mpich}
if ! command -v "$fc" >/dev/null 2>&1; then
    echo "abi-fortran: $fc not found; install it with: apt-get install mpich libmpich-dev" >&2
    exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-fabi.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
t=$srcdir/test/fortran
flags=-fallow-argument-mismatch
(
    cd "$work" || exit 1
    $fc $flags -c "$t/ftest.f90" || exit 1
    for p in f_env f_p2p f_comm f_dtype f_coll f_waitany; do
        $fc $flags "$t/$p.f90" ftest.o -o $p || exit 1
    done
    $fc $flags "$t/f_usempi.f90" -o f_usempi &&
    $fc $flags "$t/f_usempi_coll.f90" -o f_usempi_coll &&
    $fc $flags "$t/f_rma.f90" -o f_rma &&
    $fc $flags -ffixed-form "$t/f77_basic.f" -o f77_basic
) >"$work/build.log" 2>&1 || { cat "$work/build.log"; echo "FAIL: building with $fc"; exit 1; }

mkdir "$work/lib"
ln -s "$PWD/.libs/libmpifort.so.12" "$work/lib/libmpichfort.so.12"
ln -s "$PWD/.libs/libmpi.so.12" "$work/lib/libmpich.so.12"
LD_LIBRARY_PATH=$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} MPI_TEST_DIR=$work \
    bash "$srcdir/test/mpi/runtests.sh" -l "$t/fortran.testlist"

#!/bin/sh
# run-fortran-tests.sh: run the Fortran test programs of fortran.testlist
# and f08.testlist with test/mpi/runtests.sh (same options and environment,
# see there).
# Under "make check" the current directory is top_builddir.
srcdir=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
MPI_TEST_DIR=${MPI_TEST_DIR:-$PWD/test/fortran}
export MPI_TEST_DIR
exec bash "$srcdir/test/mpi/runtests.sh" "$@" "$srcdir/test/fortran/fortran.testlist" \
    "$srcdir/test/fortran/f08.testlist"

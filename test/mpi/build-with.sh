#!/bin/sh
# build-with.sh CC OUTDIR: build every test/mpi program with the MPI compiler
# wrapper CC (e.g. mpicc.mpich, mpicc.openmpi, an installed rdmpi mpicc) into
# OUTDIR. Used to validate the tests against other MPIs and to build them
# against the MPICH ABI:
#   test/mpi/build-with.sh mpicc.mpich /tmp/t && \
#   MPI_TEST_DIR=/tmp/t MPIRUN=mpirun.mpich RUNTESTS_IMPL=mpich test/mpi/runtests.sh -j 2
set -e
if [ $# -ne 2 ]; then
    echo "usage: $0 CC OUTDIR" >&2
    exit 2
fi
cc=$1
out=$2
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# Programs marked only=rdmpi (they use rdmpi internals) are left out.
progs=$(cat "$src"/*.testlist | grep -v ' only=rdmpi' |
        sed -n 's/^\([a-z_0-9]*\) .*/\1/p' | sort -u)
for p in $progs; do
    $cc -O1 -g -Wall -Wextra -Wno-unused-parameter -Wno-stringop-overflow \
        -I"$src" -o "$out/$p" "$src/$p.c" "$src/mtest.c" -lpthread
done
echo "built $(echo $progs | wc -w) programs in $out"

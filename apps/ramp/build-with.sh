#!/bin/sh
# build-with.sh CC OUT: builds rdmpi-ramp with another MPI library's
# compiler wrapper (mpicc.mpich, mpicc.openmpi, an installed rdmpi's
# mpicc) into the file OUT. The program uses only <mpi.h> (rdmpi's
# notified puts only where RDMPI_HAVE_PUT_NOTIFY says they exist), so the
# same sources build everywhere; bench.sh --with uses this.
set -e
if [ $# -ne 2 ]; then
    echo "usage: $0 CC OUT" >&2
    exit 2
fi
src=$(cd "$(dirname "$0")" && pwd)
exec "$1" -O2 -g -Wall -Wextra -o "$2" "$src"/*.c "$src"/../common/*.c -lm

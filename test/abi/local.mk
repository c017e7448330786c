# test/abi: checks that include/mpi.h matches MPICH 4.0.2's ABI (values,
# sizes, struct layouts, prototypes). Needs MPICH's header (libmpich-dev);
# builds its two probe programs itself (with $CC from the environment, or
# cc), so nothing is compiled here.
TESTS += test/abi/abi-check.sh
EXTRA_DIST += \
	test/abi/abi-check.sh \
	test/abi/abi-names.awk \
	test/abi/abi-print.c

# Programs compiled by Debian's mpicc.mpich run on rdmpi unchanged.
TESTS += test/abi/mpich-binaries.sh
EXTRA_DIST += test/abi/mpich-binaries.sh

# Every declared function and data symbol is exported (MPI_ weak, PMPI_ strong).
TESTS += test/abi/exports.sh
EXTRA_DIST += test/abi/exports.sh

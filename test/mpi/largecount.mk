# test/mpi/largecount.mk: the MPI-4.0 large-count (_c) functions (cases in
# largecount.testlist).
RD_LC_TEST_PROGS = test/mpi/lc_p2p test/mpi/lc_coll test/mpi/lc_dtype

check_PROGRAMS += $(RD_LC_TEST_PROGS)
EXTRA_DIST += test/mpi/largecount.testlist

test_mpi_lc_p2p_SOURCES = test/mpi/lc_p2p.c test/mpi/mtest.c
test_mpi_lc_p2p_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_lc_p2p_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_lc_p2p_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_lc_coll_SOURCES = test/mpi/lc_coll.c test/mpi/mtest.c
test_mpi_lc_coll_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_lc_coll_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_lc_coll_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_lc_dtype_SOURCES = test/mpi/lc_dtype.c test/mpi/mtest.c
test_mpi_lc_dtype_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_lc_dtype_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_lc_dtype_LDFLAGS = $(RD_TEST_LINKOPTS)

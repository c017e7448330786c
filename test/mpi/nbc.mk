# test/mpi/nbc.mk: nonblocking collective tests (programs listed in
# nbc.testlist, run by runtests.sh with the other lists).

RD_NBC_TEST_PROGS = test/mpi/nbc_coll test/mpi/nbc_err test/mpi/nbc_ibcast test/mpi/nbc_idup \
	test/mpi/nbc_overlap

check_PROGRAMS += $(RD_NBC_TEST_PROGS)
EXTRA_DIST += test/mpi/nbc.testlist

test_mpi_nbc_coll_SOURCES = test/mpi/nbc_coll.c test/mpi/mtest.c
test_mpi_nbc_coll_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_nbc_coll_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_nbc_coll_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_nbc_err_SOURCES = test/mpi/nbc_err.c test/mpi/mtest.c
test_mpi_nbc_err_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_nbc_err_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_nbc_err_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_nbc_ibcast_SOURCES = test/mpi/nbc_ibcast.c test/mpi/mtest.c
test_mpi_nbc_ibcast_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_nbc_ibcast_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_nbc_ibcast_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_nbc_idup_SOURCES = test/mpi/nbc_idup.c test/mpi/mtest.c
test_mpi_nbc_idup_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_nbc_idup_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_nbc_idup_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_nbc_overlap_SOURCES = test/mpi/nbc_overlap.c test/mpi/mtest.c
test_mpi_nbc_overlap_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_nbc_overlap_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_nbc_overlap_LDFLAGS = $(RD_TEST_LINKOPTS)

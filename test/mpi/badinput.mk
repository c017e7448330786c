# test/mpi/badinput.mk: bad input at the API (cases in badinput.testlist):
# NULL statuses and requests, collectives whose ranks disagree on the size,
# counts whose byte size overflows (and the blocks of the v, w and one
# block per rank collectives). Each must fail with the error class
# MPICH reports and leave the job working.
RD_BADINPUT_TEST_PROGS = test/mpi/badinput_null test/mpi/badinput_count \
	test/mpi/badinput_vcount test/mpi/badinput_coll test/mpi/badinput_trunc

check_PROGRAMS += $(RD_BADINPUT_TEST_PROGS)
EXTRA_DIST += test/mpi/badinput.testlist

test_mpi_badinput_null_SOURCES = test/mpi/badinput_null.c test/mpi/mtest.c
test_mpi_badinput_null_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_badinput_null_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_badinput_null_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_badinput_count_SOURCES = test/mpi/badinput_count.c test/mpi/mtest.c
test_mpi_badinput_count_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_badinput_count_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_badinput_count_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_badinput_vcount_SOURCES = test/mpi/badinput_vcount.c test/mpi/mtest.c
test_mpi_badinput_vcount_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_badinput_vcount_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_badinput_vcount_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_badinput_trunc_SOURCES = test/mpi/badinput_trunc.c test/mpi/mtest.c
test_mpi_badinput_trunc_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_badinput_trunc_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_badinput_trunc_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_badinput_coll_SOURCES = test/mpi/badinput_coll.c test/mpi/mtest.c
test_mpi_badinput_coll_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_badinput_coll_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_badinput_coll_LDFLAGS = $(RD_TEST_LINKOPTS)

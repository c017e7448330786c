# test/mpi/inter.mk: collectives and communicator constructors on
# intercommunicators (programs listed in inter.testlist).

RD_INTER_TEST_PROGS = test/mpi/inter_coll test/mpi/inter_comm

check_PROGRAMS += $(RD_INTER_TEST_PROGS)
EXTRA_DIST += test/mpi/inter.testlist

test_mpi_inter_coll_SOURCES = test/mpi/inter_coll.c test/mpi/mtest.c
test_mpi_inter_coll_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_inter_coll_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_inter_coll_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_inter_comm_SOURCES = test/mpi/inter_comm.c test/mpi/mtest.c
test_mpi_inter_comm_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_inter_comm_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_inter_comm_LDFLAGS = $(RD_TEST_LINKOPTS)

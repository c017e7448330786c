# test/mpi/persist.mk: persistent and neighbourhood collectives, MPI_Isendrecv
# and MPI_Ialltoallw (programs listed in persist.testlist).

RD_PERSIST_TEST_PROGS = test/mpi/pcoll test/mpi/neighbor test/mpi/isendrecv

check_PROGRAMS += $(RD_PERSIST_TEST_PROGS)
EXTRA_DIST += test/mpi/persist.testlist

test_mpi_pcoll_SOURCES = test/mpi/pcoll.c test/mpi/mtest.c
test_mpi_pcoll_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_pcoll_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_pcoll_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_neighbor_SOURCES = test/mpi/neighbor.c test/mpi/mtest.c
test_mpi_neighbor_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_neighbor_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_neighbor_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_isendrecv_SOURCES = test/mpi/isendrecv.c test/mpi/mtest.c
test_mpi_isendrecv_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_isendrecv_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_isendrecv_LDFLAGS = $(RD_TEST_LINKOPTS)

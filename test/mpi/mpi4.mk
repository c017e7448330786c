# test/mpi/mpi4.mk: MPI-4.0 functions (cases in mpi4.testlist): sessions,
# info objects outside MPI_Init .. MPI_Finalize, partitioned communication;
# and the reuse of the buffered-send buffer that threaded programs exposed.
RD_MPI4_TEST_PROGS = \
	test/mpi/session_only test/mpi/session_world test/mpi/partitioned \
	test/mpi/idup_info test/mpi/bsend_reuse

check_PROGRAMS += $(RD_MPI4_TEST_PROGS)
EXTRA_DIST += test/mpi/mpi4.testlist

test_mpi_session_only_SOURCES = test/mpi/session_only.c test/mpi/mtest.c
test_mpi_session_only_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_session_only_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_session_only_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_session_world_SOURCES = test/mpi/session_world.c test/mpi/mtest.c
test_mpi_session_world_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_session_world_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_session_world_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_partitioned_SOURCES = test/mpi/partitioned.c test/mpi/mtest.c
test_mpi_partitioned_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_partitioned_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_partitioned_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_idup_info_SOURCES = test/mpi/idup_info.c test/mpi/mtest.c
test_mpi_idup_info_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_idup_info_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_idup_info_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_bsend_reuse_SOURCES = test/mpi/bsend_reuse.c test/mpi/mtest.c
test_mpi_bsend_reuse_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_bsend_reuse_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_bsend_reuse_LDFLAGS = $(RD_TEST_LINKOPTS)

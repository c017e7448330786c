# test/mpi/coll.mk: collective tests (programs listed in coll.testlist)

RD_COLL_TEST_PROGS = test/mpi/coll_bcast test/mpi/coll_gather test/mpi/coll_allgather \
	test/mpi/coll_alltoall test/mpi/coll_reduce test/mpi/coll_ops test/mpi/coll_userop \
	test/mpi/coll_shm test/mpi/coll_a2a_cma test/mpi/coll_npb test/mpi/coll_err

check_PROGRAMS += $(RD_COLL_TEST_PROGS)
EXTRA_DIST += test/mpi/coll.testlist

test_mpi_coll_bcast_SOURCES = test/mpi/coll_bcast.c test/mpi/mtest.c
test_mpi_coll_bcast_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_coll_bcast_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_coll_bcast_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_coll_gather_SOURCES = test/mpi/coll_gather.c test/mpi/mtest.c
test_mpi_coll_gather_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_coll_gather_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_coll_gather_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_coll_allgather_SOURCES = test/mpi/coll_allgather.c test/mpi/mtest.c
test_mpi_coll_allgather_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_coll_allgather_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_coll_allgather_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_coll_alltoall_SOURCES = test/mpi/coll_alltoall.c test/mpi/mtest.c
test_mpi_coll_alltoall_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_coll_alltoall_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_coll_alltoall_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_coll_reduce_SOURCES = test/mpi/coll_reduce.c test/mpi/mtest.c
test_mpi_coll_reduce_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_coll_reduce_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_coll_reduce_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_coll_ops_SOURCES = test/mpi/coll_ops.c test/mpi/mtest.c
test_mpi_coll_ops_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_coll_ops_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_coll_ops_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_coll_userop_SOURCES = test/mpi/coll_userop.c test/mpi/mtest.c
test_mpi_coll_userop_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_coll_userop_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_coll_userop_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_coll_shm_SOURCES = test/mpi/coll_shm.c test/mpi/mtest.c
test_mpi_coll_shm_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_coll_shm_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_coll_shm_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_coll_npb_SOURCES = test/mpi/coll_npb.c test/mpi/mtest.c
test_mpi_coll_npb_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_coll_npb_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_coll_npb_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_coll_err_SOURCES = test/mpi/coll_err.c test/mpi/mtest.c
test_mpi_coll_err_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_coll_err_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_coll_err_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_coll_a2a_cma_SOURCES = test/mpi/coll_a2a_cma.c test/mpi/mtest.c
test_mpi_coll_a2a_cma_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_coll_a2a_cma_LDFLAGS = $(RD_TEST_LINKOPTS)

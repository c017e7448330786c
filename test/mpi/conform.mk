# test/mpi/conform.mk: cases found by MPICH's test suite (programs listed in
# conform.testlist).

RD_CONFORM_TEST_PROGS = test/mpi/ibcast_order test/mpi/pcoll_free_handles \
	test/mpi/dup_copy_err test/mpi/keyval_refree \
	test/mpi/struct_lbub test/mpi/req_comm_free

check_PROGRAMS += $(RD_CONFORM_TEST_PROGS)
EXTRA_DIST += test/mpi/conform.testlist

test_mpi_ibcast_order_SOURCES = test/mpi/ibcast_order.c test/mpi/mtest.c
test_mpi_ibcast_order_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_ibcast_order_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_ibcast_order_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_pcoll_free_handles_SOURCES = test/mpi/pcoll_free_handles.c test/mpi/mtest.c
test_mpi_pcoll_free_handles_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_pcoll_free_handles_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_pcoll_free_handles_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_dup_copy_err_SOURCES = test/mpi/dup_copy_err.c test/mpi/mtest.c
test_mpi_dup_copy_err_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_dup_copy_err_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_dup_copy_err_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_keyval_refree_SOURCES = test/mpi/keyval_refree.c test/mpi/mtest.c
test_mpi_keyval_refree_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_keyval_refree_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_keyval_refree_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_struct_lbub_SOURCES = test/mpi/struct_lbub.c test/mpi/mtest.c
test_mpi_struct_lbub_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_struct_lbub_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_struct_lbub_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_req_comm_free_SOURCES = test/mpi/req_comm_free.c test/mpi/mtest.c
test_mpi_req_comm_free_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_req_comm_free_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_req_comm_free_LDFLAGS = $(RD_TEST_LINKOPTS)

# test/mpi/comm.mk: intercommunicator, topology, info tests, and the window
# as an object (comm.testlist)

RD_COMM_TEST_PROGS = test/mpi/comm_intercomm test/mpi/comm_info test/mpi/comm_attr \
	test/mpi/comm_dims test/mpi/comm_cart test/mpi/comm_graph test/mpi/win_obj \
	test/mpi/comm_churn

check_PROGRAMS += $(RD_COMM_TEST_PROGS)
EXTRA_DIST += test/mpi/comm.testlist

test_mpi_comm_intercomm_SOURCES = test/mpi/comm_intercomm.c test/mpi/mtest.c
test_mpi_comm_intercomm_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_comm_intercomm_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_comm_intercomm_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_comm_churn_SOURCES = test/mpi/comm_churn.c test/mpi/mtest.c
test_mpi_comm_churn_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_comm_churn_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_comm_churn_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_comm_info_SOURCES = test/mpi/comm_info.c test/mpi/mtest.c
test_mpi_comm_info_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_comm_info_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_comm_info_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_comm_attr_SOURCES = test/mpi/comm_attr.c test/mpi/mtest.c
test_mpi_comm_attr_CFLAGS = $(AM_CFLAGS)
test_mpi_comm_attr_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_comm_attr_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_comm_dims_SOURCES = test/mpi/comm_dims.c test/mpi/mtest.c
test_mpi_comm_dims_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_comm_dims_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_comm_dims_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_comm_cart_SOURCES = test/mpi/comm_cart.c test/mpi/mtest.c
test_mpi_comm_cart_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_comm_cart_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_comm_cart_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_comm_graph_SOURCES = test/mpi/comm_graph.c test/mpi/mtest.c
test_mpi_comm_graph_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_comm_graph_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_comm_graph_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_win_obj_SOURCES = test/mpi/win_obj.c test/mpi/mtest.c
test_mpi_win_obj_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_win_obj_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_win_obj_LDFLAGS = $(RD_TEST_LINKOPTS)

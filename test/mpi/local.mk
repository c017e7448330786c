# test/mpi: MPI-level tests (MPI-3.1 chapter 3 point-to-point, communicator
# basics, errors). Each program is an MPI program plus its expected outcome
# in test/mpi/main.testlist; test/mpi/runtests.sh runs the list with the built
# mpirun. Shared helpers: test/mpi/mtest.c (linked into every program).
# To run the same tests on another MPI: test/mpi/build-with.sh (see there).

RD_MPI_TEST_PROGS = \
	test/mpi/abort \
	test/mpi/barrier \
	test/mpi/comm_basic \
	test/mpi/comm_group \
	test/mpi/comm_isolation \
	test/mpi/comm_split \
	test/mpi/err_arg \
	test/mpi/err_buffer \
	test/mpi/err_comm \
	test/mpi/err_count \
	test/mpi/err_detail \
	test/mpi/err_fatal \
	test/mpi/err_handlers \
	test/mpi/err_rank \
	test/mpi/err_request \
	test/mpi/err_tag \
	test/mpi/err_truncate \
	test/mpi/err_type \
	test/mpi/init_basic \
	test/mpi/init_thread \
	test/mpi/p2p_anysrc \
	test/mpi/p2p_cancel \
	test/mpi/p2p_datatypes \
	test/mpi/p2p_fanin \
	test/mpi/p2p_flood \
	test/mpi/p2p_getcount \
	test/mpi/p2p_manyreqs \
	test/mpi/p2p_burst \
	test/mpi/p2p_split \
	test/mpi/p2p_lateconn \
	test/mpi/p2p_modes \
	test/mpi/p2p_order \
	test/mpi/p2p_pair_elements \
	test/mpi/p2p_persistent \
	test/mpi/p2p_probe \
	test/mpi/p2p_procnull \
	test/mpi/p2p_procnull_nb \
	test/mpi/p2p_self \
	test/mpi/p2p_sendrecv \
	test/mpi/p2p_sizes \
	test/mpi/p2p_waittest \
	test/mpi/thread_multiple \
	test/mpi/thread_comms \
	test/mpi/thread_mixed

check_PROGRAMS += $(RD_MPI_TEST_PROGS)
check_SCRIPTS += test/mpi/runtests.sh

# Each testlist is one automake test, run by runtests.sh -t: its TAP output
# gives one PASS/FAIL/SKIP line per case in the logs and on the console, and
# make -j runs the lists in parallel. A new list is added here.
RD_MPI_TESTLISTS = test/mpi/main.testlist test/mpi/coll.testlist test/mpi/comm.testlist \
	test/mpi/dtype.testlist test/mpi/nbc.testlist test/mpi/protocols.testlist \
	test/mpi/tcp.testlist test/mpi/errors.testlist test/mpi/rma.testlist \
	test/mpi/persist.testlist \
	test/mpi/inter.testlist \
	test/mpi/mpi4.testlist \
	test/mpi/largecount.testlist \
	test/mpi/misc.testlist \
	test/mpi/persist.testlist test/mpi/conform.testlist \
	test/mpi/badinput.testlist
TESTS += $(RD_MPI_TESTLISTS)
TEST_EXTENSIONS = .testlist
TESTLIST_LOG_COMPILER = bash
AM_TESTLIST_LOG_FLAGS = $(top_srcdir)/test/mpi/runtests.sh -t
TESTLIST_LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
EXTRA_DIST += test/mpi/runtests.sh test/mpi/build-with.sh test/mpi/main.testlist \
	test/mpi/protocols.testlist \
	test/mpi/mtest.h test/mpi/err_common.h

# MPICH-style headers trip gcc's -Wstringop-overflow on MPI_STATUSES_IGNORE.
RD_MPI_TEST_CFLAGS = $(AM_CFLAGS) -Wno-stringop-overflow
RD_MPI_TEST_LIBS = $(RD_TEST_LDADD) -lpthread

test_mpi_err_detail_SOURCES = test/mpi/err_detail.c test/mpi/mtest.c
test_mpi_err_detail_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_err_detail_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_err_detail_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_abort_SOURCES = test/mpi/abort.c test/mpi/mtest.c
test_mpi_abort_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_abort_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_abort_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_barrier_SOURCES = test/mpi/barrier.c test/mpi/mtest.c
test_mpi_barrier_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_barrier_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_barrier_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_comm_basic_SOURCES = test/mpi/comm_basic.c test/mpi/mtest.c
test_mpi_comm_basic_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_comm_basic_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_comm_basic_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_comm_group_SOURCES = test/mpi/comm_group.c test/mpi/mtest.c
test_mpi_comm_group_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_comm_group_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_comm_group_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_comm_isolation_SOURCES = test/mpi/comm_isolation.c test/mpi/mtest.c
test_mpi_comm_isolation_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_comm_isolation_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_comm_isolation_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_comm_split_SOURCES = test/mpi/comm_split.c test/mpi/mtest.c
test_mpi_comm_split_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_comm_split_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_comm_split_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_err_arg_SOURCES = test/mpi/err_arg.c test/mpi/mtest.c
test_mpi_err_arg_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_err_arg_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_err_arg_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_err_buffer_SOURCES = test/mpi/err_buffer.c test/mpi/mtest.c
test_mpi_err_buffer_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_err_buffer_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_err_buffer_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_err_comm_SOURCES = test/mpi/err_comm.c test/mpi/mtest.c
test_mpi_err_comm_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_err_comm_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_err_comm_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_err_count_SOURCES = test/mpi/err_count.c test/mpi/mtest.c
test_mpi_err_count_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_err_count_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_err_count_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_err_fatal_SOURCES = test/mpi/err_fatal.c test/mpi/mtest.c
test_mpi_err_fatal_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_err_fatal_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_err_fatal_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_err_handlers_SOURCES = test/mpi/err_handlers.c test/mpi/mtest.c
test_mpi_err_handlers_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_err_handlers_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_err_handlers_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_err_rank_SOURCES = test/mpi/err_rank.c test/mpi/mtest.c
test_mpi_err_rank_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_err_rank_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_err_rank_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_err_request_SOURCES = test/mpi/err_request.c test/mpi/mtest.c
test_mpi_err_request_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_err_request_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_err_request_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_err_tag_SOURCES = test/mpi/err_tag.c test/mpi/mtest.c
test_mpi_err_tag_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_err_tag_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_err_tag_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_err_truncate_SOURCES = test/mpi/err_truncate.c test/mpi/mtest.c
test_mpi_err_truncate_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_err_truncate_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_err_truncate_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_err_type_SOURCES = test/mpi/err_type.c test/mpi/mtest.c
test_mpi_err_type_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_err_type_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_err_type_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_init_basic_SOURCES = test/mpi/init_basic.c test/mpi/mtest.c
test_mpi_init_basic_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_init_basic_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_init_basic_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_init_thread_SOURCES = test/mpi/init_thread.c test/mpi/mtest.c
test_mpi_init_thread_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_init_thread_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_init_thread_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_anysrc_SOURCES = test/mpi/p2p_anysrc.c test/mpi/mtest.c
test_mpi_p2p_anysrc_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_anysrc_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_anysrc_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_cancel_SOURCES = test/mpi/p2p_cancel.c test/mpi/mtest.c
test_mpi_p2p_cancel_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_cancel_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_cancel_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_datatypes_SOURCES = test/mpi/p2p_datatypes.c test/mpi/mtest.c
test_mpi_p2p_datatypes_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_datatypes_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_datatypes_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_fanin_SOURCES = test/mpi/p2p_fanin.c test/mpi/mtest.c
test_mpi_p2p_fanin_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_fanin_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_fanin_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_flood_SOURCES = test/mpi/p2p_flood.c test/mpi/mtest.c
test_mpi_p2p_flood_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_flood_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_flood_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_getcount_SOURCES = test/mpi/p2p_getcount.c test/mpi/mtest.c
test_mpi_p2p_getcount_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_getcount_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_getcount_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_burst_SOURCES = test/mpi/p2p_burst.c test/mpi/mtest.c
test_mpi_p2p_burst_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_burst_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_burst_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_split_SOURCES = test/mpi/p2p_split.c test/mpi/mtest.c
test_mpi_p2p_split_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_split_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_split_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_lateconn_SOURCES = test/mpi/p2p_lateconn.c test/mpi/mtest.c
test_mpi_p2p_lateconn_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_lateconn_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_lateconn_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_manyreqs_SOURCES = test/mpi/p2p_manyreqs.c test/mpi/mtest.c
test_mpi_p2p_manyreqs_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_manyreqs_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_manyreqs_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_modes_SOURCES = test/mpi/p2p_modes.c test/mpi/mtest.c
test_mpi_p2p_modes_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_modes_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_modes_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_order_SOURCES = test/mpi/p2p_order.c test/mpi/mtest.c
test_mpi_p2p_order_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_order_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_order_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_pair_elements_SOURCES = test/mpi/p2p_pair_elements.c test/mpi/mtest.c
test_mpi_p2p_pair_elements_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_pair_elements_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_pair_elements_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_persistent_SOURCES = test/mpi/p2p_persistent.c test/mpi/mtest.c
test_mpi_p2p_persistent_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_persistent_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_persistent_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_probe_SOURCES = test/mpi/p2p_probe.c test/mpi/mtest.c
test_mpi_p2p_probe_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_probe_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_probe_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_procnull_SOURCES = test/mpi/p2p_procnull.c test/mpi/mtest.c
test_mpi_p2p_procnull_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_procnull_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_procnull_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_procnull_nb_SOURCES = test/mpi/p2p_procnull_nb.c test/mpi/mtest.c
test_mpi_p2p_procnull_nb_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_procnull_nb_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_procnull_nb_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_self_SOURCES = test/mpi/p2p_self.c test/mpi/mtest.c
test_mpi_p2p_self_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_self_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_self_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_sendrecv_SOURCES = test/mpi/p2p_sendrecv.c test/mpi/mtest.c
test_mpi_p2p_sendrecv_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_sendrecv_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_sendrecv_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_sizes_SOURCES = test/mpi/p2p_sizes.c test/mpi/mtest.c
test_mpi_p2p_sizes_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_sizes_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_sizes_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_p2p_waittest_SOURCES = test/mpi/p2p_waittest.c test/mpi/mtest.c
test_mpi_p2p_waittest_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_p2p_waittest_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_waittest_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_thread_multiple_SOURCES = test/mpi/thread_multiple.c test/mpi/mtest.c
test_mpi_thread_multiple_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_thread_multiple_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_thread_multiple_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_thread_comms_SOURCES = test/mpi/thread_comms.c test/mpi/mtest.c
test_mpi_thread_comms_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_thread_comms_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_thread_comms_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_thread_mixed_SOURCES = test/mpi/thread_mixed.c test/mpi/mtest.c
test_mpi_thread_mixed_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_thread_mixed_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_thread_mixed_LDFLAGS = $(RD_TEST_LINKOPTS)

# tp_conform runs every transport's ops table against transport.h's
# contract (np 2, RDMPI_TRANSPORTS chooses). It drives internals, so it
# links the library's objects (whose symbols the shared library hides)
# instead of the library.
check_PROGRAMS += test/mpi/tp_conform
test_mpi_tp_conform_SOURCES = test/mpi/tp_conform.c
test_mpi_tp_conform_LDADD = $(libmpi_la_OBJECTS) $(libmpi_la_LIBADD)
test_mpi_tp_conform_DEPENDENCIES = $(libmpi_la_OBJECTS)
test_mpi_tp_conform_LDFLAGS = $(RD_TEST_LINKOPTS)

# test/mpi/tcp.mk: tests of the TCP transport (cases in tcp.testlist; most
# of that list runs the other areas' programs with RDMPI_TRANSPORTS=tcp).
RD_TCP_TEST_PROGS = test/mpi/tcp_reject test/mpi/tcp_death test/mpi/tcp_peer_fail \
	test/mpi/async_progress test/mpi/tcp_listen test/mpi/tcp_jobkey
check_PROGRAMS += $(RD_TCP_TEST_PROGS)
EXTRA_DIST += test/mpi/tcp.testlist

# tcp_reject and tcp_jobkey read what ranks published through the PMIx
# client API.
test_mpi_tcp_reject_SOURCES = test/mpi/tcp_reject.c test/mpi/mtest.c
test_mpi_tcp_reject_CPPFLAGS = $(AM_CPPFLAGS) $(PMIX_CFLAGS)
test_mpi_tcp_reject_LDADD = $(RD_TEST_LDADD) $(PMIX_LIBS) -lpthread
test_mpi_tcp_reject_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_tcp_jobkey_SOURCES = test/mpi/tcp_jobkey.c test/mpi/mtest.c
test_mpi_tcp_jobkey_CPPFLAGS = $(AM_CPPFLAGS) $(PMIX_CFLAGS)
test_mpi_tcp_jobkey_LDADD = $(RD_TEST_LDADD) $(PMIX_LIBS) -lpthread
test_mpi_tcp_jobkey_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_tcp_death_SOURCES = test/mpi/tcp_death.c test/mpi/mtest.c
test_mpi_tcp_death_LDADD = $(RD_TEST_LDADD) -lpthread
test_mpi_tcp_death_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_tcp_peer_fail_SOURCES = test/mpi/tcp_peer_fail.c test/mpi/mtest.c
test_mpi_tcp_peer_fail_LDADD = $(RD_TEST_LDADD) -lpthread
test_mpi_tcp_peer_fail_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_async_progress_SOURCES = test/mpi/async_progress.c test/mpi/mtest.c
test_mpi_async_progress_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_async_progress_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_async_progress_LDFLAGS = $(RD_TEST_LINKOPTS)
test_mpi_tcp_listen_SOURCES = test/mpi/tcp_listen.c test/mpi/mtest.c
test_mpi_tcp_listen_LDADD = $(RD_TEST_LDADD) -lpthread
test_mpi_tcp_listen_LDFLAGS = $(RD_TEST_LINKOPTS)

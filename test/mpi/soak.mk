# test/mpi/soak.mk: the soak, mixed traffic for a minute with every byte
# checked and the ranks' memory watched (test/mpi/soak.c, driven by
# test/mpi/soak.sh). Not part of "make check" (it takes minutes): CI runs
# "make check-soak", 60 s at np 4 on shm and on tcp.
check_PROGRAMS += test/mpi/soak
test_mpi_soak_SOURCES = test/mpi/soak.c test/mpi/mtest.c
test_mpi_soak_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_soak_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_soak_LDFLAGS = $(RD_TEST_LINKOPTS)
EXTRA_DIST += test/mpi/soak.sh

SOAK_TRANSPORTS = shm tcp
SOAK_SECONDS = 60
SOAK_NP = 4
check-soak: mpirun/mpirun test/mpi/soak
	@rc=0; for t in $(SOAK_TRANSPORTS); do \
	    SOAK_SECONDS=$(SOAK_SECONDS) SOAK_NP=$(SOAK_NP) srcdir=$(abs_top_srcdir) \
	        abs_top_builddir=$(abs_top_builddir) bash $(abs_top_srcdir)/test/mpi/soak.sh $$t || rc=1; \
	done; exit $$rc
.PHONY: check-soak

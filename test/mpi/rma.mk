# test/mpi/rma.mk: one-sided communication tests (MPI-3.1 chapter 11 and the
# notified-put extension; cases in rma.testlist). rma_common.h gives the tests
# a window of each creation flavor.
RD_RMA_TEST_PROGS = \
	test/mpi/rma_fence test/mpi/rma_pscw test/mpi/rma_lock test/mpi/rma_shared \
	test/mpi/rma_dynamic test/mpi/rma_accops test/mpi/rma_atomics test/mpi/rma_req \
	test/mpi/rma_counter test/mpi/rma_caslock test/mpi/rma_accsum test/mpi/rma_zero \
	test/mpi/rma_dtypes test/mpi/rma_err test/mpi/rma_err_range test/mpi/rma_busy \
	test/mpi/rma_attr test/mpi/rma_errhandler test/mpi/rma_notify test/mpi/rma_large \
	test/mpi/rma_sizes test/mpi/rma_getcma test/mpi/rma_flush_local test/mpi/rma_atomic64

check_PROGRAMS += $(RD_RMA_TEST_PROGS)
EXTRA_DIST += test/mpi/rma.testlist test/mpi/rma_common.h

test_mpi_rma_fence_SOURCES = test/mpi/rma_fence.c test/mpi/mtest.c
test_mpi_rma_fence_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_fence_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_fence_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_pscw_SOURCES = test/mpi/rma_pscw.c test/mpi/mtest.c
test_mpi_rma_pscw_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_pscw_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_pscw_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_lock_SOURCES = test/mpi/rma_lock.c test/mpi/mtest.c
test_mpi_rma_lock_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_lock_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_lock_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_shared_SOURCES = test/mpi/rma_shared.c test/mpi/mtest.c
test_mpi_rma_shared_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_shared_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_shared_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_dynamic_SOURCES = test/mpi/rma_dynamic.c test/mpi/mtest.c
test_mpi_rma_dynamic_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_dynamic_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_dynamic_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_accops_SOURCES = test/mpi/rma_accops.c test/mpi/mtest.c
test_mpi_rma_accops_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_accops_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_accops_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_atomics_SOURCES = test/mpi/rma_atomics.c test/mpi/mtest.c
test_mpi_rma_atomics_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_atomics_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_atomics_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_req_SOURCES = test/mpi/rma_req.c test/mpi/mtest.c
test_mpi_rma_req_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_req_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_req_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_counter_SOURCES = test/mpi/rma_counter.c test/mpi/mtest.c
test_mpi_rma_counter_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_counter_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_counter_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_caslock_SOURCES = test/mpi/rma_caslock.c test/mpi/mtest.c
test_mpi_rma_caslock_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_caslock_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_caslock_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_accsum_SOURCES = test/mpi/rma_accsum.c test/mpi/mtest.c
test_mpi_rma_accsum_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_accsum_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_accsum_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_zero_SOURCES = test/mpi/rma_zero.c test/mpi/mtest.c
test_mpi_rma_zero_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_zero_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_zero_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_dtypes_SOURCES = test/mpi/rma_dtypes.c test/mpi/mtest.c
test_mpi_rma_dtypes_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_dtypes_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_dtypes_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_err_SOURCES = test/mpi/rma_err.c test/mpi/mtest.c
test_mpi_rma_err_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_err_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_err_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_err_range_SOURCES = test/mpi/rma_err_range.c test/mpi/mtest.c
test_mpi_rma_err_range_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_err_range_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_err_range_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_busy_SOURCES = test/mpi/rma_busy.c test/mpi/mtest.c
test_mpi_rma_busy_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_busy_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_busy_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_attr_SOURCES = test/mpi/rma_attr.c test/mpi/mtest.c
test_mpi_rma_attr_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_attr_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_attr_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_errhandler_SOURCES = test/mpi/rma_errhandler.c test/mpi/mtest.c
test_mpi_rma_errhandler_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_errhandler_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_errhandler_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_notify_SOURCES = test/mpi/rma_notify.c test/mpi/mtest.c
test_mpi_rma_notify_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_notify_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_notify_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_large_SOURCES = test/mpi/rma_large.c test/mpi/mtest.c
test_mpi_rma_large_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_large_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_large_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_sizes_SOURCES = test/mpi/rma_sizes.c test/mpi/mtest.c
test_mpi_rma_sizes_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_sizes_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_sizes_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_getcma_SOURCES = test/mpi/rma_getcma.c test/mpi/mtest.c
test_mpi_rma_getcma_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_getcma_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_getcma_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_rma_flush_local_SOURCES = test/mpi/rma_flush_local.c test/mpi/mtest.c
test_mpi_rma_flush_local_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_flush_local_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_flush_local_LDFLAGS = $(RD_TEST_LINKOPTS)

# The one-sided tests alone, with only their programs built (scripts/check.sh
# runs them in its ASan/UBSan build as well). runtests.sh finds the programs
# through MPI_TEST_DIR since the other tests are not built.
check-rma: all
	MPI_TEST_DIR=$(abs_top_builddir)/test/mpi $(MAKE) $(AM_MAKEFLAGS) check-TESTS \
	  TESTS=test/mpi/rma.testlist check_PROGRAMS="$(RD_RMA_TEST_PROGS)" check_SCRIPTS=
.PHONY: check-rma

test_mpi_rma_atomic64_SOURCES = test/mpi/rma_atomic64.c test/mpi/mtest.c
test_mpi_rma_atomic64_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_rma_atomic64_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_rma_atomic64_LDFLAGS = $(RD_TEST_LINKOPTS)

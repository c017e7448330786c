# test/mpi/misc.mk: tests of the smaller MPI functions (cases in
# misc.testlist): datatypes matched by size or Fortran kind, user error
# classes, datatype attributes, generalized requests, external32 packing,
# file and window error handlers.
RD_MISC_TEST_PROGS = test/mpi/misc_typematch test/mpi/misc_errclass test/mpi/misc_attr \
	test/mpi/misc_results test/mpi/misc_file test/mpi/misc_greq \
	test/mpi/misc_external test/mpi/misc_status_f08

check_PROGRAMS += $(RD_MISC_TEST_PROGS)
EXTRA_DIST += test/mpi/misc.testlist

test_mpi_misc_typematch_SOURCES = test/mpi/misc_typematch.c test/mpi/mtest.c
test_mpi_misc_typematch_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_misc_typematch_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_misc_typematch_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_misc_errclass_SOURCES = test/mpi/misc_errclass.c test/mpi/mtest.c
test_mpi_misc_errclass_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_misc_errclass_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_misc_errclass_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_misc_attr_SOURCES = test/mpi/misc_attr.c test/mpi/mtest.c
test_mpi_misc_attr_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_misc_attr_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_misc_attr_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_misc_results_SOURCES = test/mpi/misc_results.c test/mpi/mtest.c
test_mpi_misc_results_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_misc_results_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_misc_results_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_misc_file_SOURCES = test/mpi/misc_file.c test/mpi/mtest.c
test_mpi_misc_file_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_misc_file_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_misc_file_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_misc_greq_SOURCES = test/mpi/misc_greq.c test/mpi/mtest.c
test_mpi_misc_greq_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_misc_greq_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_misc_greq_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_misc_external_SOURCES = test/mpi/misc_external.c test/mpi/mtest.c
test_mpi_misc_external_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_misc_external_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_misc_external_LDFLAGS = $(RD_TEST_LINKOPTS)

test_mpi_misc_status_f08_SOURCES = test/mpi/misc_status_f08.c test/mpi/mtest.c
test_mpi_misc_status_f08_CFLAGS = $(RD_MPI_TEST_CFLAGS)
test_mpi_misc_status_f08_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_misc_status_f08_LDFLAGS = $(RD_TEST_LINKOPTS)

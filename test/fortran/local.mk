# test/fortran: Fortran test programs. They are written to the standard and
# were checked against MPICH; run-fortran-tests.sh runs fortran.testlist and
# f08.testlist (the mpi_f08 module) with test/mpi/runtests.sh. check-mpif.sh
# compares mpif.h with MPICH's, and abi-fortran.sh runs the tests built by
# MPICH's mpif90 on rdmpi.

AM_FCFLAGS = -I$(top_builddir)/src/fortran -Jtest/fortran -fallow-argument-mismatch
RD_F_TEST_LIBS = libmpifort.la $(RD_TEST_LDADD)

RD_F_TEST_PROGS = \
	test/fortran/f_env \
	test/fortran/f_p2p \
	test/fortran/f_comm \
	test/fortran/f_dtype \
	test/fortran/f_coll \
	test/fortran/f_waitany \
	test/fortran/f_usempi \
	test/fortran/f_usempi_coll \
	test/fortran/f_rma \
	test/fortran/f77_basic \
	test/fortran/f08_p2p \
	test/fortran/f08_coll \
	test/fortran/f08_dtype \
	test/fortran/f08_rma

check_PROGRAMS += $(RD_F_TEST_PROGS)
check_SCRIPTS += test/fortran/run-fortran-tests.sh test/fortran/check-mpif.sh \
	test/fortran/abi-fortran.sh
TESTS += test/fortran/check-mpif.sh test/fortran/run-fortran-tests.sh \
	test/fortran/abi-fortran.sh
EXTRA_DIST += test/fortran/run-fortran-tests.sh test/fortran/check-mpif.sh \
	test/fortran/abi-fortran.sh \
	test/fortran/fortran.testlist test/fortran/f08.testlist \
	test/fortran/f77_basic.f
CLEANFILES += test/fortran/*.mod

test_fortran_f_env_SOURCES = test/fortran/ftest.f90 test/fortran/f_env.f90
test_fortran_f_env_LDADD = $(RD_F_TEST_LIBS)
test_fortran_f_env_LDFLAGS = $(RD_TEST_LINKOPTS)
test_fortran_f_p2p_SOURCES = test/fortran/ftest.f90 test/fortran/f_p2p.f90
test_fortran_f_p2p_LDADD = $(RD_F_TEST_LIBS)
test_fortran_f_p2p_LDFLAGS = $(RD_TEST_LINKOPTS)
test_fortran_f_comm_SOURCES = test/fortran/ftest.f90 test/fortran/f_comm.f90
test_fortran_f_comm_LDADD = $(RD_F_TEST_LIBS)
test_fortran_f_comm_LDFLAGS = $(RD_TEST_LINKOPTS)
test_fortran_f_dtype_SOURCES = test/fortran/ftest.f90 test/fortran/f_dtype.f90
test_fortran_f_dtype_LDADD = $(RD_F_TEST_LIBS)
test_fortran_f_dtype_LDFLAGS = $(RD_TEST_LINKOPTS)
test_fortran_f_coll_SOURCES = test/fortran/ftest.f90 test/fortran/f_coll.f90
test_fortran_f_coll_LDADD = $(RD_F_TEST_LIBS)
test_fortran_f_coll_LDFLAGS = $(RD_TEST_LINKOPTS)
test_fortran_f_waitany_SOURCES = test/fortran/ftest.f90 test/fortran/f_waitany.f90
test_fortran_f_waitany_LDADD = $(RD_F_TEST_LIBS)
test_fortran_f_waitany_LDFLAGS = $(RD_TEST_LINKOPTS)
test_fortran_f_usempi_SOURCES = test/fortran/f_usempi.f90
test_fortran_f_usempi_LDADD = $(RD_F_TEST_LIBS)
test_fortran_f_usempi_LDFLAGS = $(RD_TEST_LINKOPTS)
test_fortran_f_usempi_coll_SOURCES = test/fortran/f_usempi_coll.f90
test_fortran_f_usempi_coll_LDADD = $(RD_F_TEST_LIBS)
test_fortran_f_usempi_coll_LDFLAGS = $(RD_TEST_LINKOPTS)
test_fortran_f_rma_SOURCES = test/fortran/f_rma.f90
test_fortran_f_rma_LDADD = $(RD_F_TEST_LIBS)
test_fortran_f_rma_LDFLAGS = $(RD_TEST_LINKOPTS)

test_fortran_f08_p2p_SOURCES = test/fortran/ftest08.f90 test/fortran/f08_p2p.f90
test_fortran_f08_p2p_LDADD = $(RD_F_TEST_LIBS)
test_fortran_f08_p2p_LDFLAGS = $(RD_TEST_LINKOPTS)
test_fortran_f08_coll_SOURCES = test/fortran/ftest08.f90 test/fortran/f08_coll.f90
test_fortran_f08_coll_LDADD = $(RD_F_TEST_LIBS)
test_fortran_f08_coll_LDFLAGS = $(RD_TEST_LINKOPTS)
test_fortran_f08_dtype_SOURCES = test/fortran/ftest08.f90 test/fortran/f08_dtype.f90
test_fortran_f08_dtype_LDADD = $(RD_F_TEST_LIBS)
test_fortran_f08_dtype_LDFLAGS = $(RD_TEST_LINKOPTS)
test_fortran_f08_rma_SOURCES = test/fortran/ftest08.f90 test/fortran/f08_rma.f90
test_fortran_f08_rma_LDADD = $(RD_F_TEST_LIBS)
test_fortran_f08_rma_LDFLAGS = $(RD_TEST_LINKOPTS)

# Module dependencies: make cannot see `use`.
test/fortran/f_env.$(OBJEXT) test/fortran/f_p2p.$(OBJEXT) \
test/fortran/f_comm.$(OBJEXT) test/fortran/f_dtype.$(OBJEXT) \
test/fortran/f_coll.$(OBJEXT) test/fortran/f_waitany.$(OBJEXT): test/fortran/ftest.$(OBJEXT)
test/fortran/ftest.$(OBJEXT): src/fortran/mpif.h
test/fortran/f_usempi.$(OBJEXT) test/fortran/f_usempi_coll.$(OBJEXT) \
test/fortran/f_rma.$(OBJEXT): src/fortran/mpi.mod
test/fortran/ftest08.$(OBJEXT): src/fortran/mpi_f08.mod
test/fortran/f08_p2p.$(OBJEXT) test/fortran/f08_coll.$(OBJEXT) \
test/fortran/f08_dtype.$(OBJEXT) test/fortran/f08_rma.$(OBJEXT): test/fortran/ftest08.$(OBJEXT)

# Fixed form: automake would hand a .f file to F77, which configure does not
# set up, so it is compiled here with FC.
test_fortran_f77_basic_SOURCES =
test_fortran_f77_basic_LDADD = test/fortran/f77_basic.$(OBJEXT) $(RD_F_TEST_LIBS)
test_fortran_f77_basic_DEPENDENCIES = test/fortran/f77_basic.$(OBJEXT) $(RD_F_TEST_LIBS)
test_fortran_f77_basic_LDFLAGS = $(RD_TEST_LINKOPTS)
test_fortran_f77_basic_LINK = $(FCLINK)
test/fortran/f77_basic.$(OBJEXT): $(top_srcdir)/test/fortran/f77_basic.f src/fortran/mpif.h
	$(AM_V_at)$(MKDIR_P) test/fortran
	$(AM_V_FC)$(FC) $(AM_FCFLAGS) $(FCFLAGS) -ffixed-form -c -o $@ \
	  $(top_srcdir)/test/fortran/f77_basic.f
CLEANFILES += test/fortran/f77_basic.$(OBJEXT)

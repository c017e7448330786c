# src/fortran: Fortran bindings (libmpifort), mpif.h, the mpi module.
# mpif.h and the mechanical bindings are generated from include/mpi.h so
# their values and signatures cannot drift from C's; see gen-mpif.sh and
# gen-bindings.sh. The mpi module (mpi.mod) is gfortran's and is compiled
# from mpi-module.f90.in plus the generated constants and interfaces.

lib_LTLIBRARIES += libmpifort.la
libmpifort_la_SOURCES = src/fortran/fortran.c src/fortran/fortran.h src/fortran/attr.c
nodist_libmpifort_la_SOURCES = src/fortran/bindings.c
libmpifort_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
libmpifort_la_LIBADD = libmpi.la
libmpifort_la_LDFLAGS = -version-info 12:0:0 -no-undefined

nodist_include_HEADERS = src/fortran/mpif.h src/fortran/mpi.mod
BUILT_SOURCES += src/fortran/bindings.c src/fortran/mpif.h src/fortran/mpi.mod
CLEANFILES += src/fortran/bindings.c src/fortran/mpi-interfaces.f90 \
	src/fortran/mpif.h src/fortran/mpi.f90 src/fortran/mpi.mod src/fortran/mpi.o
EXTRA_DIST += src/fortran/gen-mpif.sh src/fortran/gen-bindings.sh \
	src/fortran/mpi-module.f90.in

# Routines hand-written in these files are left out of bindings.c.
RD_F_HAND = $(top_srcdir)/src/fortran/fortran.c $(top_srcdir)/src/fortran/attr.c

src/fortran/mpif.h: $(top_srcdir)/include/mpi.h $(top_srcdir)/src/fortran/gen-mpif.sh
	$(AM_V_GEN)mkdir -p src/fortran && \
	  sh $(top_srcdir)/src/fortran/gen-mpif.sh $(top_srcdir)/include/mpi.h $@

# One rule makes both outputs; the interfaces depend on the C file.
src/fortran/bindings.c: $(top_srcdir)/include/mpi.h $(top_srcdir)/src/fortran/gen-bindings.sh $(RD_F_HAND)
	$(AM_V_GEN)mkdir -p src/fortran && \
	  sh $(top_srcdir)/src/fortran/gen-bindings.sh $(top_srcdir)/include/mpi.h $@ \
	    src/fortran/mpi-interfaces.f90 $(RD_F_HAND)
src/fortran/mpi-interfaces.f90: src/fortran/bindings.c

src/fortran/mpi.f90: $(top_srcdir)/src/fortran/mpi-module.f90.in src/fortran/mpif.h \
		src/fortran/mpi-interfaces.f90
	$(AM_V_GEN)sed -e '/^!@CONSTANTS@/{' -e 'r src/fortran/mpif.h' -e 'd' -e '}' \
	    -e '/^!@INTERFACES@/{' -e 'r src/fortran/mpi-interfaces.f90' -e 'd' -e '}' \
	    $(top_srcdir)/src/fortran/mpi-module.f90.in | \
	  sed -e '/^!RD-FUNCTIONS-BEGIN/,/^!RD-FUNCTIONS-END/d' > $@.tmp && mv $@.tmp $@

src/fortran/mpi.mod: src/fortran/mpi.f90
	$(AM_V_GEN)$(FC) $(FCFLAGS) -c src/fortran/mpi.f90 -J src/fortran -o src/fortran/mpi.o

# What MPICH-built Fortran programs ask the loader for.
install-exec-local:
	$(MKDIR_P) $(DESTDIR)$(libdir)
	cd $(DESTDIR)$(libdir) && rm -f libmpichfort.so.12 && \
	  $(LN_S) libmpifort.so.12 libmpichfort.so.12

uninstall-local:
	rm -f $(DESTDIR)$(libdir)/libmpichfort.so.12

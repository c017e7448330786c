# src/fortran: Fortran bindings (libmpifort), mpif.h, the mpi and mpi_f08
# modules. mpif.h and the mechanical bindings are generated from
# include/mpi.h so their values and signatures cannot drift from C's; see
# gen-mpif.sh, gen-bindings.sh and gen-f08.sh. The modules are gfortran's:
# mpi.mod is compiled from mpi-module.f90.in plus the generated constants
# and interfaces (interfaces only); mpi_f08.f90, generated from
# mpi_f08.f90.in, holds the procedures of mpi_f08 and is part of the library.

lib_LTLIBRARIES += libmpifort.la
libmpifort_la_SOURCES = src/fortran/fortran.c src/fortran/fortran.h src/fortran/attr.c \
	src/fortran/f08.c src/fortran/f08.h
nodist_libmpifort_la_SOURCES = src/fortran/bindings.c src/fortran/f08-bindings.c \
	src/fortran/mpi_f08.f90
libmpifort_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
libmpifort_la_FCFLAGS = -Jsrc/fortran
libmpifort_la_LIBADD = libmpi.la
libmpifort_la_LDFLAGS = -version-info 12:0:0 -no-undefined

nodist_include_HEADERS = src/fortran/mpif.h src/fortran/mpi.mod src/fortran/mpi_f08.mod
BUILT_SOURCES += src/fortran/bindings.c src/fortran/mpif.h src/fortran/mpi.mod \
	src/fortran/f08-bindings.c src/fortran/mpi_f08.f90
CLEANFILES += src/fortran/bindings.c src/fortran/mpi-interfaces.f90 \
	src/fortran/mpif.h src/fortran/mpi.f90 src/fortran/mpi.mod src/fortran/mpi.o \
	src/fortran/f08-bindings.c src/fortran/mpi_f08.f90 src/fortran/mpi_f08.mod
EXTRA_DIST += src/fortran/gen-mpif.sh src/fortran/gen-bindings.sh \
	src/fortran/mpi-module.f90.in src/fortran/gen-f08.sh src/fortran/mpi_f08.f90.in

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

# One rule makes both outputs: the C side and the module of mpi_f08.
src/fortran/f08-bindings.c: $(top_srcdir)/include/mpi.h src/fortran/mpif.h \
		$(top_srcdir)/src/fortran/gen-f08.sh $(top_srcdir)/src/fortran/mpi_f08.f90.in
	$(AM_V_GEN)mkdir -p src/fortran && \
	  sh $(top_srcdir)/src/fortran/gen-f08.sh $(top_srcdir)/include/mpi.h src/fortran/mpif.h \
	    $(top_srcdir)/src/fortran/mpi_f08.f90.in $@ src/fortran/mpi_f08.f90
src/fortran/mpi_f08.f90: src/fortran/f08-bindings.c
# Compiling the module's procedures into the library writes mpi_f08.mod.
src/fortran/mpi_f08.mod: src/fortran/libmpifort_la-mpi_f08.lo

src/fortran/mpi.mod: src/fortran/mpi.f90
	$(AM_V_GEN)$(FC) $(FCFLAGS) -c src/fortran/mpi.f90 -J src/fortran -o src/fortran/mpi.o

# What MPICH-built Fortran programs ask the loader for.
install-exec-local:
	$(MKDIR_P) $(DESTDIR)$(libdir)
	cd $(DESTDIR)$(libdir) && rm -f libmpichfort.so.12 && \
	  $(LN_S) libmpifort.so.12 libmpichfort.so.12

uninstall-local:
	rm -f $(DESTDIR)$(libdir)/libmpichfort.so.12

# mpirun: the launcher (a PMIx server for its ranks), installed as mpirun
# and, through the install hook in Makefile.am, as mpiexec.
bin_PROGRAMS += mpirun/mpirun
mpirun_mpirun_SOURCES = \
	mpirun/main.c \
	mpirun/options.c mpirun/options.h \
	mpirun/session.c mpirun/session.h \
	mpirun/binding.c mpirun/binding.h \
	mpirun/server.c mpirun/server.h \
	mpirun/pmix_gate.c mpirun/pmix_gate.h \
	mpirun/fdlimit.c mpirun/fdlimit.h \
	mpirun/procs.c mpirun/procs.h \
	mpirun/iof.c mpirun/iof.h \
	mpirun/job.c mpirun/job.h mpirun/job_state.c mpirun/job_state.h \
	mpirun/loop.c mpirun/loop.h \
	mpirun/ranks.c mpirun/ranks.h \
	mpirun/fence.c mpirun/fence.h \
	mpirun/head.c mpirun/head.h \
	mpirun/uplink.c mpirun/uplink.h \
	mpirun/hosts.c mpirun/hosts.h \
	mpirun/wire.c mpirun/wire.h \
	mpirun/launch.c mpirun/launch.h \
	mpirun/guard.c mpirun/guard.h \
	mpirun/daemon.c mpirun/daemon.h \
	mpirun/envcheck.c mpirun/envcheck.h \
	src/util/clock.h mpirun/mpirun_tunables.h \
	$(RD_ALL_TUNABLES_SOURCES)
mpirun_mpirun_CPPFLAGS = $(AM_CPPFLAGS) $(PMIX_CFLAGS) $(HWLOC_CFLAGS) -I$(top_srcdir)
if RD_HAVE_VERBS
mpirun_mpirun_CPPFLAGS += $(IBVERBS_CFLAGS)
endif
mpirun_mpirun_LDADD = $(PMIX_LIBS) $(HWLOC_LIBS) -lpthread

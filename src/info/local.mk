# src/info: rdmpi_info, what is built, what this machine offers, every
# tunable. It compiles the tables and the GID choice itself: libmpi exports
# only MPI_* names.
bin_PROGRAMS += src/info/rdmpi_info
# Every tunable table and what reads them (mpirun links them too, to check
# the environment of a job).
RD_ALL_TUNABLES_SOURCES = src/info/all_tunables.c src/info/all_tunables.h \
	src/util/tunable.c src/util/tunable.h src/util/tunable_check.c src/util/tunable_check.h \
	src/util/errdetail.c src/util/errdetail.h \
	src/util/env.c src/util/env.h src/api/api_tunables.c src/api/api_tunables.h \
	src/coll/coll_tunables.c src/rma/rma_tunables.c src/p2p/p2p_tunables.c \
	src/util/util_tunables.c src/boot/boot_tunables.c \
	src/transport/shm/shm_tunables.c src/transport/tcp/tcp_tunables.c \
	src/transport/verbs/common/verbs_tunables.c src/transport/verbs/rc/rc_tunables.c \
	src/transport/verbs/ud/ud_tunables.c mpirun/mpirun_tunables.c \
	src/wrappers/wrapper_tunables.c src/wrappers/wrapper_tunables.h
src_info_rdmpi_info_SOURCES = src/info/rdmpi_info.c src/info/probe.c src/info/probe.h \
	$(RD_ALL_TUNABLES_SOURCES)
nodist_src_info_rdmpi_info_SOURCES = src/info/info_config.h
src_info_rdmpi_info_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) -I$(top_builddir)/src
src_info_rdmpi_info_LDADD =
if RD_HAVE_VERBS
src_info_rdmpi_info_SOURCES += src/transport/verbs/common/gid.c src/transport/verbs/common/gid.h
src_info_rdmpi_info_CPPFLAGS += $(IBVERBS_CFLAGS)
src_info_rdmpi_info_LDADD += $(IBVERBS_LIBS)
endif

# The configure options, as config.status recorded them.
BUILT_SOURCES += src/info/info_config.h
CLEANFILES += src/info/info_config.h
src/info/info_config.h: config.status
	$(AM_V_GEN)mkdir -p src/info && \
	  args=`$(SHELL) ./config.status --config | sed 's/\\\\/\\\\\\\\/g; s/"/\\\\"/g'` && \
	  printf '/* Generated from config.status: the configure options. */\n#define RD_INFO_CONFIGURE_ARGS "%s"\n' "$$args" > $@
src/info/rdmpi_info-rdmpi_info.$(OBJEXT): src/info/info_config.h

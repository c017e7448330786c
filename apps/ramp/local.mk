# apps/ramp: rdmpi-ramp, the RAMP transactional key-value store as an MPI
# program (doc/ramp.md). Built against the in-tree library and installed;
# only <mpi.h>, so apps/ramp/build-with.sh builds it with other MPIs too.
bin_PROGRAMS += apps/ramp/rdmpi-ramp
apps_ramp_rdmpi_ramp_SOURCES = apps/ramp/main.c \
	apps/ramp/opts.c apps/ramp/opts.h \
	apps/ramp/workload.c apps/ramp/workload.h \
	apps/ramp/store.c apps/ramp/store.h \
	apps/ramp/proto.h apps/ramp/net.h \
	apps/ramp/rpc.c apps/ramp/rpc.h \
	apps/ramp/window.c apps/ramp/window.h \
	apps/ramp/mailbox.c apps/ramp/mailbox.h \
	apps/ramp/star.c apps/ramp/star.h \
	apps/ramp/s2pl.c apps/ramp/s2pl.h \
	apps/ramp/server.c apps/ramp/server.h \
	apps/ramp/client.c apps/ramp/client.h \
	apps/ramp/history.c apps/ramp/history.h \
	apps/ramp/check.c apps/ramp/check.h \
	apps/common/stats.c apps/common/stats.h \
	apps/common/keygen.c apps/common/keygen.h
apps_ramp_rdmpi_ramp_LDADD = libmpi.la -lm
EXTRA_DIST += apps/ramp/bench.sh apps/ramp/build-with.sh doc/ramp.md

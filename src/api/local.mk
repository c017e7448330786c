# src/api: the MPI_* entry points
include_HEADERS += include/mpi.h
libmpi_la_SOURCES += src/api/api.c src/api/api.h src/api/init.c src/api/types.c \
	src/api/pt2pt.c src/api/probe.c src/api/wait.c src/api/bsend.c src/api/comm.c src/api/comm.h \
	src/api/comm_split.c src/api/comm_inter.c src/api/intercomm.c src/api/group.c \
	src/api/errors.c src/api/attr.c src/api/attr.h src/api/coll.c \
	src/api/dtype.c src/api/abi_data.c src/api/misc.c \
	src/api/op.c src/api/op.h src/api/nbc.c src/api/topo.c src/api/topo.h \
	src/api/topo_cart.c src/api/topo_graph.c src/api/topo_dist_graph.c \
	src/api/info.c src/api/info.h src/api/api_tunables.c src/api/api_tunables.h \
	src/api/async_progress.c src/api/async_progress.h \
	src/api/win.h src/api/win_errh.c src/api/win_attr.c src/api/win_info.c
libmpi_la_SOURCES += src/api/win.c src/api/win_sync.c
libmpi_la_SOURCES += src/api/rma.c
libmpi_la_SOURCES += src/api/narrow.c src/api/narrow.h src/api/neighbor.c src/api/neighbor.h \
	src/api/coll_persist.c src/api/coll_persist.h src/api/coll_persist_c.c src/api/isendrecv.c
libmpi_la_SOURCES += src/api/session.c
libmpi_la_SOURCES += src/api/partitioned.c src/api/partitioned.h
libmpi_la_SOURCES += src/api/pt2pt.h src/api/pt2pt_c.c src/api/coll.h src/api/coll_c.c \
	src/api/nbc.h src/api/nbc_c.c src/api/dtype.h src/api/dtype_c.c \
	src/api/dtype_lbub.c src/api/dtype_lbub.h \
	src/api/pack.c
libmpi_la_SOURCES += src/api/type_f90.c src/api/type_f90.h
libmpi_la_SOURCES += src/api/errclass_user.c src/api/errclass_user.h
libmpi_la_SOURCES += src/api/type_attr.c src/api/type_attr.h
libmpi_la_SOURCES += src/api/file_errh.c
libmpi_la_SOURCES += src/api/grequest.c src/api/grequest.h src/api/status_conv.c
libmpi_la_SOURCES += src/api/pack_external.c

# Every function mpi.h declares but no file above defines fails loudly with
# MPI_ERR_UNSUPPORTED_OPERATION; the list is generated so it can never drift.
RD_API_IMPL = $(filter %.c,$(libmpi_la_SOURCES))
nodist_libmpi_la_SOURCES = src/api/unsupported.c
BUILT_SOURCES = src/api/unsupported.c
CLEANFILES += src/api/unsupported.c
EXTRA_DIST += src/api/gen-unsupported.sh
src/api/unsupported.c: $(top_srcdir)/include/mpi.h $(top_srcdir)/src/api/gen-unsupported.sh $(addprefix $(top_srcdir)/,$(filter src/api/%,$(RD_API_IMPL)))
	$(AM_V_GEN)mkdir -p src/api && sh $(top_srcdir)/src/api/gen-unsupported.sh \
	  $(top_srcdir)/include/mpi.h $@ $(addprefix $(top_srcdir)/,$(filter src/api/%,$(RD_API_IMPL)))
libmpi_la_SOURCES += src/api/crash.c src/api/crash.h

# src/coll: collective algorithms on p2p
libmpi_la_SOURCES += src/coll/coll.c src/coll/coll.h src/coll/nbc.c src/coll/nbc.h
# algorithms shared by the blocking and nonblocking forms (coll_steps.h)
libmpi_la_SOURCES += src/coll/coll_steps.c src/coll/coll_steps.h
# collectives on intercommunicators (coll_inter.h)
libmpi_la_SOURCES += src/coll/coll_inter.c src/coll/coll_inter.h
# context-id agreement of the communicator constructors (ctxid.h)
libmpi_la_SOURCES += src/coll/ctxid.c src/coll/ctxid.h
# the edge exchange of MPI_Dist_graph_create (dist_graph.h)
libmpi_la_SOURCES += src/coll/dist_graph.c src/coll/dist_graph.h
# blocking collectives of MPI-3.1 chapter 5 (coll.h)
libmpi_la_SOURCES += src/coll/coll_util.c src/coll/coll_util.h src/coll/coll_bcast.c \
	src/coll/coll_gather.c src/coll/coll_alltoall.c src/coll/coll_reduce.c \
	src/coll/coll_shm.c src/coll/coll_shm.h src/coll/coll_tunables.c src/coll/coll_tunables.h
# per-communicator state, the node barrier
libmpi_la_SOURCES += src/coll/coll_comm.h src/coll/coll_node.c src/coll/coll_node.h

# src/p2p: matching, protocols, the active-message registry, progress
libmpi_la_SOURCES += src/p2p/match.c src/p2p/match.h src/p2p/p2p.h src/p2p/proto.h \
	src/p2p/p2p_impl.h src/p2p/reqid.c src/p2p/reqid.h src/p2p/p2p_init.c src/p2p/p2p_send.c src/p2p/p2p_recv.c \
	src/p2p/p2p_rndv.c src/p2p/p2p_fail.c src/p2p/p2p_progress.c src/p2p/p2p_am.c \
	src/p2p/p2p_node.c src/p2p/p2p_rdma.c src/p2p/self.c src/p2p/p2p_tunables.c src/p2p/p2p_tunables.h
libmpi_la_SOURCES += src/p2p/p2p_reach.c

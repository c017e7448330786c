# src/p2p: matching, protocols, progress
libmpi_la_SOURCES += src/p2p/match.c src/p2p/match.h src/p2p/p2p.c src/p2p/p2p.h \
	src/p2p/proto.h src/p2p/self.c src/p2p/p2p_tunables.c src/p2p/p2p_tunables.h

# src/coll: collective algorithms on p2p
libmpi_la_SOURCES += src/coll/coll.c src/coll/coll.h

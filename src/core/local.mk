# src/core: MPI objects (handles, groups, communicators, datatypes, requests, error handlers)
libmpi_la_SOURCES += src/core/handle.c src/core/handle.h src/core/group.c src/core/group.h \
	src/core/comm.c src/core/comm.h src/core/datatype.c src/core/datatype.h \
	src/core/request.c src/core/request.h src/core/errhandler.c src/core/errhandler.h \
	src/core/op.c src/core/op.h
libmpi_la_SOURCES += src/core/dt_build.c src/core/dt_build.h

# src/util: status codes, tunables, lists
libmpi_la_SOURCES += src/util/status.c src/util/status.h src/util/env.c src/util/env.h \
	src/util/scratch.c src/util/scratch.h src/util/copy.c src/util/copy.h \
	src/util/list.h src/util/clock.h src/util/random.c src/util/random.h \
	src/util/errdetail.c src/util/errdetail.h src/util/tunable.c src/util/tunable.h \
	src/util/util_tunables.c src/util/util_tunables.h

# src/transport: the transport interface and one folder per transport
libmpi_la_SOURCES += src/transport/transport.h src/transport/registry.c \
	src/transport/shm/shm.c src/transport/shm/shm.h \
	src/transport/tcp/tcp.c src/transport/tcp/tcp.h src/transport/tcp/tcp_wire.h \
	src/transport/tcp/tcp_parse.c src/transport/tcp/tcp_parse.h

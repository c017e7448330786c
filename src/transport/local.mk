# src/transport: the transport interface and one folder per transport
libmpi_la_SOURCES += src/transport/transport.h src/transport/registry.c \
	src/transport/shm/shm.c src/transport/shm/shm.h \
	src/transport/shm/shm_seg.c src/transport/shm/shm_seg.h \
	src/transport/tcp/tcp.c src/transport/tcp/tcp.h src/transport/tcp/tcp_wire.h \
	src/transport/tcp/tcp_int.h src/transport/tcp/tcp_conn.c src/transport/tcp/tcp_send.c \
	src/transport/tcp/tcp_recv.c src/transport/tcp/tcp_poll.c \
	src/transport/tcp/tcp_parse.c src/transport/tcp/tcp_parse.h \
	src/transport/tcp/tcp_addr.c src/transport/tcp/tcp_addr.h
# Tables of tunables: plain data, built with or without verbs (api lists them all).
libmpi_la_SOURCES += src/transport/shm/shm_tunables.c src/transport/shm/shm_tunables.h \
	src/transport/tcp/tcp_tunables.c src/transport/tcp/tcp_tunables.h \
	src/transport/verbs/common/verbs_tunables.c src/transport/verbs/common/verbs_tunables.h \
	src/transport/verbs/rc/rc_tunables.c src/transport/verbs/rc/rc_tunables.h \
	src/transport/verbs/ud/ud_tunables.c src/transport/verbs/ud/ud_tunables.h

if RD_HAVE_VERBS
# verbs: common/ (device, addresses, QP setup, registration cache) and rc/
libmpi_la_SOURCES += src/transport/verbs/common/verbs.c src/transport/verbs/common/verbs.h \
	src/transport/verbs/common/rcache.c src/transport/verbs/common/rcache.h \
	src/transport/verbs/common/memhook.c src/transport/verbs/common/memhook.h \
	src/transport/verbs/common/gid.c src/transport/verbs/common/gid.h \
	src/transport/verbs/rc/rc.c src/transport/verbs/rc/rc.h src/transport/verbs/rc/rc_int.h \
	src/transport/verbs/rc/rc_cm.c src/transport/verbs/rc/rc_cm.h \
	src/transport/verbs/rc/rc_msg.c src/transport/verbs/rc/rc_msg.h \
	src/transport/verbs/rc/rc_ring.c src/transport/verbs/rc/rc_ring.h \
	src/transport/verbs/rc/rc_rdma.c src/transport/verbs/rc/rc_rdma.h \
	src/transport/verbs/rc/rc_bye.c src/transport/verbs/rc/rc_bye.h \
	src/transport/verbs/rc/rc_fault.h
# ud/: reliability engine (rel, device-independent) and the UD QP transport
libmpi_la_SOURCES += src/transport/verbs/ud/rel.c src/transport/verbs/ud/rel.h \
	src/transport/verbs/ud/ud.c src/transport/verbs/ud/ud.h
if RD_FAULT_INJECTION
# test-only fault knobs (RDMPI_RC_FAULT, RDMPI_UD_DROP_RATE): not in production builds
libmpi_la_SOURCES += src/transport/verbs/rc/rc_fault.c
endif
libmpi_la_CPPFLAGS += $(IBVERBS_CFLAGS)
libmpi_la_LIBADD += $(IBVERBS_LIBS)
endif

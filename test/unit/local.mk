# test/unit: sources and tests of this component
#
# Every CUnit program below is in UNIT_TESTS (make check-unit runs them, the
# ASan run of scripts/check.sh too), and so a check program and a test.
# Automake wants each program's _SOURCES, _CFLAGS and _LDADD under its literal
# name, so those stay one block per test: a GNU make template ($(eval)) would
# hide the programs from automake, which then writes no compile or link rule.
UNIT_TESTS += test/unit/test_match test/unit/test_env test/unit/test_shm \
	test/unit/test_datatype test/unit/test_op test/unit/test_scratch \
	test/unit/test_tcp_parse test/unit/test_tcp_addr test/unit/test_ud_rel \
	test/unit/test_rcache test/unit/test_rc_wire test/unit/test_hosts \
	test/unit/test_p2p_am test/unit/test_tunable test/unit/test_p2p_proto \
	test/unit/test_nbc test/unit/test_p2p_rdma test/unit/test_reqid
check_PROGRAMS += $(UNIT_TESTS)
TESTS += $(UNIT_TESTS)

# --- matching engine and tunables (test_match, test_env) ---
test_unit_test_match_SOURCES = test/unit/test_match.c src/p2p/match.c src/p2p/match.h
test_unit_test_match_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_match_LDADD = $(CUNIT_LIBS)
test_unit_test_env_SOURCES = test/unit/test_env.c src/util/env.c src/util/env.h
test_unit_test_env_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_env_LDADD = $(CUNIT_LIBS)
test_unit_test_tunable_SOURCES = test/unit/test_tunable.c src/util/tunable.c src/util/tunable.h \
	src/util/env.c src/util/env.h src/util/errdetail.c src/util/errdetail.h
test_unit_test_tunable_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_tunable_LDADD = $(CUNIT_LIBS)
# --- end matching engine and tunables ---

# --- p2p's request id table (test_reqid) ---
test_unit_test_reqid_SOURCES = test/unit/test_reqid.c src/p2p/reqid.c src/p2p/reqid.h
test_unit_test_reqid_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_reqid_LDADD = $(CUNIT_LIBS)
# --- end request id table ---

# --- p2p's active messages, progress hooks, rd_p2p_start (test_p2p_am; the
# scripted transport fake_tp.c stands in for the network, the loopback is the
# real one; RD_P2P_TEST_SOURCES is below) ---
test_unit_test_p2p_am_SOURCES = test/unit/test_p2p_am.c $(RD_P2P_TEST_SOURCES)
test_unit_test_p2p_am_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_p2p_am_LDADD = $(CUNIT_LIBS)
# --- end p2p active messages ---

# --- p2p's protocols over a scripted transport (test_p2p_proto; fake_tp.c
# replaces the transport registry src/transport/registry.c) ---
RD_P2P_TEST_SOURCES = src/p2p/p2p_am.c src/p2p/p2p_fail.c src/p2p/reqid.c \
	src/p2p/p2p_init.c src/p2p/p2p_node.c src/p2p/p2p_progress.c src/p2p/p2p_recv.c \
	src/p2p/p2p_rndv.c src/p2p/p2p_send.c src/p2p/p2p_rdma.c src/p2p/self.c src/p2p/match.c \
	src/core/request.c src/core/comm.c src/core/group.c src/core/errhandler.c \
	src/core/datatype.c src/core/dt_build.c src/core/handle.c \
	src/util/env.c src/util/status.c src/util/tunable.c src/util/errdetail.c \
	src/p2p/p2p_tunables.c test/unit/fake_tp.c test/unit/fake_tp.h
RD_P2P_TEST_SOURCES += src/p2p/p2p_reach.c
test_unit_test_p2p_proto_SOURCES = test/unit/test_p2p_proto.c $(RD_P2P_TEST_SOURCES)
test_unit_test_p2p_proto_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_p2p_proto_LDADD = $(CUNIT_LIBS)
# p2p's remote memory access for src/rma over two scripted transports (test_p2p_rdma).
test_unit_test_p2p_rdma_SOURCES = test/unit/test_p2p_rdma.c $(RD_P2P_TEST_SOURCES)
test_unit_test_p2p_rdma_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_p2p_rdma_LDADD = $(CUNIT_LIBS)
# The nonblocking-collective engine over the same transport (test_nbc).
test_unit_test_nbc_SOURCES = test/unit/test_nbc.c $(RD_P2P_TEST_SOURCES) \
	src/coll/nbc.c src/coll/coll_inter.c src/coll/coll_steps.c src/coll/coll_shm.c \
	src/coll/coll_util.c src/coll/coll_tunables.c src/core/op.c src/util/copy.c \
	src/util/scratch.c src/util/util_tunables.c
test_unit_test_nbc_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_nbc_LDADD = $(CUNIT_LIBS)
# --- end p2p protocols ---

# --- shm transport (test_shm; shm_pingpong measures, it is not a test) ---
check_PROGRAMS += test/unit/shm_pingpong
RD_SHM_TEST_SOURCES = src/transport/shm/shm.c src/transport/shm/shm.h \
	src/transport/shm/shm_seg.c src/transport/shm/shm_seg.h \
	src/transport/transport.h src/util/env.c src/util/env.h \
	src/transport/shm/shm_tunables.c src/util/tunable.c src/util/errdetail.c \
	src/util/status.c src/util/status.h src/util/copy.c src/util/copy.h \
	src/util/random.c src/util/random.h \
	test/unit/fake_boot.c test/unit/fake_boot.h
test_unit_test_shm_SOURCES = test/unit/test_shm.c $(RD_SHM_TEST_SOURCES)
test_unit_test_shm_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_shm_LDADD = $(CUNIT_LIBS) -lpthread -lrt
test_unit_shm_pingpong_SOURCES = test/unit/shm_pingpong.c $(RD_SHM_TEST_SOURCES)
test_unit_shm_pingpong_CFLAGS = $(AM_CFLAGS)
test_unit_shm_pingpong_LDADD = -lpthread -lrt
# --- end shm transport ---

# --- datatypes and the pack engine (test_datatype) ---
test_unit_test_datatype_SOURCES = test/unit/test_datatype.c src/core/datatype.c \
	src/core/datatype.h src/core/dt_build.c src/core/dt_build.h src/core/handle.c \
	src/core/handle.h src/util/status.c src/util/status.h
test_unit_test_datatype_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_datatype_LDADD = $(CUNIT_LIBS)
# --- end datatypes ---

# --- reduction kernels (test_op) ---
test_unit_test_op_SOURCES = test/unit/test_op.c src/core/op.c src/core/op.h \
	src/core/datatype.c src/core/datatype.h src/core/dt_build.c src/core/dt_build.h \
	src/core/handle.c src/core/handle.h src/util/status.c src/util/status.h
test_unit_test_op_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_op_LDADD = $(CUNIT_LIBS)
# --- end reduction kernels ---

# --- scratch-memory cache (test_scratch) ---
test_unit_test_scratch_SOURCES = test/unit/test_scratch.c src/util/scratch.c src/util/scratch.h \
	src/util/env.c src/util/env.h src/util/util_tunables.c src/util/tunable.c src/util/errdetail.c
test_unit_test_scratch_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_scratch_LDADD = $(CUNIT_LIBS)
# --- end scratch ---

# --- TCP frame parser (test_tcp_parse; fuzzed by test/fuzz) ---
test_unit_test_tcp_parse_SOURCES = test/unit/test_tcp_parse.c \
	src/transport/tcp/tcp_parse.c src/transport/tcp/tcp_parse.h src/transport/tcp/tcp_wire.h
test_unit_test_tcp_parse_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_tcp_parse_LDADD = $(CUNIT_LIBS)
# TCP address choice (test_tcp_addr)
test_unit_test_tcp_addr_SOURCES = test/unit/test_tcp_addr.c \
	src/transport/tcp/tcp_addr.c src/transport/tcp/tcp_addr.h src/transport/tcp/tcp_wire.h
test_unit_test_tcp_addr_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_tcp_addr_LDADD = $(CUNIT_LIBS)
# --- end TCP frame parser ---
# --- UD reliability layer over a simulated lossy link (test_ud_rel) ---
test_unit_test_ud_rel_SOURCES = test/unit/test_ud_rel.c src/transport/verbs/ud/rel.c \
	src/transport/verbs/ud/rel.h src/util/list.h src/util/status.h
test_unit_test_ud_rel_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
# the engine's drop_rate (its test knob) is compiled in for its own tests
test_unit_test_ud_rel_CPPFLAGS = $(AM_CPPFLAGS) -DRD_FAULT_INJECTION=1
test_unit_test_ud_rel_LDADD = $(CUNIT_LIBS)
# --- end UD reliability layer ---

# --- verbs registration cache and its munmap interception (test_rcache; no device needed) ---
test_unit_test_rcache_SOURCES = test/unit/test_rcache.c \
	src/transport/verbs/common/rcache.c src/transport/verbs/common/rcache.h \
	src/transport/verbs/common/memhook.c src/transport/verbs/common/memhook.h
test_unit_test_rcache_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_rcache_LDADD = $(CUNIT_LIBS)
# --- end verbs registration cache ---
# --- rc wire helpers of RDMA-Write eager (test_rc_wire; no device needed) ---
test_unit_test_rc_wire_SOURCES = test/unit/test_rc_wire.c src/transport/verbs/rc/rc.h
test_unit_test_rc_wire_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_rc_wire_LDADD = $(CUNIT_LIBS)
# --- end rc wire helpers ---
# --- mpirun's host lists, host files and rank placement (test_hosts) ---
test_unit_test_hosts_SOURCES = test/unit/test_hosts.c mpirun/hosts.c mpirun/hosts.h \
	mpirun/options.h
test_unit_test_hosts_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS)
test_unit_test_hosts_LDADD = $(CUNIT_LIBS)
# --- end mpirun hosts ---
EXTRA_DIST += test/unit/unit_main.h

# --- one-sided operations without a transport: target datatype runs and
# accumulate kernels (test_rma_ops) ---
UNIT_TESTS += test/unit/test_rma_ops
test_unit_test_rma_ops_SOURCES = test/unit/test_rma_ops.c src/rma/rma_dtype.c \
	src/rma/rma_dtype.h src/rma/rma_acc.c src/rma/rma_acc.h src/core/op.c src/core/op.h \
	src/core/datatype.c src/core/datatype.h src/core/dt_build.c src/core/dt_build.h \
	src/core/handle.c src/core/handle.h src/util/status.c src/util/status.h
test_unit_test_rma_ops_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -pthread
test_unit_test_rma_ops_LDADD = $(CUNIT_LIBS) -lpthread
# --- end one-sided operations ---
# --- the notification ring of a window's control block (test_rma_ring) ---
UNIT_TESTS += test/unit/test_rma_ring
test_unit_test_rma_ring_SOURCES = test/unit/test_rma_ring.c src/rma/rma_ring.c \
	src/rma/rma_ring.h
test_unit_test_rma_ring_CFLAGS = $(AM_CFLAGS) $(CUNIT_CFLAGS) -pthread
test_unit_test_rma_ring_LDADD = $(CUNIT_LIBS) -lpthread
# --- end notification ring ---

# bench: OSU-style point-to-point benchmarks (latency, bandwidth,
# bidirectional bandwidth, message rate), collective ones (allreduce,
# bcast, alltoall latency; ibcast latency and overlap) and one-sided ones
# (put, get, accumulate, fetch-and-op, compare-and-swap), built against the
# in-tree libmpi.
# Not installed. bench/compare.sh builds the same sources with an installed
# rdmpi, MPICH and Open MPI and compares them; see bench/README.md.
noinst_PROGRAMS += bench/osu_latency bench/osu_bw bench/osu_bibw bench/osu_mr
noinst_PROGRAMS += bench/osu_allreduce bench/osu_bcast bench/osu_alltoall \
	bench/osu_ibcast

bench_osu_latency_SOURCES = bench/osu_latency.c bench/bench_util.c bench/bench_util.h
bench_osu_latency_LDADD = $(RD_TEST_LDADD)
bench_osu_latency_LDFLAGS = $(RD_TEST_LINKOPTS)

bench_osu_bw_SOURCES = bench/osu_bw.c bench/bench_util.c bench/bench_util.h
bench_osu_bw_LDADD = $(RD_TEST_LDADD)
bench_osu_bw_LDFLAGS = $(RD_TEST_LINKOPTS)

bench_osu_bibw_SOURCES = bench/osu_bibw.c bench/bench_util.c bench/bench_util.h
bench_osu_bibw_LDADD = $(RD_TEST_LDADD)
bench_osu_bibw_LDFLAGS = $(RD_TEST_LINKOPTS)

bench_osu_mr_SOURCES = bench/osu_mr.c bench/bench_util.c bench/bench_util.h
bench_osu_mr_LDADD = $(RD_TEST_LDADD)
bench_osu_mr_LDFLAGS = $(RD_TEST_LINKOPTS)

bench_osu_allreduce_SOURCES = bench/osu_allreduce.c bench/bench_util.c bench/bench_util.h
bench_osu_allreduce_LDADD = $(RD_TEST_LDADD)
bench_osu_allreduce_LDFLAGS = $(RD_TEST_LINKOPTS)

bench_osu_bcast_SOURCES = bench/osu_bcast.c bench/bench_util.c bench/bench_util.h
bench_osu_bcast_LDADD = $(RD_TEST_LDADD)
bench_osu_bcast_LDFLAGS = $(RD_TEST_LINKOPTS)

bench_osu_alltoall_SOURCES = bench/osu_alltoall.c bench/bench_util.c bench/bench_util.h
bench_osu_alltoall_LDADD = $(RD_TEST_LDADD)
bench_osu_alltoall_LDFLAGS = $(RD_TEST_LINKOPTS)

bench_osu_ibcast_SOURCES = bench/osu_ibcast.c bench/bench_util.c bench/bench_util.h
bench_osu_ibcast_LDADD = $(RD_TEST_LDADD)
bench_osu_ibcast_LDFLAGS = $(RD_TEST_LINKOPTS)

# One-sided: bench_rma.c holds their windows, epochs and loops,
# bench_rma_run.c the size loop they share.
noinst_PROGRAMS += bench/osu_put_latency bench/osu_get_latency \
	bench/osu_put_bw bench/osu_get_bw bench/osu_acc_latency \
	bench/osu_fop_latency bench/osu_cas_latency bench/osu_put_pingpong
RD_BENCH_RMA_SOURCES = bench/bench_rma_run.c bench/bench_rma_run.h \
	bench/bench_rma.c bench/bench_rma.h \
	bench/bench_util.c bench/bench_util.h

bench_osu_put_latency_SOURCES = bench/osu_put_latency.c $(RD_BENCH_RMA_SOURCES)
bench_osu_put_latency_LDADD = $(RD_TEST_LDADD)
bench_osu_put_latency_LDFLAGS = $(RD_TEST_LINKOPTS)

bench_osu_get_latency_SOURCES = bench/osu_get_latency.c $(RD_BENCH_RMA_SOURCES)
bench_osu_get_latency_LDADD = $(RD_TEST_LDADD)
bench_osu_get_latency_LDFLAGS = $(RD_TEST_LINKOPTS)

bench_osu_put_bw_SOURCES = bench/osu_put_bw.c $(RD_BENCH_RMA_SOURCES)
bench_osu_put_bw_LDADD = $(RD_TEST_LDADD)
bench_osu_put_bw_LDFLAGS = $(RD_TEST_LINKOPTS)

bench_osu_get_bw_SOURCES = bench/osu_get_bw.c $(RD_BENCH_RMA_SOURCES)
bench_osu_get_bw_LDADD = $(RD_TEST_LDADD)
bench_osu_get_bw_LDFLAGS = $(RD_TEST_LINKOPTS)

bench_osu_acc_latency_SOURCES = bench/osu_acc_latency.c $(RD_BENCH_RMA_SOURCES)
bench_osu_acc_latency_LDADD = $(RD_TEST_LDADD)
bench_osu_acc_latency_LDFLAGS = $(RD_TEST_LINKOPTS)

bench_osu_fop_latency_SOURCES = bench/osu_fop_latency.c $(RD_BENCH_RMA_SOURCES)
bench_osu_fop_latency_LDADD = $(RD_TEST_LDADD)
bench_osu_fop_latency_LDFLAGS = $(RD_TEST_LINKOPTS)

bench_osu_cas_latency_SOURCES = bench/osu_cas_latency.c $(RD_BENCH_RMA_SOURCES)
bench_osu_cas_latency_LDADD = $(RD_TEST_LDADD)
bench_osu_cas_latency_LDFLAGS = $(RD_TEST_LINKOPTS)

bench_osu_put_pingpong_SOURCES = bench/osu_put_pingpong.c $(RD_BENCH_RMA_SOURCES)
bench_osu_put_pingpong_LDADD = $(RD_TEST_LDADD)
bench_osu_put_pingpong_LDFLAGS = $(RD_TEST_LINKOPTS)

EXTRA_DIST += bench/compare.sh bench/multihost.sh bench/lib.sh bench/netns-launch.sh bench/README.md bench/cg_latency.py \
	bench/chart.sh bench/chart.gp bench/verbs/run.sh bench/verbs/local-agent.sh

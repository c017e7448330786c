# bench: OSU-style point-to-point benchmarks (latency, bandwidth,
# bidirectional bandwidth, message rate), built against the in-tree libmpi.
# Not installed. bench/compare.sh builds the same sources with an installed
# rdmpi, MPICH and Open MPI and compares them; see bench/README.md.
noinst_PROGRAMS += bench/osu_latency bench/osu_bw bench/osu_bibw bench/osu_mr

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

EXTRA_DIST += bench/compare.sh bench/README.md

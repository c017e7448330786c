# test/launcher: tests of mpirun. boot_client is a rank built on src/boot
# alone (not libmpi), so the launcher is tested whatever state the MPI
# library is in; mpmd_rank, an MPI program, checks what MPMD jobs give
# MPI (MPI_COMM_WORLD, MPI_APPNUM).
check_PROGRAMS += test/launcher/boot_client
test_launcher_boot_client_SOURCES = test/launcher/boot_client.c \
	src/boot/boot.c src/boot/boot.h src/boot/boot_backend.h src/boot/boot_pmix.c \
	src/boot/boot_pmi1.c src/boot/boot_pmi2.c src/boot/boot_pmi_wire.c \
	src/boot/boot_tunables.c src/util/tunable.c src/util/env.c src/util/status.c \
	src/util/status.h src/util/errdetail.c src/util/errdetail.h
test_launcher_boot_client_CPPFLAGS = $(AM_CPPFLAGS) $(PMIX_CFLAGS)
test_launcher_boot_client_LDADD = $(PMIX_LIBS)
check_PROGRAMS += test/launcher/mpmd_rank
test_launcher_mpmd_rank_SOURCES = test/launcher/mpmd_rank.c
test_launcher_mpmd_rank_LDADD = $(RD_TEST_LDADD)
test_launcher_mpmd_rank_LDFLAGS = $(RD_TEST_LINKOPTS)
check_PROGRAMS += test/launcher/reach_rank
test_launcher_reach_rank_SOURCES = test/launcher/reach_rank.c
test_launcher_reach_rank_LDADD = $(RD_TEST_LDADD)
test_launcher_reach_rank_LDFLAGS = $(RD_TEST_LINKOPTS)
check_PROGRAMS += test/launcher/crash_rank
test_launcher_crash_rank_SOURCES = test/launcher/crash_rank.c
test_launcher_crash_rank_LDADD = $(RD_TEST_LDADD)
test_launcher_crash_rank_LDFLAGS = $(RD_TEST_LINKOPTS) -rdynamic
# Transport choice per pair of ranks and RDMPI_TRANSPORTS naming one that
# cannot work (reach_rank); a rank's own reports: a crash's backtrace,
# where --timeout found it (crash_rank).
TESTS += test/launcher/transports.sh test/launcher/crash.sh test/launcher/timeout.sh
EXTRA_DIST += test/launcher/transports.sh test/launcher/crash.sh test/launcher/timeout.sh

LAUNCHER_TESTS = \
	test/launcher/options.sh \
	test/launcher/info.sh \
	test/launcher/stdio.sh \
	test/launcher/exitcodes.sh \
	test/launcher/failures.sh \
	test/launcher/signals.sh \
	test/launcher/killed.sh \
	test/launcher/mpmd.sh \
	test/launcher/rankenv.sh \
	test/launcher/habits.sh \
	test/launcher/envcheck.sh \
	test/launcher/wrappers.sh \
	test/launcher/setup_prefix.sh \
	test/launcher/binding.sh \
	test/launcher/mapping.sh \
	test/launcher/spin.sh \
	test/launcher/hydra.sh \
	test/launcher/foreign.sh \
	test/launcher/otheruser.sh \
	test/launcher/pmi1.sh \
	test/launcher/pmi2.sh \
	test/launcher/install.sh \
	test/launcher/shm_segment.sh \
	test/launcher/rma_segment.sh \
	test/launcher/fd_limit.sh \
	test/launcher/tcp_finalize.sh
TESTS += $(LAUNCHER_TESTS)
EXTRA_DIST += test/launcher/lib.sh test/launcher/report.sh test/launcher/pmi_server.py \
	$(LAUNCHER_TESTS)

# otheruser.sh's intruder claims to be root through this LD_PRELOAD module.
check_LTLIBRARIES = test/launcher/fakeuid.la
test_launcher_fakeuid_la_SOURCES = test/launcher/fakeuid.c
test_launcher_fakeuid_la_LDFLAGS = -module -avoid-version -shared -rpath $(abs_builddir)/test/launcher

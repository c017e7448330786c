# test/launcher: tests of mpirun. boot_client is a rank built on src/boot
# alone (not libmpi), so the launcher is tested whatever state the MPI
# library is in; mpmd_rank, an MPI program, checks what MPMD jobs give
# MPI (MPI_COMM_WORLD, MPI_APPNUM).
check_PROGRAMS += test/launcher/boot_client
test_launcher_boot_client_SOURCES = test/launcher/boot_client.c \
	src/boot/boot.c src/boot/boot.h src/boot/boot_backend.h src/boot/boot_pmix.c \
	src/boot/boot_pmi1.c src/util/status.c src/util/status.h \
	src/util/errdetail.c src/util/errdetail.h
test_launcher_boot_client_CPPFLAGS = $(AM_CPPFLAGS) $(PMIX_CFLAGS)
test_launcher_boot_client_LDADD = $(PMIX_LIBS)
check_PROGRAMS += test/launcher/mpmd_rank
test_launcher_mpmd_rank_SOURCES = test/launcher/mpmd_rank.c
test_launcher_mpmd_rank_LDADD = $(RD_TEST_LDADD)
test_launcher_mpmd_rank_LDFLAGS = $(RD_TEST_LINKOPTS)

LAUNCHER_TESTS = \
	test/launcher/options.sh \
	test/launcher/info.sh \
	test/launcher/stdio.sh \
	test/launcher/exitcodes.sh \
	test/launcher/failures.sh \
	test/launcher/signals.sh \
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
	test/launcher/pmi1.sh \
	test/launcher/shm_segment.sh \
	test/launcher/fd_limit.sh
TESTS += $(LAUNCHER_TESTS)
EXTRA_DIST += test/launcher/lib.sh test/launcher/report.sh test/launcher/pmi1_server.py \
	$(LAUNCHER_TESTS)

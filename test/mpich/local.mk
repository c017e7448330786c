# test/mpich: MPICH 4.0.2's own test suite (test/mpi of the release whose
# ABI rdmpi follows), fetched from Debian's source package and run against
# this build by check-mpich.sh. Not part of `make check`: it downloads the
# sources and takes about a quarter of an hour. Its sources and builds are
# cached in ./mpich-suite. Extra options: CHECK_MPICH_FLAGS="-j1
# --timeout-scale 3" (see the script's header).
EXTRA_DIST += \
	test/mpich/check-mpich.sh \
	test/mpich/fetch.sh \
	test/mpich/rma-baseline.txt \
	test/mpich/skip.txt \
	test/mpich/todo.txt

check-mpich: all
	bash $(top_srcdir)/test/mpich/check-mpich.sh $(CHECK_MPICH_FLAGS)

# The one-sided directory, judged against what Debian's MPICH 4.0.2 passes
# (rma-baseline.txt): an entry that fails there too does not fail the
# target. CI adds --required-only to leave those out (doc/mpich-suite.md).
check-mpich-rma: all
	bash $(top_srcdir)/test/mpich/check-mpich.sh --rma \
	  --baseline $(top_srcdir)/test/mpich/rma-baseline.txt $(CHECK_MPICH_FLAGS)

.PHONY: check-mpich check-mpich-rma

# test/multihost: jobs spanning three hosts made of network namespaces
# (needs root). Not part of "make check"; run with "make check-multihost".
MULTIHOST_TESTS = \
	test/multihost/programs.sh \
	test/multihost/stdin.sh \
	test/multihost/faults.sh
EXTRA_DIST += test/multihost/lib.sh test/multihost/netns.sh $(MULTIHOST_TESTS)

# MH_PATTERN / MH_FPATTERN select programs (see programs.sh).
check-multihost: mpirun/mpirun $(check_PROGRAMS)
	@rc=0; for t in $(MULTIHOST_TESTS); do \
	    echo "== $$t"; \
	    srcdir=$(abs_top_srcdir) abs_top_builddir=$(abs_top_builddir) \
	        bash $(abs_top_srcdir)/$$t || rc=1; \
	done; exit $$rc
.PHONY: check-multihost

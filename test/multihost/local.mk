# test/multihost: jobs spanning three hosts made of network namespaces
# (needs root). Not part of "make check"; run with "make check-multihost".
MULTIHOST_TESTS = \
	test/multihost/programs.sh \
	test/multihost/stdin.sh \
	test/multihost/faults.sh \
	test/multihost/latency.sh \
	test/multihost/hydra.sh \
	test/multihost/daemonport.sh
EXTRA_DIST += test/multihost/lib.sh test/multihost/netns.sh test/multihost/delay_agent.sh \
	test/multihost/delay_relay.py $(MULTIHOST_TESTS)

# MH_PATTERN / MH_FPATTERN select programs (see programs.sh).
# Every script's output is kept in test/multihost/<name>.log too, and the
# failed checks are listed again at the end, where a CI log's tail shows them.
check-multihost: mpirun/mpirun $(check_PROGRAMS)
	@rc=0; mkdir -p test/multihost; for t in $(MULTIHOST_TESTS); do \
	    echo "== $$t"; \
	    log=test/multihost/`basename $$t .sh`.log; \
	    { srcdir=$(abs_top_srcdir) abs_top_builddir=$(abs_top_builddir) \
	        bash $(abs_top_srcdir)/$$t 2>&1; echo $$? >$$log.rc; } | tee $$log; \
	    [ "`cat $$log.rc`" = 0 ] || { rc=1; failed="$$failed $$log"; }; \
	    rm -f $$log.rc; \
	done; \
	for log in $$failed; do \
	    echo "== check-multihost: failed in $$log:"; \
	    grep -A 12 '^FAIL' $$log | head -80; \
	done; exit $$rc
.PHONY: check-multihost

# test/ramp: rdmpi-ramp (apps/ramp) in make check: every method at 6 and 8
# ranks on shared memory and on tcp with the history checked for Read
# Atomic isolation; the checker against a store without RAMP's second
# round and against edited histories; the input checks.
RAMP_TESTS = \
	test/ramp/methods.sh \
	test/ramp/tcp.sh \
	test/ramp/checker.sh
TESTS += $(RAMP_TESTS)
EXTRA_DIST += test/ramp/lib.sh $(RAMP_TESTS)

# Over Soft-RoCE in QEMU guests (not in make check: it boots guests).
check-rdma-ramp: all
	bash $(top_srcdir)/test/ramp/rdma-vm.sh
.PHONY: check-rdma-ramp
EXTRA_DIST += test/ramp/rdma-vm.sh

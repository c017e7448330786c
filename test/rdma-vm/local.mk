# test/rdma-vm: the MPI tests over real verbs (Soft-RoCE) in QEMU guests.
# Not part of "make check" (it boots VMs and needs root the first time):
#   make check-rdma      every verbs configuration, 1 guest and 2 guests
#   make check-rdma-ci   the subset CI runs
# See test/rdma-vm/README.md.
RD_RDMA_VM_FILES = test/rdma-vm/run-in-vm.sh test/rdma-vm/check-rdma.sh \
	test/rdma-vm/guest-suite.sh test/rdma-vm/vm-agent.sh test/rdma-vm/vm-runner.sh \
	test/rdma-vm/rdma.testlist test/rdma-vm/fortran.testlist test/rdma-vm/ci.testlist test/rdma-vm/ci-2.testlist \
	test/rdma-vm/README.md
EXTRA_DIST += $(RD_RDMA_VM_FILES)

# rc_fault breaks an RC QP on purpose (RDMPI_RC_FAULT, in builds configured
# with --enable-fault-injection): only the rc lines of rdma.testlist and
# ci.testlist run it, in the guests (built with make check like the other
# programs those lists run; SKIP in a build without the option).
check_PROGRAMS += test/mpi/rc_fault
test_mpi_rc_fault_SOURCES = test/mpi/rc_fault.c test/mpi/mtest.c
test_mpi_rc_fault_LDADD = $(RD_TEST_LDADD)
test_mpi_rc_fault_LDFLAGS = $(RD_TEST_LINKOPTS)

check-rdma: all $(check_PROGRAMS)
	bash $(top_srcdir)/test/rdma-vm/check-rdma.sh

check-rdma-ci: all $(check_PROGRAMS)
	bash $(top_srcdir)/test/rdma-vm/check-rdma.sh --ci
.PHONY: check-rdma check-rdma-ci

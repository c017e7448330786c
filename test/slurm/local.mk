# test/slurm: rdmpi programs under Slurm's srun --mpi=pmix on a two-node Slurm
# cluster made of network namespaces on this machine (needs root; installs
# slurm-wlm and munge from Debian when missing). Not part of "make check";
# run with "make check-slurm" (about two minutes). See doc/slurm.md.
# SLURM_PATTERN selects MPI cases (runtests.sh -k).
EXTRA_DIST += test/slurm/run.sh test/slurm/cluster.sh test/slurm/srun-np.sh \
	test/slurm/one-node.testlist test/slurm/two-node.testlist \
	test/slurm/two-node-cyclic.testlist test/slurm/fortran.testlist

check-slurm: mpirun/mpirun $(check_PROGRAMS)
	@pat="$(SLURM_PATTERN)"; bash $(abs_top_srcdir)/test/slurm/run.sh $${pat:+-k "$$pat"}
.PHONY: check-slurm

# npb-harness: builds, runs and verifies a user's NPB 3.4 MPI tree with
# rdmpi (and MPICH / Open MPI for comparison); see doc/npb.md. Its test runs
# the harness on a fixture tree of tiny NPB-like benchmarks with the build
# tree's libmpi and mpirun.
TESTS += npb-harness/tests/run-tests.sh
EXTRA_DIST += \
	npb-harness/run \
	npb-harness/README.md \
	npb-harness/lib/npb_chart.py \
	npb-harness/lib/npb_proc.py \
	npb-harness/lib/npb_report.py \
	npb-harness/lib/npb_rules.py \
	npb-harness/lib/npb_tree.py \
	npb-harness/tests/run-tests.sh \
	npb-harness/tests/fixture-npb \
	doc/npb.md

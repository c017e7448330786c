# test/info: rdmpi_info and mpirun --info, and doc/tunables.md against the
# tables of tunables.
INFO_TESTS = test/info/rdmpi_info.sh test/info/tunables_doc.sh
TESTS += $(INFO_TESTS)
EXTRA_DIST += test/info/lib.sh $(INFO_TESTS)

# test/info: rdmpi_info and mpirun --info.
INFO_TESTS = test/info/rdmpi_info.sh
TESTS += $(INFO_TESTS)
EXTRA_DIST += test/info/lib.sh $(INFO_TESTS)

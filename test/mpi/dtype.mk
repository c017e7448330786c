# test/mpi/dtype.mk: derived datatype tests (programs listed in dtype.testlist)

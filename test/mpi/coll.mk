# test/mpi/coll.mk: collective tests (programs listed in coll.testlist)

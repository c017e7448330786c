# test/mpi/comm.mk: intercommunicator, topology, info tests (comm.testlist)

# test/mpi: sources and tests of this component

# mpirun: sources and tests of this component

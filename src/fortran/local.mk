# src/fortran: Fortran bindings (libmpifort), mpif.h, the mpi module

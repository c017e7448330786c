# test/fortran: Fortran test programs

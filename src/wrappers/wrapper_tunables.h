/*
 * Variables the compiler wrappers (mpicc, mpicxx, mpifort: one shell
 * script) read. This table only declares them for rdmpi_info and the doc
 * check; MPICH's and Open MPI's variables the wrappers also read
 * (MPICH_CC, OMPI_CC, ...) are not rdmpi's and not in it.
 */
#ifndef RD_WRAPPERS_WRAPPER_TUNABLES_H
#define RD_WRAPPERS_WRAPPER_TUNABLES_H

#include "util/tunable.h"

enum {
    RD_WRAP_T_CC,
    RD_WRAP_T_CXX,
    RD_WRAP_T_FC,
    RD_WRAP_T_COUNT
};

extern const rd_tunable_t rd_wrapper_tunables[RD_WRAP_T_COUNT];
extern const rd_tunable_table_t rd_wrapper_tunables_table;

#endif

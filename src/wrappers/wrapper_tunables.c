/* The compiler wrappers' variables (see wrapper_tunables.h). */
#include "wrappers/wrapper_tunables.h"

const rd_tunable_t rd_wrapper_tunables[RD_WRAP_T_COUNT] = {
    [RD_WRAP_T_CC] = {
        .name = "RDMPI_CC", .type = RD_TUN_STR,
        .meaning = "C compiler mpicc runs (unset: the one rdmpi was built with)",
        .flags = RD_TUN_F_UNSET | RD_TUN_F_TOOL },
    [RD_WRAP_T_CXX] = {
        .name = "RDMPI_CXX", .type = RD_TUN_STR,
        .meaning = "C++ compiler mpicxx runs (unset: the one rdmpi was built with)",
        .flags = RD_TUN_F_UNSET | RD_TUN_F_TOOL },
    [RD_WRAP_T_FC] = {
        .name = "RDMPI_FC", .type = RD_TUN_STR,
        .meaning = "Fortran compiler mpifort runs (unset: the one rdmpi was built with)",
        .flags = RD_TUN_F_UNSET | RD_TUN_F_TOOL },
};

const rd_tunable_table_t rd_wrapper_tunables_table = {
    "wrappers", "src/wrappers/mpicc.in, src/wrappers/mpifort.in", rd_wrapper_tunables,
    RD_WRAP_T_COUNT
};

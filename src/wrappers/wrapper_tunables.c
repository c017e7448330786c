/* The compiler wrappers' variables (see wrapper_tunables.h). */
#include "wrappers/wrapper_tunables.h"

const rd_tunable_t rd_wrapper_tunables[RD_WRAP_T_COUNT] = {
    [RD_WRAP_T_CC] = RD_TUNE_STR_F("RDMPI_CC", NULL, NULL, RD_TUN_F_UNSET | RD_TUN_F_TOOL,
        "C compiler mpicc runs (unset: MPICH_CC, OMPI_CC, else the one rdmpi was built "
        "with; -cc= wins)"),
    [RD_WRAP_T_CXX] = RD_TUNE_STR_F("RDMPI_CXX", NULL, NULL, RD_TUN_F_UNSET | RD_TUN_F_TOOL,
        "C++ compiler mpicxx runs (unset: MPICH_CXX, OMPI_CXX, else the one rdmpi was "
        "built with; -cxx= wins)"),
    [RD_WRAP_T_FC] = RD_TUNE_STR_F("RDMPI_FC", NULL, NULL, RD_TUN_F_UNSET | RD_TUN_F_TOOL,
        "Fortran compiler mpifort runs (unset: MPICH_FC, OMPI_FC, else the one rdmpi was "
        "built with; -fc= wins)"),
};

const rd_tunable_table_t rd_wrapper_tunables_table = {
    "wrappers", "src/wrappers/mpicc.in", rd_wrapper_tunables,
    RD_WRAP_T_COUNT
};

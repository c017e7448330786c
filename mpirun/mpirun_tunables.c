/* The mpirun tunables (see mpirun_tunables.h). */
#include "mpirun_tunables.h"

#include "job.h"

const rd_tunable_t rd_mpirun_tunables[RD_MPIRUN_T_COUNT] = {
    [RD_MPIRUN_T_HEARTBEAT_TIMEOUT] = RD_TUNE_INT_F("RDMPI_HEARTBEAT_TIMEOUT",
        RD_MPIRUN_HEARTBEAT_TIMEOUT_S, RD_MPIRUN_HEARTBEAT_TIMEOUT_MIN_S,
        RD_MPIRUN_HEARTBEAT_TIMEOUT_MAX_S, RD_TUN_F_TOOL,
        "seconds without a message between mpirun and a host daemon before the host "
        "counts as lost"),
};

const rd_tunable_table_t rd_mpirun_tunables_table = {
    "mpirun", "mpirun/job.c", rd_mpirun_tunables, RD_MPIRUN_T_COUNT
};

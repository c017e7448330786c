/* The mpirun tunables (see mpirun_tunables.h). */
#include "mpirun_tunables.h"

#include "job.h"

const rd_tunable_t rd_mpirun_tunables[RD_MPIRUN_T_COUNT] = {
    [RD_MPIRUN_T_HEARTBEAT_TIMEOUT] = {
        .name = "RDMPI_HEARTBEAT_TIMEOUT", .type = RD_TUN_INT,
        .dflt = RD_MPIRUN_HEARTBEAT_TIMEOUT_S,
        .min = RD_MPIRUN_HEARTBEAT_TIMEOUT_MIN_S, .max = RD_MPIRUN_HEARTBEAT_TIMEOUT_MAX_S,
        .meaning = "seconds without a message between mpirun and a host daemon before the host "
                   "counts as lost", .flags = RD_TUN_F_TOOL },
};

const rd_tunable_table_t rd_mpirun_tunables_table = {
    "mpirun", "mpirun/job.c", rd_mpirun_tunables, RD_MPIRUN_T_COUNT
};

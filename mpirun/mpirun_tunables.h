/*
 * Tunables of the launcher.
 * Declared once here, read by mpirun/job.c, printed by rdmpi_info and
 * checked against doc/tunables.md (util/tunable.h).
 */
#ifndef RD_MPIRUN_MPIRUN_TUNABLES_H
#define RD_MPIRUN_MPIRUN_TUNABLES_H

#include "util/tunable.h"

enum {
    RD_MPIRUN_T_HEARTBEAT_TIMEOUT,
    RD_MPIRUN_T_COUNT
};

extern const rd_tunable_t rd_mpirun_tunables[RD_MPIRUN_T_COUNT];
extern const rd_tunable_table_t rd_mpirun_tunables_table;

#endif

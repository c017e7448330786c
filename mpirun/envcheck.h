/*
 * The RDMPI_* variables a job's ranks will see, checked once by mpirun
 * before anything starts, against the one list of known variables
 * (src/info/all_tunables.h): a name no table declares gets one warning
 * naming the closest known one (a misspelt RDMPI_TRANSPORT=tcp would
 * otherwise be ignored in silence), a value MPI_Init would refuse is an
 * error naming the variable and what it accepts, said once instead of by
 * every rank.
 */
#ifndef RD_MPIRUN_ENVCHECK_H
#define RD_MPIRUN_ENVCHECK_H

#include "options.h"

/* Checks mpirun's environment and the -x/-genv/-env settings of o. Returns
 * 0 (after a warning line on stderr per unknown name), or
 * RD_MPIRUN_EXIT_USAGE after one line about the first bad value. */
int rd_mpirun_env_check(const rd_mpirun_opts_t *o);

#endif

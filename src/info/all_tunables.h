/*
 * Every tunable table, the library's and the tools' (mpirun's, the
 * compiler wrappers', the test harnesses'): the one list of known RDMPI_*
 * variables that rdmpi_info prints and mpirun checks the environment
 * against.
 */
#ifndef RD_INFO_ALL_TUNABLES_H
#define RD_INFO_ALL_TUNABLES_H

#include "util/tunable_check.h"

/* NULL-terminated: rd_api_all_tunables, then the tools' tables. */
extern const rd_tunable_list_t rd_all_tunables[];

#endif

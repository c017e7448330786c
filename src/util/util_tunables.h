/*
 * Tunables of src/util: the scratch-buffer cache.
 * Declared once here, read by src/util/scratch.c, printed by rdmpi_info and
 * checked against doc/tunables.md (util/tunable.h).
 */
#ifndef RD_UTIL_UTIL_TUNABLES_H
#define RD_UTIL_UTIL_TUNABLES_H

#include "util/tunable.h"

enum {
    RD_UTIL_T_SCRATCH_CACHE,
    RD_UTIL_T_COUNT
};

extern const rd_tunable_t rd_util_tunables[RD_UTIL_T_COUNT];
extern const rd_tunable_table_t rd_util_tunables_table;

#endif

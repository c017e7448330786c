/*
 * Tunables of the API layer, and the list of every layer's table: the API
 * layer sees all the layers below it, so MPI_Init checks every RDMPI_*
 * variable here before any layer starts (a bad value stops MPI_Init with
 * the variable, the value and the accepted range), and rdmpi_info lists
 * the same tables.
 */
#ifndef RD_API_API_TUNABLES_H
#define RD_API_API_TUNABLES_H

#include "util/tunable.h"

enum {
    RD_API_T_THREAD_LEVEL,
    RD_API_T_ASYNC_PROGRESS,
    RD_API_T_WARN_UNSUPPORTED,
    RD_API_T_CRASH_REPORT,
    RD_API_T_COUNT
};

extern const rd_tunable_t rd_api_tunables[RD_API_T_COUNT];
extern const rd_tunable_table_t rd_api_tunables_table;

/* Every table of the library, from the top layer down; NULL-terminated. */
extern const rd_tunable_table_t *const rd_api_all_tunables[];

/* Parses every variable of every table that is set: RD_OK, or RD_EINVAL
 * with the first bad one's detail recorded. */
int rd_api_tunables_check(void);

#endif

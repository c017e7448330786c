/*
 * Looking a name up among the tunable tables, and the declared name
 * closest to a misspelt one ("RDMPI_TRANSPORT" -> "RDMPI_TRANSPORTS"), so
 * that whoever reports an unknown RDMPI_* variable (mpirun, rdmpi_info)
 * can say which one was meant. Nothing here prints.
 */
#ifndef RD_UTIL_TUNABLE_CHECK_H
#define RD_UTIL_TUNABLE_CHECK_H

#include <stddef.h>

#include "util/tunable.h"

/* A NULL-terminated list of tables (such as rd_api_all_tunables). */
typedef const rd_tunable_table_t *const *rd_tunable_list_t;

/* The tunable named by the len bytes at name in any table of lists (a
 * NULL-terminated array of lists), or NULL. */
const rd_tunable_t *rd_tunable_lookup(const rd_tunable_list_t *lists, const char *name,
                                      size_t len);

/* The declared name closest to the len bytes at name (fewest letters
 * inserted, deleted, changed or swapped; ties to the first in table
 * order), or NULL when there is none. */
const char *rd_tunable_closest(const rd_tunable_list_t *lists, const char *name, size_t len);

#endif

/*
 * Tunables of one-sided communication: which path a transfer takes.
 * Declared once here, read by src/rma/rma_origin.c and rma_dev.c, printed by rdmpi_info
 * and checked against doc/tunables.md (util/tunable.h).
 */
#ifndef RD_RMA_RMA_TUNABLES_H
#define RD_RMA_RMA_TUNABLES_H

#include "util/tunable.h"

enum {
    RD_RMA_T_GET_CMA_MIN,
    RD_RMA_T_DEV_ATOMICS,
    RD_RMA_T_COUNT
};

extern const rd_tunable_t rd_rma_tunables[RD_RMA_T_COUNT];
extern const rd_tunable_table_t rd_rma_tunables_table;

#endif

/*
 * Tunables of the shm transport: ring and area sizes, single copy.
 * Declared once here, read by src/transport/shm/shm.c, printed by rdmpi_info and
 * checked against doc/tunables.md (util/tunable.h).
 */
#ifndef RD_TRANSPORT_SHM_SHM_TUNABLES_H
#define RD_TRANSPORT_SHM_SHM_TUNABLES_H

#include "util/tunable.h"

enum {
    RD_SHM_T_EAGER_MAX,
    RD_SHM_T_RING_BYTES,
    RD_SHM_T_AREA_BYTES,
    RD_SHM_T_CMA,
    RD_SHM_T_COUNT
};

extern const rd_tunable_t rd_shm_tunables[RD_SHM_T_COUNT];
extern const rd_tunable_table_t rd_shm_tunables_table;

#endif

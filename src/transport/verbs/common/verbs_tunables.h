/*
 * Tunables of the verbs common layer: device, GID, registration cache, RC ack timeout.
 * Declared once here, read by src/transport/verbs/common/verbs.c, printed by rdmpi_info and
 * checked against doc/tunables.md (util/tunable.h).
 */
#ifndef RD_TRANSPORT_VERBS_COMMON_VERBS_TUNABLES_H
#define RD_TRANSPORT_VERBS_COMMON_VERBS_TUNABLES_H

#include "util/tunable.h"

enum {
    RD_VB_T_IB_DEVICE,
    RD_VB_T_IB_GID_INDEX,
    RD_VB_T_RCACHE,
    RD_VB_T_RCACHE_ENTRIES,
    RD_VB_T_RCACHE_BYTES,
    RD_VB_T_RC_TIMEOUT,
    RD_VB_T_COUNT
};

extern const rd_tunable_t rd_vb_tunables[RD_VB_T_COUNT];
extern const rd_tunable_table_t rd_vb_tunables_table;

#endif

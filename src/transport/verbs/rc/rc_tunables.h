/*
 * Tunables of the rc transport: eager size, credits, queues, RDMA-Write eager rings.
 * Declared once here, read by src/transport/verbs/rc/rc.c, printed by rdmpi_info and
 * checked against doc/tunables.md (util/tunable.h).
 */
#ifndef RD_TRANSPORT_VERBS_RC_RC_TUNABLES_H
#define RD_TRANSPORT_VERBS_RC_RC_TUNABLES_H

#include "util/tunable.h"

enum {
    RD_RC_T_EAGER_MAX,
    RD_RC_T_CREDITS,
    RD_RC_T_SEND_BUFS,
    RD_RC_T_SQ_DEPTH,
    RD_RC_T_SIGNAL_EVERY,
    RD_RC_T_INLINE,
    RD_RC_T_CONNECT_TIMEOUT,
    RD_RC_T_FAULT,
    RD_RC_T_RDMA_EAGER,
    RD_RC_T_RDMA_EAGER_THRESHOLD,
    RD_RC_T_RDMA_EAGER_SLOTS,
    RD_RC_T_RDMA_EAGER_SIZE,
    RD_RC_T_RDMA_EAGER_PEERS,
    RD_RC_T_COUNT
};

extern const rd_tunable_t rd_rc_tunables[RD_RC_T_COUNT];
extern const rd_tunable_table_t rd_rc_tunables_table;

#endif

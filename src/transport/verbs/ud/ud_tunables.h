/*
 * Tunables of the ud transport: eager size, window, QPs, retransmission.
 * Declared once here, read by src/transport/verbs/ud/ud.c, printed by rdmpi_info and
 * checked against doc/tunables.md (util/tunable.h).
 */
#ifndef RD_TRANSPORT_VERBS_UD_UD_TUNABLES_H
#define RD_TRANSPORT_VERBS_UD_UD_TUNABLES_H

#include "util/tunable.h"

enum {
    RD_UD_T_EAGER_MAX,
    RD_UD_T_WINDOW,
    RD_UD_T_QPS,
    RD_UD_T_RTO,
    RD_UD_T_ACK_DELAY,
    RD_UD_T_TIMEOUT,
    RD_UD_T_DROP_RATE,
    RD_UD_T_INLINE,
    RD_UD_T_SQ_DEPTH,
    RD_UD_T_SIGNAL_EVERY,
    RD_UD_T_COUNT
};

extern const rd_tunable_t rd_ud_tunables[RD_UD_T_COUNT];
extern const rd_tunable_table_t rd_ud_tunables_table;

#endif

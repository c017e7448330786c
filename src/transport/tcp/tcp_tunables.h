/*
 * Tunables of the tcp transport: addresses, eager and fragment sizes, queues, ACK pacing.
 * Declared once here, read by src/transport/tcp/tcp.c, printed by rdmpi_info and
 * checked against doc/tunables.md (util/tunable.h).
 */
#ifndef RD_TRANSPORT_TCP_TCP_TUNABLES_H
#define RD_TRANSPORT_TCP_TCP_TUNABLES_H

#include "util/tunable.h"

enum {
    RD_TCP_T_IF,
    RD_TCP_T_EAGER_MAX,
    RD_TCP_T_FRAG_MAX,
    RD_TCP_T_SENDQ_MAX,
    RD_TCP_T_COALESCE_MAX,
    RD_TCP_T_ACK_LOWAT,
    RD_TCP_T_ACK_LOWAT_BIG,
    RD_TCP_T_READ_GAP_NS,
    RD_TCP_T_COUNT
};

extern const rd_tunable_t rd_tcp_tunables[RD_TCP_T_COUNT];
extern const rd_tunable_table_t rd_tcp_tunables_table;

#endif

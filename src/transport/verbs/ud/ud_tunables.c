/* The ud tunables (see ud_tunables.h). */
#include "transport/verbs/ud/ud_tunables.h"

#include "transport/verbs/ud/rel.h"
#include "transport/verbs/ud/ud.h"

const rd_tunable_t rd_ud_tunables[RD_UD_T_COUNT] = {
    [RD_UD_T_EAGER_MAX] = {
        .name = "RDMPI_UD_EAGER_MAX", .type = RD_TUN_SIZE,
        .dflt = RD_UD_EAGER_MAX_DEFAULT, .min = 0, .max = RD_UD_EAGER_MAX_LIMIT,
        .meaning = "largest message sent eagerly, cut into MTU-sized packets" },
    [RD_UD_T_WINDOW] = {
        .name = "RDMPI_UD_WINDOW", .type = RD_TUN_INT,
        .dflt = RD_UD_WINDOW_DEFAULT, .min = RD_UDR_WINDOW_MIN, .max = RD_UDR_WINDOW_MAX,
        .meaning = "packets unacknowledged towards one peer, and credits granted (rounded down "
                   "to a power of two)" },
    [RD_UD_T_QPS] = {
        .name = "RDMPI_UD_QPS", .type = RD_TUN_INT,
        .dflt = RD_UD_QPS_DEFAULT, .min = 1, .max = RD_UD_QPS_MAX,
        .meaning = "UD QPs per process" },
    [RD_UD_T_RTO] = {
        .name = "RDMPI_UD_RTO", .type = RD_TUN_INT,
        .dflt = RD_UD_RTO_DEFAULT, .min = 100, .max = 10000000,
        .meaning = "microseconds before an unacknowledged packet is sent again (until RTT "
                   "samples exist)" },
    [RD_UD_T_ACK_DELAY] = {
        .name = "RDMPI_UD_ACK_DELAY", .type = RD_TUN_INT,
        .dflt = RD_UD_ACK_DELAY_DEFAULT, .min = 0, .max = 10000000,
        .meaning = "microseconds a receiver waits for reverse traffic to carry its ack" },
    [RD_UD_T_TIMEOUT] = {
        .name = "RDMPI_UD_TIMEOUT", .type = RD_TUN_INT,
        .dflt = RD_UD_TIMEOUT_DEFAULT, .min = 0, .max = 1000000,
        .meaning = "seconds without acks before a peer counts as failed (0: never)" },
    [RD_UD_T_DROP_RATE] = {
        .name = "RDMPI_UD_DROP_RATE", .type = RD_TUN_REAL,
        .dflt = 0, .min = 0, .max = 0.999,
        .meaning = "test knob: fraction of received packets dropped on purpose",
        .flags = RD_TUN_F_TEST },
    [RD_UD_T_INLINE] = {
        .name = "RDMPI_UD_INLINE", .type = RD_TUN_INT,
        .dflt = RD_UD_INLINE_DEFAULT, .min = 0, .max = 4096,
        .meaning = "inline data size asked of the device for UD QPs" },
    [RD_UD_T_SQ_DEPTH] = {
        .name = "RDMPI_UD_SQ_DEPTH", .type = RD_TUN_INT,
        .dflt = RD_UD_SQ_DEPTH_DEFAULT, .min = 8, .max = 1 << 20,
        .meaning = "send work requests (and registered send slots) per UD QP" },
    [RD_UD_T_SIGNAL_EVERY] = {
        .name = "RDMPI_UD_SIGNAL_EVERY", .type = RD_TUN_INT,
        .dflt = RD_UD_SIGNAL_DEFAULT, .min = 1, .max = 1 << 19,
        .meaning = "one UD send in this many asks for a completion (at most half the depth)" },
};

const rd_tunable_table_t rd_ud_tunables_table = {
    "ud", "src/transport/verbs/ud/ud.c", rd_ud_tunables, RD_UD_T_COUNT
};

/* The ud tunables (see ud_tunables.h). */
#include "transport/verbs/ud/ud_tunables.h"

#include "transport/verbs/ud/rel.h"
#include "transport/verbs/ud/ud.h"

const rd_tunable_t rd_ud_tunables[RD_UD_T_COUNT] = {
    [RD_UD_T_EAGER_MAX] = RD_TUNE_SIZE("RDMPI_UD_EAGER_MAX",
        RD_UD_EAGER_MAX_DEFAULT, 0, RD_UD_EAGER_MAX_LIMIT,
        "largest message sent eagerly, cut into MTU-sized packets"),
    [RD_UD_T_WINDOW] = RD_TUNE_INT("RDMPI_UD_WINDOW",
        RD_UD_WINDOW_DEFAULT, RD_UDR_WINDOW_MIN, RD_UDR_WINDOW_MAX,
        "packets unacknowledged towards one peer, and credits granted (rounded down "
        "to a power of two)"),
    [RD_UD_T_QPS] = RD_TUNE_INT("RDMPI_UD_QPS", RD_UD_QPS_DEFAULT, 1, RD_UD_QPS_MAX,
        "UD QPs per process"),
    [RD_UD_T_RTO] = RD_TUNE_INT("RDMPI_UD_RTO", RD_UD_RTO_DEFAULT, 100, 10000000,
        "microseconds before an unacknowledged packet is sent again (until RTT "
        "samples exist)"),
    [RD_UD_T_ACK_DELAY] = RD_TUNE_INT("RDMPI_UD_ACK_DELAY", RD_UD_ACK_DELAY_DEFAULT, 0, 10000000,
        "microseconds a receiver waits for reverse traffic to carry its ack"),
    [RD_UD_T_TIMEOUT] = RD_TUNE_INT("RDMPI_UD_TIMEOUT", RD_UD_TIMEOUT_DEFAULT, 0, 1000000,
        "seconds without acks before a peer counts as failed (0: never)"),
    [RD_UD_T_DROP_RATE] = RD_TUNE_REAL_F("RDMPI_UD_DROP_RATE", 0, 0, 0.999, RD_TUN_F_TEST,
        "test knob: fraction of received packets dropped on purpose"),
    [RD_UD_T_INLINE] = RD_TUNE_INT("RDMPI_UD_INLINE", RD_UD_INLINE_DEFAULT, 0, 4096,
        "inline data size asked of the device for UD QPs"),
    [RD_UD_T_SQ_DEPTH] = RD_TUNE_INT("RDMPI_UD_SQ_DEPTH", RD_UD_SQ_DEPTH_DEFAULT, 8, 1 << 20,
        "send work requests (and registered send slots) per UD QP"),
    [RD_UD_T_SIGNAL_EVERY] = RD_TUNE_INT("RDMPI_UD_SIGNAL_EVERY", RD_UD_SIGNAL_DEFAULT, 1, 1 << 19,
        "one UD send in this many asks for a completion (at most half the depth)"),
};

const rd_tunable_table_t rd_ud_tunables_table = {
    "ud", "src/transport/verbs/ud/ud.c", rd_ud_tunables, RD_UD_T_COUNT
};

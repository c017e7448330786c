/* The rc tunables (see rc_tunables.h). */
#include "transport/verbs/rc/rc_tunables.h"

#include "transport/verbs/rc/rc.h"

const rd_tunable_t rd_rc_tunables[RD_RC_T_COUNT] = {
    [RD_RC_T_EAGER_MAX] = RD_TUNE_SIZE("RDMPI_RC_EAGER_MAX",
        RD_RC_EAGER_MAX_DEFAULT, 64, RD_RC_EAGER_MAX_LIMIT,
        "largest message sent eagerly over an RC QP (rounded down to 64 bytes; same "
        "on all ranks)"),
    [RD_RC_T_CREDITS] = RD_TUNE_INT("RDMPI_RC_CREDITS", RD_RC_CREDITS_DEFAULT, 2, 4096,
        "messages a peer may have in flight to this rank"),
    [RD_RC_T_SEND_BUFS] = RD_TUNE_INT("RDMPI_RC_SEND_BUFS", RD_RC_SEND_BUFS_DEFAULT, 4, 1 << 20,
        "registered send buffers shared by all RC peers"),
    [RD_RC_T_SQ_DEPTH] = RD_TUNE_INT("RDMPI_RC_SQ_DEPTH", RD_RC_SQ_DEPTH_DEFAULT, 1, 1 << 20,
        "send work requests per RC QP (at least 2 x RDMPI_RC_SIGNAL_EVERY + 4)"),
    [RD_RC_T_SIGNAL_EVERY] = RD_TUNE_INT("RDMPI_RC_SIGNAL_EVERY", RD_RC_SIGNAL_DEFAULT, 1, 1 << 20,
        "one send work request in this many asks for a completion"),
    [RD_RC_T_INLINE] = RD_TUNE_INT("RDMPI_RC_INLINE", RD_RC_INLINE_DEFAULT, 0, 1 << 16,
        "inline data size asked of the device for RC QPs"),
    [RD_RC_T_CONNECT_TIMEOUT] = RD_TUNE_INT("RDMPI_RC_CONNECT_TIMEOUT",
        RD_RC_CONNECT_TIMEOUT_DEFAULT, 1, 86400,
        "seconds a connection request is retransmitted before the peer counts as "
        "failed"),
    [RD_RC_T_FAULT] = RD_TUNE_STR_F("RDMPI_RC_FAULT", NULL, NULL, RD_TUN_F_UNSET | RD_TUN_F_TEST,
        "test knob RANK:N: rank RANK breaks its QP to a peer at message N + 1"),
    [RD_RC_T_RDMA_EAGER] = RD_TUNE_BOOL("RDMPI_RDMA_EAGER", RD_RING_ENABLE_DEFAULT,
        "offer RDMA-Write eager rings to busy peers"),
    [RD_RC_T_RDMA_EAGER_THRESHOLD] = RD_TUNE_INT("RDMPI_RDMA_EAGER_THRESHOLD",
        RD_RING_THRESHOLD_DEFAULT, 1, 1 << 30,
        "messages received from a peer before this rank offers it a ring"),
    [RD_RC_T_RDMA_EAGER_SLOTS] = RD_TUNE_INT("RDMPI_RDMA_EAGER_SLOTS",
        RD_RING_SLOTS_DEFAULT, 2, RD_RING_SLOTS_MAX,
        "slots per ring"),
    [RD_RC_T_RDMA_EAGER_SIZE] = RD_TUNE_SIZE("RDMPI_RDMA_EAGER_SIZE",
        RD_RING_SIZE_DEFAULT, 0, RD_RC_EAGER_MAX_LIMIT,
        "largest payload a ring slot holds (at most RDMPI_RC_EAGER_MAX)"),
    [RD_RC_T_RDMA_EAGER_PEERS] = RD_TUNE_INT("RDMPI_RDMA_EAGER_PEERS",
        RD_RING_PEERS_DEFAULT, 0, 1 << 30,
        "most rings a process offers"),
};

const rd_tunable_table_t rd_rc_tunables_table = {
    "rc", "src/transport/verbs/rc/rc.c", rd_rc_tunables, RD_RC_T_COUNT
};

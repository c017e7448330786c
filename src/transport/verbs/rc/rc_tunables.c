/* The rc tunables (see rc_tunables.h). */
#include "transport/verbs/rc/rc_tunables.h"

#include "transport/verbs/rc/rc.h"

const rd_tunable_t rd_rc_tunables[RD_RC_T_COUNT] = {
    [RD_RC_T_EAGER_MAX] = {
        .name = "RDMPI_RC_EAGER_MAX", .type = RD_TUN_SIZE,
        .dflt = RD_RC_EAGER_MAX_DEFAULT, .min = 64, .max = RD_RC_EAGER_MAX_LIMIT,
        .meaning = "largest message sent eagerly over an RC QP (rounded down to 64 bytes; same "
                   "on all ranks)" },
    [RD_RC_T_CREDITS] = {
        .name = "RDMPI_RC_CREDITS", .type = RD_TUN_INT,
        .dflt = RD_RC_CREDITS_DEFAULT, .min = 2, .max = 4096,
        .meaning = "messages a peer may have in flight to this rank" },
    [RD_RC_T_SEND_BUFS] = {
        .name = "RDMPI_RC_SEND_BUFS", .type = RD_TUN_INT,
        .dflt = RD_RC_SEND_BUFS_DEFAULT, .min = 4, .max = 1 << 20,
        .meaning = "registered send buffers shared by all RC peers" },
    [RD_RC_T_SQ_DEPTH] = {
        .name = "RDMPI_RC_SQ_DEPTH", .type = RD_TUN_INT,
        .dflt = RD_RC_SQ_DEPTH_DEFAULT, .min = 1, .max = 1 << 20,
        .meaning = "send work requests per RC QP (at least 2 x RDMPI_RC_SIGNAL_EVERY + 4)" },
    [RD_RC_T_SIGNAL_EVERY] = {
        .name = "RDMPI_RC_SIGNAL_EVERY", .type = RD_TUN_INT,
        .dflt = RD_RC_SIGNAL_DEFAULT, .min = 1, .max = 1 << 20,
        .meaning = "one send work request in this many asks for a completion" },
    [RD_RC_T_INLINE] = {
        .name = "RDMPI_RC_INLINE", .type = RD_TUN_INT,
        .dflt = RD_RC_INLINE_DEFAULT, .min = 0, .max = 1 << 16,
        .meaning = "inline data size asked of the device for RC QPs" },
    [RD_RC_T_CONNECT_TIMEOUT] = {
        .name = "RDMPI_RC_CONNECT_TIMEOUT", .type = RD_TUN_INT,
        .dflt = RD_RC_CONNECT_TIMEOUT_DEFAULT, .min = 1, .max = 86400,
        .meaning = "seconds a connection request is retransmitted before the peer counts as "
                   "failed" },
    [RD_RC_T_FAULT] = {
        .name = "RDMPI_RC_FAULT", .type = RD_TUN_STR,
        .meaning = "test knob RANK:N: rank RANK breaks its QP to a peer at message N + 1",
        .flags = RD_TUN_F_UNSET | RD_TUN_F_TEST },
    [RD_RC_T_RDMA_EAGER] = {
        .name = "RDMPI_RDMA_EAGER", .type = RD_TUN_BOOL,
        .dflt = RD_RING_ENABLE_DEFAULT,
        .meaning = "offer RDMA-Write eager rings to busy peers" },
    [RD_RC_T_RDMA_EAGER_THRESHOLD] = {
        .name = "RDMPI_RDMA_EAGER_THRESHOLD", .type = RD_TUN_INT,
        .dflt = RD_RING_THRESHOLD_DEFAULT, .min = 1, .max = 1 << 30,
        .meaning = "messages received from a peer before this rank offers it a ring" },
    [RD_RC_T_RDMA_EAGER_SLOTS] = {
        .name = "RDMPI_RDMA_EAGER_SLOTS", .type = RD_TUN_INT,
        .dflt = RD_RING_SLOTS_DEFAULT, .min = 2, .max = RD_RING_SLOTS_MAX,
        .meaning = "slots per ring" },
    [RD_RC_T_RDMA_EAGER_SIZE] = {
        .name = "RDMPI_RDMA_EAGER_SIZE", .type = RD_TUN_SIZE,
        .dflt = RD_RING_SIZE_DEFAULT, .min = 0, .max = RD_RC_EAGER_MAX_LIMIT,
        .meaning = "largest payload a ring slot holds (at most RDMPI_RC_EAGER_MAX)" },
    [RD_RC_T_RDMA_EAGER_PEERS] = {
        .name = "RDMPI_RDMA_EAGER_PEERS", .type = RD_TUN_INT,
        .dflt = RD_RING_PEERS_DEFAULT, .min = 0, .max = 1 << 30,
        .meaning = "most rings a process offers" },
};

const rd_tunable_table_t rd_rc_tunables_table = {
    "rc", "src/transport/verbs/rc/rc.c", rd_rc_tunables, RD_RC_T_COUNT
};

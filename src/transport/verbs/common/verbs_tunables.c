/* The verbs tunables (see verbs_tunables.h). */
#include "transport/verbs/common/verbs_tunables.h"


const rd_tunable_t rd_vb_tunables[RD_VB_T_COUNT] = {
    [RD_VB_T_IB_DEVICE] = {
        .name = "RDMPI_IB_DEVICE", .type = RD_TUN_STR,
        .meaning = "RDMA device by name (ibv_devices); unset: the one nearest the rank's cores",
        .flags = RD_TUN_F_UNSET },
    [RD_VB_T_IB_GID_INDEX] = {
        .name = "RDMPI_IB_GID_INDEX", .type = RD_TUN_INT,
        .dflt = -1, .min = 0, .max = 65535,
        .meaning = "GID table index on the active port; unset: RoCE v2 with an IPv4-mapped "
                   "address first", .flags = RD_TUN_F_UNSET },
    [RD_VB_T_RCACHE] = {
        .name = "RDMPI_RCACHE", .type = RD_TUN_BOOL,
        .dflt = 1,
        .meaning = "pin-down registration cache for rendezvous buffers" },
    [RD_VB_T_RCACHE_ENTRIES] = {
        .name = "RDMPI_RCACHE_ENTRIES", .type = RD_TUN_INT,
        .dflt = 1024, .min = 0, .max = 1 << 30,
        .meaning = "most registrations kept in the cache" },
    [RD_VB_T_RCACHE_BYTES] = {
        .name = "RDMPI_RCACHE_BYTES", .type = RD_TUN_SIZE,
        .dflt = 1LL << 30, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "most bytes kept registered by the cache" },
    [RD_VB_T_RC_TIMEOUT] = {
        .name = "RDMPI_RC_TIMEOUT", .type = RD_TUN_INT,
        .dflt = 14, .min = 1, .max = 31,
        .meaning = "RC QP ack timeout exponent: a try waits 4.096 us x 2^value, 7 tries" },
};

const rd_tunable_table_t rd_vb_tunables_table = {
    "verbs", "src/transport/verbs/common/verbs.c", rd_vb_tunables, RD_VB_T_COUNT
};

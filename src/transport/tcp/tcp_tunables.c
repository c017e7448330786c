/* The tcp tunables (see tcp_tunables.h). */
#include "transport/tcp/tcp_tunables.h"

#include "transport/tcp/tcp_wire.h"

const rd_tunable_t rd_tcp_tunables[RD_TCP_T_COUNT] = {
    [RD_TCP_T_IF] = {
        .name = "RDMPI_TCP_IF", .type = RD_TUN_STR,
        .meaning = "addresses to publish and listen on: interface names or CIDR blocks, comma-"
                   "separated", .flags = RD_TUN_F_UNSET },
    [RD_TCP_T_EAGER_MAX] = {
        .name = "RDMPI_TCP_EAGER_MAX", .type = RD_TUN_SIZE,
        .dflt = 64 * 1024, .min = 1, .max = RD_TCP_LEN_LIMIT,
        .meaning = "largest eager TCP message; larger ones go RTS/CTS in fragments" },
    [RD_TCP_T_FRAG_MAX] = {
        .name = "RDMPI_TCP_FRAG_MAX", .type = RD_TUN_SIZE,
        .dflt = 256 * 1024, .min = 1, .max = RD_TCP_LEN_LIMIT,
        .meaning = "largest DATA fragment of a streamed message (raised to RDMPI_TCP_EAGER_MAX "
                   "if smaller)" },
    [RD_TCP_T_SENDQ_MAX] = {
        .name = "RDMPI_TCP_SENDQ_MAX", .type = RD_TUN_SIZE,
        .dflt = 1024 * 1024, .min = 0, .max = RD_TUN_SIZE_MAX,
        .meaning = "bytes copied and queued per peer while the socket is full" },
    [RD_TCP_T_COALESCE_MAX] = {
        .name = "RDMPI_TCP_COALESCE_MAX", .type = RD_TUN_SIZE,
        .dflt = 16 * 1024, .min = 0, .max = RD_TCP_LEN_LIMIT,
        .meaning = "largest payload held back to batch a burst into one sendmsg (0: write each "
                   "at once)" },
    [RD_TCP_T_ACK_LOWAT] = {
        .name = "RDMPI_TCP_ACK_LOWAT", .type = RD_TUN_SIZE,
        .dflt = 24 * 1024, .min = 0, .max = 1 << 30,
        .meaning = "SO_RCVLOWAT of the directly read connection, so the kernel ACKs multi-"
                   "segment messages promptly (0 or 1: never raised)" },
    [RD_TCP_T_ACK_LOWAT_BIG] = {
        .name = "RDMPI_TCP_ACK_LOWAT_BIG", .type = RD_TUN_SIZE,
        .dflt = 1024 * 1024, .min = 0, .max = 1 << 30,
        .meaning = "the same while big frames arrive (at least RDMPI_TCP_ACK_LOWAT)" },
    [RD_TCP_T_READ_GAP_NS] = {
        .name = "RDMPI_TCP_READ_GAP_NS", .type = RD_TUN_SIZE,
        .dflt = 700, .min = 0, .max = 1000000000,
        .meaning = "nanoseconds an empty direct read waits before the next, after a multi-"
                   "segment frame (0: every call)" },
};

const rd_tunable_table_t rd_tcp_tunables_table = {
    "tcp", "src/transport/tcp/tcp.c", rd_tcp_tunables, RD_TCP_T_COUNT
};

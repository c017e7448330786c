/* The tcp tunables (see tcp_tunables.h). */
#include "transport/tcp/tcp_tunables.h"

#include "transport/tcp/tcp_wire.h"

const rd_tunable_t rd_tcp_tunables[RD_TCP_T_COUNT] = {
    [RD_TCP_T_IF] = RD_TUNE_STR_F("RDMPI_TCP_IF", NULL, NULL, RD_TUN_F_UNSET,
        "addresses to publish and listen on: interface names or CIDR blocks, comma-"
        "separated"),
    [RD_TCP_T_EAGER_MAX] = RD_TUNE_SIZE("RDMPI_TCP_EAGER_MAX", 64 * 1024, 1, RD_TCP_LEN_LIMIT,
        "largest eager TCP message; larger ones go RTS/CTS in fragments"),
    [RD_TCP_T_FRAG_MAX] = RD_TUNE_SIZE("RDMPI_TCP_FRAG_MAX", 256 * 1024, 1, RD_TCP_LEN_LIMIT,
        "largest DATA fragment of a streamed message (raised to RDMPI_TCP_EAGER_MAX "
        "if smaller)"),
    [RD_TCP_T_SENDQ_MAX] = RD_TUNE_SIZE("RDMPI_TCP_SENDQ_MAX", 1024 * 1024, 0, RD_TUN_SIZE_MAX,
        "bytes copied and queued per peer while the socket is full"),
    [RD_TCP_T_COALESCE_MAX] = RD_TUNE_SIZE("RDMPI_TCP_COALESCE_MAX", 16 * 1024, 0, RD_TCP_LEN_LIMIT,
        "largest payload held back to batch a burst into one sendmsg (0: write each "
        "at once)"),
    [RD_TCP_T_ACK_LOWAT] = RD_TUNE_SIZE("RDMPI_TCP_ACK_LOWAT", 24 * 1024, 0, 1 << 30,
        "SO_RCVLOWAT of the directly read connection, so the kernel ACKs multi-"
        "segment messages promptly (0 or 1: never raised)"),
    [RD_TCP_T_ACK_LOWAT_BIG] = RD_TUNE_SIZE("RDMPI_TCP_ACK_LOWAT_BIG", 1024 * 1024, 0, 1 << 30,
        "the same while big frames arrive (at least RDMPI_TCP_ACK_LOWAT)"),
    [RD_TCP_T_READ_GAP_NS] = RD_TUNE_SIZE("RDMPI_TCP_READ_GAP_NS", 700, 0, 1000000000,
        "nanoseconds an empty direct read waits before the next, after a multi-"
        "segment frame (0: every call)"),
};

const rd_tunable_table_t rd_tcp_tunables_table = {
    "tcp", "src/transport/tcp/tcp.c", rd_tcp_tunables, RD_TCP_T_COUNT
};

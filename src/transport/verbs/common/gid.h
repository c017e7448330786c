/*
 * GID choice of the verbs transports, apart from the device state so that
 * rdmpi_info shows the index a rank would use without opening a transport.
 */
#ifndef RD_TRANSPORT_VERBS_COMMON_GID_H
#define RD_TRANSPORT_VERBS_COMMON_GID_H

#include <stdint.h>

#include <infiniband/verbs.h>

/* How the default choice ranks a GID entry: 3 RoCE v2 with an IPv4-mapped
 * address (routable, what rdma_cm picks), 2 other RoCE v2, 1 anything
 * else, -1 an empty entry. */
int rd_vb_gid_score(const struct ibv_gid_entry *g);

/* The GID index to use on port of ctx (pa: its attributes): forced >= 0
 * (RDMPI_IB_GID_INDEX) if the port has it, else on Ethernet (RoCE) the best
 * scored entry, on InfiniBand -1 (routed by LID; *gid gets GID 0 for the
 * record). RD_OK with *index and *gid set; RD_EINVAL when the forced index
 * does not exist, RD_ENOTSUP when a RoCE port has no address yet (both with
 * the error detail recorded). */
int rd_vb_gid_choose(struct ibv_context *ctx, uint8_t port, const struct ibv_port_attr *pa,
                     long forced, int *index, union ibv_gid *gid);

#endif

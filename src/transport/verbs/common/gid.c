/* GID choice (see gid.h). */
#include "transport/verbs/common/gid.h"

#include <string.h>

#include "util/errdetail.h"
#include "util/status.h"

int rd_vb_gid_score(const struct ibv_gid_entry *g)
{
    static const uint8_t v4[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
    int v2 = g->gid_type == IBV_GID_TYPE_ROCE_V2;
    int zero = 1;
    for (int i = 0; i < 16; i++)
        zero &= g->gid.raw[i] == 0;
    if (zero)
        return -1;
    if (v2 && memcmp(g->gid.raw, v4, sizeof(v4)) == 0)
        return 3;
    if (v2)
        return 2;
    return 1;
}

int rd_vb_gid_choose(struct ibv_context *ctx, uint8_t port, const struct ibv_port_attr *pa,
                     long forced, int *index, union ibv_gid *gid)
{
    const char *dev = ibv_get_device_name(ctx->device);
    if (forced >= 0) {
        if (forced >= pa->gid_tbl_len || ibv_query_gid(ctx, port, (int)forced, gid) != 0) {
            rd_err_detail("RDMPI_IB_GID_INDEX=%ld: no such GID on %s port %u (the table has %d "
                          "entries; see rdmpi_info)", forced, dev, (unsigned)port,
                          pa->gid_tbl_len);
            return RD_EINVAL;
        }
        *index = (int)forced;
        return RD_OK;
    }
    if (pa->link_layer != IBV_LINK_LAYER_ETHERNET) {
        /* InfiniBand: routed by LID inside the subnet; GID 0 for the record. */
        *index = -1;
        if (ibv_query_gid(ctx, port, 0, gid) != 0)
            memset(gid, 0, sizeof(*gid));
        return RD_OK;
    }
    int best = -1, best_score = 0;
    for (int i = 0; i < pa->gid_tbl_len; i++) {
        struct ibv_gid_entry g;
        if (ibv_query_gid_ex(ctx, port, (uint32_t)i, &g, 0) != 0)
            continue;
        int s = rd_vb_gid_score(&g);
        if (s > best_score) {
            best_score = s;
            best = i;
            *gid = g.gid;
        }
    }
    if (best < 0) {
        rd_err_detail("%s port %u: no GID configured yet (RoCE needs an IP address on the "
                      "port's network interface)", dev, (unsigned)port);
        return RD_ENOTSUP;
    }
    *index = best;
    return RD_OK;
}

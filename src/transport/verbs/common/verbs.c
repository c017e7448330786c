/*
 * Verbs common layer: device and GID selection, addresses, QP transitions,
 * registration through the cache (see verbs.h).
 */
#include "transport/verbs/common/verbs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>
#include <hwloc/openfabrics-verbs.h>

#include "boot/boot.h"
#include "transport/verbs/common/memhook.h"
#include "util/env.h"
#include "util/status.h"

/* Tunables (doc/tunables.md). */
#define RD_VB_RCACHE_ENTRIES_DEFAULT 1024          /* RDMPI_RCACHE_ENTRIES */
#define RD_VB_RCACHE_BYTES_DEFAULT (1LL << 30)     /* RDMPI_RCACHE_BYTES */

/* Transport-level timeouts of an RC QP: 4.096 us * 2^14 = 67 ms per try
 * (RDMPI_RC_TIMEOUT, the exponent, 1 to 31), 7 tries; RNR retry 7 =
 * infinite (receivers are flow-controlled, so an RNR only happens
 * transiently while an SRQ refill is pending). */
#define RD_VB_RC_TIMEOUT_DEFAULT 14
#define RD_VB_RC_TIMEOUT_MAX 31
#define RD_VB_RC_RETRY 7
#define RD_VB_RC_RNR_RETRY 7
#define RD_VB_RC_MIN_RNR_TIMER 12   /* 0.64 ms */

static rd_vb_dev_t the_dev;

/* ---- device selection ---- */

/* The device nearest the cores this process is bound to, among several
 * (hwloc's PCI locality); the first one when that cannot be decided. */
static struct ibv_device *nearest(struct ibv_device **list, int n)
{
    if (n == 1)
        return list[0];
    hwloc_topology_t topo;
    struct ibv_device *best = list[0];
    if (hwloc_topology_init(&topo) != 0)
        return best;
    hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    hwloc_bitmap_t mine = hwloc_bitmap_alloc(), near = hwloc_bitmap_alloc();
    if (mine && near && hwloc_topology_load(topo) == 0 &&
        hwloc_get_cpubind(topo, mine, HWLOC_CPUBIND_PROCESS) == 0) {
        for (int i = 0; i < n; i++) {
            if (hwloc_ibv_get_device_cpuset(topo, list[i], near) == 0 &&
                hwloc_bitmap_isincluded(mine, near)) {
                best = list[i];
                break;
            }
        }
    }
    hwloc_bitmap_free(mine);
    hwloc_bitmap_free(near);
    hwloc_topology_destroy(topo);
    return best;
}

/* First active port of ctx, or 0. */
static uint8_t active_port(struct ibv_context *ctx, const struct ibv_device_attr *da,
                           struct ibv_port_attr *pa)
{
    for (uint8_t p = 1; p <= da->phys_port_cnt; p++)
        if (ibv_query_port(ctx, p, pa) == 0 && pa->state == IBV_PORT_ACTIVE)
            return p;
    return 0;
}

/* GID rank for the default choice: RoCE v2 with an IPv4-mapped address
 * (routable, what rdma_cm picks), then other RoCE v2, then anything. */
static int gid_score(const struct ibv_gid_entry *g)
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

static int pick_gid(rd_vb_dev_t *d)
{
    long forced = rd_env_long("RDMPI_IB_GID_INDEX", -1);
    if (forced >= 0) {
        if (forced >= d->port_attr.gid_tbl_len ||
            ibv_query_gid(d->ctx, d->port, (int)forced, &d->gid) != 0) {
            fprintf(stderr, "rdmpi: RDMPI_IB_GID_INDEX=%ld: no such GID on %s port %u\n",
                    forced, d->name, d->port);
            return RD_EINVAL;
        }
        d->gid_index = (int)forced;
        return RD_OK;
    }
    if (!d->is_eth) {
        /* InfiniBand: routed by LID inside the subnet; GID 0 for the record. */
        d->gid_index = -1;
        if (ibv_query_gid(d->ctx, d->port, 0, &d->gid) != 0)
            memset(&d->gid, 0, sizeof(d->gid));
        return RD_OK;
    }
    int best = -1, best_score = 0;
    for (int i = 0; i < d->port_attr.gid_tbl_len; i++) {
        struct ibv_gid_entry g;
        if (ibv_query_gid_ex(d->ctx, d->port, (uint32_t)i, &g, 0) != 0)
            continue;
        int s = gid_score(&g);
        if (s > best_score) {
            best_score = s;
            best = i;
            d->gid = g.gid;
        }
    }
    if (best < 0)
        return RD_ENOTSUP;   /* no address configured on the port yet */
    d->gid_index = best;
    return RD_OK;
}

static int mr_reg(void *arg, uintptr_t start, size_t len, void **handle)
{
    rd_vb_dev_t *d = arg;
    struct ibv_mr *mr = ibv_reg_mr(d->pd, (void *)start, len,
                                   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
                                   IBV_ACCESS_REMOTE_WRITE);
    if (!mr)
        return errno == ENOMEM ? RD_ENOMEM : RD_ESYS;
    *handle = mr;
    return RD_OK;
}

static void mr_dereg(void *arg, void *handle)
{
    (void)arg;
    ibv_dereg_mr(handle);
}

static int open_dev(rd_vb_dev_t *d)
{
    int n = 0, rc = RD_ENOTSUP;
    struct ibv_device **list = ibv_get_device_list(&n);
    if (!list)
        return RD_ENOTSUP;   /* no RDMA in this kernel (ENOSYS) */
    const char *want = rd_env_str("RDMPI_IB_DEVICE", NULL);
    struct ibv_device *dev = NULL;
    if (want) {
        for (int i = 0; i < n; i++)
            if (strcmp(ibv_get_device_name(list[i]), want) == 0)
                dev = list[i];
        if (!dev) {
            fprintf(stderr, "rdmpi: RDMPI_IB_DEVICE=%s: no such RDMA device\n", want);
            rc = RD_EINVAL;
        }
    } else if (n > 0) {
        dev = nearest(list, n);
    }
    if (!dev)
        goto out;
    snprintf(d->name, sizeof(d->name), "%s", ibv_get_device_name(dev));
    d->ctx = ibv_open_device(dev);
    if (!d->ctx)
        goto out;
    if (ibv_query_device(d->ctx, &d->attr) != 0)
        goto err;
    d->port = active_port(d->ctx, &d->attr, &d->port_attr);
    if (!d->port)
        goto err;
    d->is_eth = d->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET;
    d->mtu = d->port_attr.active_mtu;
    if ((rc = pick_gid(d)) != RD_OK)
        goto err;
    rc = RD_ENOTSUP;
    d->pd = ibv_alloc_pd(d->ctx);
    if (!d->pd)
        goto err;
    long t = rd_env_long("RDMPI_RC_TIMEOUT", RD_VB_RC_TIMEOUT_DEFAULT);
    if (t < 1 || t > RD_VB_RC_TIMEOUT_MAX) {
        fprintf(stderr, "rdmpi: ignoring RDMPI_RC_TIMEOUT=%ld: not 1 to %d; using %d\n", t,
                RD_VB_RC_TIMEOUT_MAX, RD_VB_RC_TIMEOUT_DEFAULT);
        t = RD_VB_RC_TIMEOUT_DEFAULT;
    }
    d->rc_timeout = (uint8_t)t;
    int cache = rd_env_bool("RDMPI_RCACHE", 1);
    rd_rcache_init(&d->rcache, cache,
                   (size_t)rd_env_long("RDMPI_RCACHE_ENTRIES", RD_VB_RCACHE_ENTRIES_DEFAULT),
                   (size_t)rd_env_size("RDMPI_RCACHE_BYTES", RD_VB_RCACHE_BYTES_DEFAULT),
                   mr_reg, mr_dereg, d);
    if (cache)
        rd_memhook_enable();
    ibv_free_device_list(list);
    return RD_OK;
err:
    ibv_close_device(d->ctx);
    d->ctx = NULL;
out:
    ibv_free_device_list(list);
    return rc;
}

int rd_vb_dev_get(rd_vb_dev_t **dev)
{
    if (the_dev.refs == 0) {
        memset(&the_dev, 0, sizeof(the_dev));
        int rc = open_dev(&the_dev);
        if (rc != RD_OK)
            return rc;
    }
    the_dev.refs++;
    *dev = &the_dev;
    return RD_OK;
}

void rd_vb_dev_put(rd_vb_dev_t *d)
{
    if (!d || --d->refs > 0)
        return;
    rd_memhook_disable();
    rd_rcache_destroy(&d->rcache);
    ibv_dealloc_pd(d->pd);
    ibv_close_device(d->ctx);
    memset(d, 0, sizeof(*d));
}

/* ---- addresses ---- */

int rd_vb_addr_publish(const rd_vb_dev_t *dev, const char *key, uint32_t qpn)
{
    rd_vb_addr_t a;
    memset(&a, 0, sizeof(a));
    a.version = RD_VB_ADDR_VERSION;
    if (dev) {
        a.flags = RD_VB_ADDR_F_DEV | (dev->is_eth ? RD_VB_ADDR_F_ETH : 0);
        a.lid = dev->port_attr.lid;
        a.qpn = qpn;
        memcpy(a.gid, dev->gid.raw, sizeof(a.gid));
        a.mtu = (uint8_t)dev->mtu;
        a.port = dev->port;
    }
    return rd_boot_put(key, &a, sizeof(a));
}

int rd_vb_addr_lookup(int rank, const char *key, rd_vb_addr_t *out)
{
    size_t len = sizeof(*out);
    int rc = rd_boot_get(rank, key, out, &len);
    if (rc != RD_OK)
        return rc;
    if (len != sizeof(*out) || out->version != RD_VB_ADDR_VERSION)
        return RD_EINVAL;
    return RD_OK;
}

int rd_vb_addr_compatible(const rd_vb_dev_t *dev, const rd_vb_addr_t *a)
{
    return (a->flags & RD_VB_ADDR_F_DEV) && !!(a->flags & RD_VB_ADDR_F_ETH) == !!dev->is_eth;
}

/* ---- QP transitions ---- */

static void fill_ah(const rd_vb_dev_t *dev, const rd_vb_addr_t *a, struct ibv_ah_attr *ah)
{
    memset(ah, 0, sizeof(*ah));
    ah->dlid = a->lid;
    ah->port_num = dev->port;
    if (dev->is_eth || dev->gid_index >= 0) {
        ah->is_global = 1;
        memcpy(ah->grh.dgid.raw, a->gid, sizeof(a->gid));
        ah->grh.sgid_index = (uint8_t)(dev->gid_index < 0 ? 0 : dev->gid_index);
        ah->grh.hop_limit = 64;
    }
}

int rd_vb_rc_connect(const rd_vb_dev_t *dev, struct ibv_qp *qp, const rd_vb_addr_t *a,
                     uint32_t remote_qpn, uint32_t remote_psn, uint32_t my_psn,
                     uint8_t rd_atom)
{
    struct ibv_qp_attr init = {
        .qp_state = IBV_QPS_INIT,
        .pkey_index = 0,
        .port_num = dev->port,
        .qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
                           IBV_ACCESS_REMOTE_WRITE,
    };
    if (ibv_modify_qp(qp, &init, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
                      IBV_QP_ACCESS_FLAGS) != 0)
        return RD_ESYS;

    struct ibv_qp_attr rtr = {
        .qp_state = IBV_QPS_RTR,
        .path_mtu = a->mtu && a->mtu < dev->mtu ? (enum ibv_mtu)a->mtu : dev->mtu,
        .dest_qp_num = remote_qpn,
        .rq_psn = remote_psn,
        .max_dest_rd_atomic = rd_atom,
        .min_rnr_timer = RD_VB_RC_MIN_RNR_TIMER,
    };
    fill_ah(dev, a, &rtr.ah_attr);
    if (ibv_modify_qp(qp, &rtr, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
                      IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
                      IBV_QP_MIN_RNR_TIMER) != 0)
        return RD_ESYS;

    struct ibv_qp_attr rts = {
        .qp_state = IBV_QPS_RTS,
        .sq_psn = my_psn,
        .timeout = dev->rc_timeout,
        .retry_cnt = RD_VB_RC_RETRY,
        .rnr_retry = RD_VB_RC_RNR_RETRY,
        .max_rd_atomic = rd_atom,
    };
    if (ibv_modify_qp(qp, &rts, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
                      IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC) != 0)
        return RD_ESYS;
    return RD_OK;
}

int rd_vb_ud_ready(const rd_vb_dev_t *dev, struct ibv_qp *qp, uint32_t qkey)
{
    struct ibv_qp_attr a = {
        .qp_state = IBV_QPS_INIT,
        .pkey_index = 0,
        .port_num = dev->port,
        .qkey = qkey,
    };
    if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY))
        return RD_ESYS;
    a.qp_state = IBV_QPS_RTR;
    if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
        return RD_ESYS;
    a.qp_state = IBV_QPS_RTS;
    a.sq_psn = 0;
    if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN))
        return RD_ESYS;
    return RD_OK;
}

struct ibv_ah *rd_vb_ah_create(const rd_vb_dev_t *dev, const rd_vb_addr_t *a)
{
    struct ibv_ah_attr ah;
    fill_ah(dev, a, &ah);
    return ibv_create_ah(dev->pd, &ah);
}

struct ibv_qp *rd_vb_qp_create(const rd_vb_dev_t *dev, struct ibv_qp_init_attr *attr,
                               uint32_t want_inline)
{
    for (uint32_t in = want_inline;; in /= 2) {
        attr->cap.max_inline_data = in;
        struct ibv_qp *qp = ibv_create_qp(dev->pd, attr);
        if (qp || in == 0)
            return qp;
    }
}

/* ---- registration ---- */

static void invalidate(void *arg, uintptr_t start, size_t len)
{
    rd_rcache_invalidate(arg, start, len);
}

int rd_vb_mr_acquire(rd_vb_dev_t *dev, const void *buf, size_t len, rd_rcache_ent_t **e)
{
    rd_memhook_drain(invalidate, &dev->rcache);
    return rd_rcache_acquire(&dev->rcache, buf, len, e);
}

void rd_vb_mr_release(rd_vb_dev_t *dev, rd_rcache_ent_t *e)
{
    rd_rcache_release(&dev->rcache, e);
}

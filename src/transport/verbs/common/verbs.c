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

#include <sys/resource.h>

#include "boot/boot.h"
#include "transport/transport.h"
#include "transport/verbs/common/gid.h"
#include "transport/verbs/common/memhook.h"
#include "transport/verbs/common/verbs_tunables.h"
#include "util/errdetail.h"
#include "util/status.h"

/* Transport-level timeouts of an RC QP: 4.096 us * 2^14 = 67 ms per try
 * (RDMPI_RC_TIMEOUT, the exponent, verbs_tunables.c), 7 tries; RNR retry 7 =
 * infinite (receivers are flow-controlled, so an RNR only happens
 * transiently while an SRQ refill is pending). */
#define RD_VB_RC_RETRY 7
#define RD_VB_RC_RNR_RETRY 7
#define RD_VB_RC_MIN_RNR_TIMER 12   /* 0.64 ms */

static rd_vb_dev_t the_dev;
/* Why the last open found no usable device, for rd_vb_refusal. */
static char nodev_why[160];

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

/* What peers may do to registered memory and through an RC QP: read,
 * write, and 8-byte atomics when the device has them. */
int rd_vb_access(const rd_vb_dev_t *dev)
{
    int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
    if (dev->attr.atomic_cap != IBV_ATOMIC_NONE)
        access |= IBV_ACCESS_REMOTE_ATOMIC;
    return access;
}

static int mr_reg(void *arg, uintptr_t start, size_t len, void **handle)
{
    rd_vb_dev_t *d = arg;
    struct ibv_mr *mr = ibv_reg_mr(d->pd, (void *)start, len, rd_vb_access(d));
    if (!mr) {
        int err = errno;
        struct rlimit rl;
        char hint[96] = "";
        /* Pinning beyond RLIMIT_MEMLOCK is the usual cause (ENOMEM, EPERM). */
        if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0) {
            if (rl.rlim_cur == RLIM_INFINITY)
                snprintf(hint, sizeof(hint), "; memlock limit: unlimited");
            else
                snprintf(hint, sizeof(hint), "; memlock limit: %llu KiB (ulimit -l; raise it "
                         "for RDMA)", (unsigned long long)rl.rlim_cur / 1024);
        }
        rd_err_detail("ibv_reg_mr(%zu bytes) on %s: %s%s", len, d->name, strerror(err), hint);
        return err == ENOMEM ? RD_ENOMEM : RD_ESYS;
    }
    *handle = mr;
    return RD_OK;
}

static void mr_dereg(void *arg, void *handle)
{
    (void)arg;
    ibv_dereg_mr(handle);
}

/* The tunables of this layer, all read before the device is opened. */
typedef struct vb_tun {
    const char *device;
    long long gid_index, rc_timeout, cache, cache_entries, cache_bytes;
} vb_tun_t;

static int read_tunables(vb_tun_t *v)
{
    const rd_tunable_t *t = rd_vb_tunables;
    int rc;
    if ((rc = rd_tunable_str(&t[RD_VB_T_IB_DEVICE], &v->device)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_VB_T_IB_GID_INDEX], &v->gid_index)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_VB_T_RC_TIMEOUT], &v->rc_timeout)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_VB_T_RCACHE], &v->cache)) != RD_OK ||
        (rc = rd_tunable_int(&t[RD_VB_T_RCACHE_ENTRIES], &v->cache_entries)) != RD_OK)
        return rc;
    return rd_tunable_int(&t[RD_VB_T_RCACHE_BYTES], &v->cache_bytes);
}

static int open_dev(rd_vb_dev_t *d)
{
    int n = 0, rc;
    vb_tun_t v;
    if ((rc = read_tunables(&v)) != RD_OK)
        return rc;
    rc = RD_ENOTSUP;
    struct ibv_device **list = ibv_get_device_list(&n);
    if (!list) {
        int err = errno;
        /* A device asked for by name must exist: never a silent fallback. */
        if (v.device) {
            rd_err_detail("RDMPI_IB_DEVICE=%s: no such RDMA device (ibv_get_device_list: %s; "
                          "no RDMA support in this kernel?)", v.device, strerror(err));
            return RD_EINVAL;
        }
        rd_err_detail_sys(err, "ibv_get_device_list (no RDMA support in this kernel?)");
        return RD_ENOTSUP;
    }
    struct ibv_device *dev = NULL;
    if (v.device) {
        for (int i = 0; i < n; i++)
            if (strcmp(ibv_get_device_name(list[i]), v.device) == 0)
                dev = list[i];
        if (!dev) {
            rd_err_detail("RDMPI_IB_DEVICE=%s: no such RDMA device (%d found; see rdmpi_info)",
                          v.device, n);
            rc = RD_EINVAL;
        }
    } else if (n > 0) {
        dev = nearest(list, n);
    } else {
        rd_err_detail("no RDMA device");
    }
    if (!dev)
        goto out;
    snprintf(d->name, sizeof(d->name), "%s", ibv_get_device_name(dev));
    d->ctx = ibv_open_device(dev);
    if (!d->ctx) {
        rd_err_detail_sys(errno, "ibv_open_device(%s)", d->name);
        goto out;
    }
    if (ibv_query_device(d->ctx, &d->attr) != 0) {
        rd_err_detail_sys(errno, "ibv_query_device(%s)", d->name);
        goto err;
    }
    d->port = active_port(d->ctx, &d->attr, &d->port_attr);
    if (!d->port) {
        rd_err_detail("%s: no active port", d->name);
        goto err;
    }
    d->is_eth = d->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET;
    d->mtu = d->port_attr.active_mtu;
    rc = rd_vb_gid_choose(d->ctx, d->port, &d->port_attr, (long)v.gid_index, &d->gid_index,
                          &d->gid);
    if (rc != RD_OK)
        goto err;
    rc = RD_ENOTSUP;
    d->pd = ibv_alloc_pd(d->ctx);
    if (!d->pd) {
        rd_err_detail_sys(errno, "ibv_alloc_pd(%s)", d->name);
        goto err;
    }
    d->rc_timeout = (uint8_t)v.rc_timeout;
    rd_rcache_init(&d->rcache, (int)v.cache, (size_t)v.cache_entries, (size_t)v.cache_bytes,
                   mr_reg, mr_dereg, d);
    if (v.cache)
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
        if (rc != RD_OK) {
            snprintf(nodev_why, sizeof(nodev_why), "%s", rd_err_detail_peek());
            return rc;
        }
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

void rd_vb_addr_fill(const rd_vb_dev_t *dev, uint32_t qpn, rd_vb_addr_t *a)
{
    memset(a, 0, sizeof(*a));
    a->version = RD_VB_ADDR_VERSION;
    if (dev) {
        a->flags = RD_VB_ADDR_F_DEV | (dev->is_eth ? RD_VB_ADDR_F_ETH : 0);
        a->lid = dev->port_attr.lid;
        a->qpn = qpn;
        memcpy(a->gid, dev->gid.raw, sizeof(a->gid));
        a->mtu = (uint8_t)dev->mtu;
        a->port = dev->port;
    }
}

int rd_vb_addr_publish(const rd_vb_dev_t *dev, const char *key, uint32_t qpn)
{
    rd_vb_addr_t a;
    rd_vb_addr_fill(dev, qpn, &a);
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

int rd_vb_refusal(const rd_vb_dev_t *dev, int rank, const char *key, const char *tp, char *buf,
                  size_t len)
{
    rd_vb_addr_t a;
    size_t alen = sizeof(a);
    if (!dev) {
        snprintf(buf, len, "no usable RDMA device here: %s",
                 *nodev_why ? nodev_why : "see rdmpi_info");
        return RD_TP_REFUSED;
    }
    if (rd_boot_get(rank, key, &a, &alen) == RD_EINVAL) {
        snprintf(buf, len, "rank %d does not use %s", rank, tp);
        return RD_TP_ABSENT;
    }
    if (alen != sizeof(a) || a.version != RD_VB_ADDR_VERSION)
        snprintf(buf, len, "rank %d published a %s address of another version", rank, tp);
    else if (!(a.flags & RD_VB_ADDR_F_DEV))
        snprintf(buf, len, "rank %d has no usable RDMA device", rank);
    else if (!rd_vb_addr_compatible(dev, &a))
        snprintf(buf, len, "rank %d's port is %s, this rank's %s is %s", rank,
                 a.flags & RD_VB_ADDR_F_ETH ? "Ethernet (RoCE)" : "InfiniBand", dev->name,
                 dev->is_eth ? "Ethernet (RoCE)" : "InfiniBand");
    else
        snprintf(buf, len, "rank %d's %s address does not suit this rank's", rank, tp);
    return RD_TP_REFUSED;
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

/* A QP transition failed: ibv_modify_qp returns the errno value. */
static int qp_fail(const rd_vb_dev_t *dev, const struct ibv_qp *qp, const char *to, int ret)
{
    errno = ret > 0 ? ret : errno;
    rd_err_detail_sys(errno, "ibv_modify_qp(QP %u on %s to %s)", qp->qp_num, dev->name, to);
    return RD_ESYS;
}

int rd_vb_rc_connect(const rd_vb_dev_t *dev, struct ibv_qp *qp, const rd_vb_addr_t *a,
                     uint32_t remote_qpn, uint32_t remote_psn, uint32_t my_psn,
                     uint8_t rd_atom)
{
    struct ibv_qp_attr init = {
        .qp_state = IBV_QPS_INIT,
        .pkey_index = 0,
        .port_num = dev->port,
        .qp_access_flags = (unsigned)rd_vb_access(dev),
    };
    int ret = ibv_modify_qp(qp, &init, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
                            IBV_QP_ACCESS_FLAGS);
    if (ret != 0)
        return qp_fail(dev, qp, "INIT", ret);

    struct ibv_qp_attr rtr = {
        .qp_state = IBV_QPS_RTR,
        .path_mtu = a->mtu && a->mtu < dev->mtu ? (enum ibv_mtu)a->mtu : dev->mtu,
        .dest_qp_num = remote_qpn,
        .rq_psn = remote_psn,
        .max_dest_rd_atomic = rd_atom,
        .min_rnr_timer = RD_VB_RC_MIN_RNR_TIMER,
    };
    fill_ah(dev, a, &rtr.ah_attr);
    ret = ibv_modify_qp(qp, &rtr, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
                        IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
                        IBV_QP_MIN_RNR_TIMER);
    if (ret != 0)
        return qp_fail(dev, qp, "RTR", ret);

    struct ibv_qp_attr rts = {
        .qp_state = IBV_QPS_RTS,
        .sq_psn = my_psn,
        .timeout = dev->rc_timeout,
        .retry_cnt = RD_VB_RC_RETRY,
        .rnr_retry = RD_VB_RC_RNR_RETRY,
        .max_rd_atomic = rd_atom,
    };
    ret = ibv_modify_qp(qp, &rts, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
                        IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
    if (ret != 0)
        return qp_fail(dev, qp, "RTS", ret);
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
    int ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY);
    if (ret != 0)
        return qp_fail(dev, qp, "INIT", ret);
    a.qp_state = IBV_QPS_RTR;
    if ((ret = ibv_modify_qp(qp, &a, IBV_QP_STATE)) != 0)
        return qp_fail(dev, qp, "RTR", ret);
    a.qp_state = IBV_QPS_RTS;
    a.sq_psn = 0;
    if ((ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN)) != 0)
        return qp_fail(dev, qp, "RTS", ret);
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
    if (rd_rcache_lookup(&dev->rcache, buf, len, e))
        return RD_OK;   /* a hit registers nothing, so it leaves no error detail */
    int had_detail = *rd_err_detail_peek() != '\0';
    int rc = rd_rcache_acquire(&dev->rcache, buf, len, e);
    /* The cache retries a failed registration after freeing idle ones: a
     * failure it recovered from must not be blamed for a later error. */
    if (rc == RD_OK && !had_detail)
        rd_err_detail_clear();
    return rc;
}

void rd_vb_mr_release(rd_vb_dev_t *dev, rd_rcache_ent_t *e)
{
    rd_rcache_release(&dev->rcache, e);
}

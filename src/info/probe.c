/*
 * Probing what this machine offers (see probe.h). Each probe does what the
 * transport itself would need at MPI_Init, on this process alone:
 *  - shm: create, size and map a POSIX shared-memory segment; CMA between
 *    ranks needs process_vm_readv on a sibling, which Yama's ptrace_scope
 *    decides (0 allows it, 1 and more refuse it between siblings);
 *  - tcp: a listening socket on the loopback address that accepts a
 *    connection from this process (reachable to itself);
 *  - rc, ud: the device a rank would pick opens, has an active port and a
 *    GID, and gives a PD, a CQ, a QP of that type and a 4 KiB registration
 *    (what fails when RLIMIT_MEMLOCK is too small).
 */
#include "config.h"
#include "info/probe.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#ifdef RD_HAVE_VERBS
#include <infiniband/verbs.h>

#include "transport/verbs/common/gid.h"
#include "transport/verbs/common/verbs_tunables.h"
#endif

#include "util/errdetail.h"
#include "util/status.h"

static void probe_shm(rd_info_tp_t *t)
{
    char name[64];
    snprintf(name, sizeof(name), "/rdmpi-info-%ld", (long)getpid());
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        snprintf(t->how, sizeof(t->how), "shm_open: %s", strerror(errno));
        return;
    }
    shm_unlink(name);
    void *p = MAP_FAILED;
    if (ftruncate(fd, 1 << 20) == 0)
        p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int err = errno;
    close(fd);
    if (p == MAP_FAILED) {
        snprintf(t->how, sizeof(t->how), "1 MiB segment in /dev/shm: %s", strerror(err));
        return;
    }
    munmap(p, 1 << 20);
    t->usable = 1;
    const char *cma = "single copy (CMA) not built";
#ifdef HAVE_PROCESS_VM_READV
    int scope = -1;
    FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
    if (f) {
        if (fscanf(f, "%d", &scope) != 1)
            scope = -1;
        fclose(f);
    }
    cma = scope <= 0 ? "single copy (CMA) allowed (no Yama restriction)"
                     : "single copy (CMA) refused between ranks (Yama ptrace_scope >= 1): "
                       "rendezvous streams through the rings";
#endif
    snprintf(t->how, sizeof(t->how), "a 1 MiB segment was created and mapped; %s", cma);
}

static void probe_tcp(rd_info_tp_t *t)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t alen = sizeof(a);
    int l = socket(AF_INET, SOCK_STREAM, 0), c = -1, s = -1;
    const char *step = "socket";
    if (l < 0)
        goto out;
    step = "bind/listen on 127.0.0.1";
    if (bind(l, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(l, 1) != 0 ||
        getsockname(l, (struct sockaddr *)&a, &alen) != 0)
        goto out;
    step = "connect to itself";
    c = socket(AF_INET, SOCK_STREAM, 0);
    if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)) != 0)
        goto out;
    step = "accept";
    s = accept(l, NULL, NULL);
    if (s < 0)
        goto out;
    t->usable = 1;
    snprintf(t->how, sizeof(t->how), "a loopback connection to itself was accepted "
             "(addresses between hosts: RDMPI_TCP_IF, doc/tunables.md)");
out:
    if (!t->usable)
        snprintf(t->how, sizeof(t->how), "%s: %s", step, strerror(errno));
    if (s >= 0)
        close(s);
    if (c >= 0)
        close(c);
    if (l >= 0)
        close(l);
}

#ifdef RD_HAVE_VERBS
static const char *gid_type_name(uint32_t t)
{
    switch (t) {
    case IBV_GID_TYPE_IB: return "IB";
    case IBV_GID_TYPE_ROCE_V1: return "RoCE v1";
    case IBV_GID_TYPE_ROCE_V2: return "RoCE v2";
    }
    return "?";
}

static const char *port_state_name(enum ibv_port_state s)
{
    switch (s) {
    case IBV_PORT_ACTIVE: return "active";
    case IBV_PORT_DOWN: return "down";
    case IBV_PORT_INIT: return "init";
    case IBV_PORT_ARMED: return "armed";
    default: return "other";
    }
}

/* RDMPI_IB_GID_INDEX as a rank reads it: -1 when unset or invalid (then the
 * tunables section shows the error). */
static long forced_gid(void)
{
    long long v;
    if (rd_tunable_int(&rd_vb_tunables[RD_VB_T_IB_GID_INDEX], &v) != RD_OK) {
        rd_err_detail_clear();
        return -1;
    }
    return (long)v;
}

static void describe_port(struct ibv_context *ctx, uint8_t p, rd_info_port_t *o)
{
    struct ibv_port_attr pa;
    memset(o, 0, sizeof(*o));
    o->num = p;
    o->chosen = -1;
    if (ibv_query_port(ctx, p, &pa) != 0) {
        o->state = "unknown";
        o->link = "?";
        snprintf(o->why, sizeof(o->why), "ibv_query_port: %s", strerror(errno));
        return;
    }
    o->state = port_state_name(pa.state);
    o->link = pa.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "InfiniBand";
    o->mtu = 128 << pa.active_mtu;
    o->lid = pa.lid;
    for (int i = 0; i < pa.gid_tbl_len && o->ngid < RD_INFO_GID_MAX; i++) {
        struct ibv_gid_entry g;
        if (ibv_query_gid_ex(ctx, p, (uint32_t)i, &g, 0) != 0 || rd_vb_gid_score(&g) < 0)
            continue;
        rd_info_gid_t *d = &o->gid[o->ngid++];
        d->index = i;
        d->type = gid_type_name(g.gid_type);
        char *w = d->text;
        for (int k = 0; k < 16; k += 2)
            w += sprintf(w, "%s%02x%02x", k ? ":" : "", g.gid.raw[k], g.gid.raw[k + 1]);
    }
    union ibv_gid gid;
    int idx = -1;
    if (rd_vb_gid_choose(ctx, p, &pa, forced_gid(), &idx, &gid) == RD_OK) {
        o->chosen = idx;
        snprintf(o->why, sizeof(o->why), "%s", idx < 0 ? "InfiniBand: routed by LID"
                 : forced_gid() >= 0 ? "RDMPI_IB_GID_INDEX" : "default choice");
    } else {
        rd_err_detail_take(o->why, sizeof(o->why));
    }
}

int rd_info_devices(rd_info_dev_t *dev, int max, char *why, size_t whylen)
{
    int n = 0, count = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    if (!list) {
        snprintf(why, whylen, "ibv_get_device_list: %s (no RDMA support in this kernel?)",
                 strerror(errno));
        return 0;
    }
    if (n == 0)
        snprintf(why, whylen, "no RDMA device");
    for (int i = 0; i < n && count < max; i++) {
        rd_info_dev_t *d = &dev[count];
        memset(d, 0, sizeof(*d));
        snprintf(d->name, sizeof(d->name), "%s", ibv_get_device_name(list[i]));
        struct ibv_context *ctx = ibv_open_device(list[i]);
        struct ibv_device_attr da;
        if (!ctx)
            continue;
        if (ibv_query_device(ctx, &da) == 0)
            for (uint8_t p = 1; p <= da.phys_port_cnt && d->nports < RD_INFO_PORT_MAX; p++)
                describe_port(ctx, p, &d->port[d->nports++]);
        ibv_close_device(ctx);
        count++;
    }
    ibv_free_device_list(list);
    return count;
}

/* The device a rank would open (RDMPI_IB_DEVICE or the first), with an
 * active port and a GID, gives a PD, a CQ, a QP of type qpt and a
 * registration. */
static void probe_verbs(rd_info_tp_t *t, enum ibv_qp_type qpt)
{
    int n = 0;
    const char *want = NULL;
    struct ibv_device **list = ibv_get_device_list(&n);
    struct ibv_context *ctx = NULL;
    struct ibv_pd *pd = NULL;
    struct ibv_cq *cq = NULL;
    struct ibv_qp *qp = NULL;
    struct ibv_mr *mr = NULL;
    static char buf[4096];
    if (!list || n == 0) {
        snprintf(t->how, sizeof(t->how), "no RDMA device");
        goto out;
    }
    if (rd_tunable_str(&rd_vb_tunables[RD_VB_T_IB_DEVICE], &want) != RD_OK) {
        rd_err_detail_clear();
        want = NULL;
    }
    struct ibv_device *dev = list[0];
    for (int i = 0; want && i < n; i++)
        if (!strcmp(ibv_get_device_name(list[i]), want))
            dev = list[i];
    const char *name = ibv_get_device_name(dev);
    struct ibv_device_attr da;
    struct ibv_port_attr pa;
    uint8_t port = 0;
    if (!(ctx = ibv_open_device(dev)) || ibv_query_device(ctx, &da) != 0) {
        snprintf(t->how, sizeof(t->how), "%s: ibv_open_device: %s", name, strerror(errno));
        goto out;
    }
    for (uint8_t p = 1; p <= da.phys_port_cnt && !port; p++)
        if (ibv_query_port(ctx, p, &pa) == 0 && pa.state == IBV_PORT_ACTIVE)
            port = p;
    union ibv_gid gid;
    int idx;
    if (!port) {
        snprintf(t->how, sizeof(t->how), "%s: no active port", name);
        goto out;
    }
    if (rd_vb_gid_choose(ctx, port, &pa, forced_gid(), &idx, &gid) != RD_OK) {
        rd_err_detail_take(t->how, sizeof(t->how));
        goto out;
    }
    struct ibv_qp_init_attr qa = {
        .cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 },
        .qp_type = qpt,
    };
    const char *step = "ibv_alloc_pd";
    if (!(pd = ibv_alloc_pd(ctx)))
        goto fail;
    step = "ibv_create_cq";
    if (!(cq = ibv_create_cq(ctx, 8, NULL, NULL, 0)))
        goto fail;
    qa.send_cq = qa.recv_cq = cq;
    step = "ibv_create_qp";
    if (!(qp = ibv_create_qp(pd, &qa)))
        goto fail;
    step = "ibv_reg_mr of 4 KiB";
    if (!(mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE)))
        goto fail;
    t->usable = 1;
    snprintf(t->how, sizeof(t->how), "%s port %u: PD, CQ, %s QP and a registration created "
             "(GID index %d)", name, (unsigned)port, qpt == IBV_QPT_RC ? "RC" : "UD", idx);
    goto out;
fail:;
    struct rlimit rl;
    int err = errno;
    char lim[64] = "";
    if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        snprintf(lim, sizeof(lim), " (memlock limit %llu KiB)",
                 (unsigned long long)rl.rlim_cur / 1024);
    snprintf(t->how, sizeof(t->how), "%s: %s: %s%s", name, step, strerror(err), lim);
out:
    if (mr)
        ibv_dereg_mr(mr);
    if (qp)
        ibv_destroy_qp(qp);
    if (cq)
        ibv_destroy_cq(cq);
    if (pd)
        ibv_dealloc_pd(pd);
    if (ctx)
        ibv_close_device(ctx);
    if (list)
        ibv_free_device_list(list);
}
#else
int rd_info_devices(rd_info_dev_t *dev, int max, char *why, size_t whylen)
{
    (void)dev;
    (void)max;
    snprintf(why, whylen, "built without verbs (--without-verbs)");
    return 0;
}
#endif

int rd_info_probe_transports(rd_info_tp_t *tp, int max)
{
    static const char *const names[] = { "shm", "rc", "ud", "tcp" };
    int n = 0;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && n < max; i++) {
        rd_info_tp_t *t = &tp[n++];
        memset(t, 0, sizeof(*t));
        t->name = names[i];
        t->built = 1;
        if (!strcmp(t->name, "shm")) {
            probe_shm(t);
        } else if (!strcmp(t->name, "tcp")) {
            probe_tcp(t);
        } else {
#ifdef RD_HAVE_VERBS
            probe_verbs(t, !strcmp(t->name, "rc") ? IBV_QPT_RC : IBV_QPT_UD);
#else
            t->built = 0;
            snprintf(t->how, sizeof(t->how), "not built (--without-verbs)");
#endif
        }
    }
    return n;
}

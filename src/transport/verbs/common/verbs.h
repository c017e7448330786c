/*
 * Verbs common layer: what every InfiniBand/RoCE transport (rc, ud) shares.
 *
 *  - the device: one opened context and protection domain per process,
 *    reference-counted so rc and ud share them (rd_vb_dev_get/put);
 *  - port and GID selection (RoCE v2 GID by default, RDMPI_IB_DEVICE and
 *    RDMPI_IB_GID_INDEX override), the active path MTU, the NIC nearest
 *    the rank's cores when there are several (hwloc);
 *  - the address a peer needs (rd_vb_addr_t), published through PMIx at
 *    init and looked up lazily;
 *  - QP state transitions in one place (RC: INIT -> RTR -> RTS in
 *    rd_vb_rc_connect; UD: rd_vb_ud_ready);
 *  - memory registration through the pin-down cache (rcache.h), with the
 *    munmap/mmap interception of memhook.c keeping it correct.
 *
 * Without a usable device (no RDMA in the kernel, no active port),
 * rd_vb_dev_get returns RD_ENOTSUP (the reason in the error detail): the
 * transports then answer reachable() with 0 and the job runs on shm/tcp.
 */
#ifndef RD_TRANSPORT_VERBS_COMMON_VERBS_H
#define RD_TRANSPORT_VERBS_COMMON_VERBS_H

#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "transport/verbs/common/rcache.h"

typedef struct rd_vb_dev {
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_device_attr attr;
    struct ibv_port_attr port_attr;
    uint8_t port;                /* 1-based port number */
    int gid_index;               /* -1 on InfiniBand without a global route */
    union ibv_gid gid;
    int is_eth;                  /* link layer Ethernet (RoCE): GRH always */
    enum ibv_mtu mtu;            /* active MTU of the port */
    uint8_t rc_timeout;          /* RC ack timeout exponent (RDMPI_RC_TIMEOUT) */
    rd_rcache_t rcache;          /* pin-down cache over pd */
    char name[IBV_SYSFS_NAME_MAX];
    int refs;
} rd_vb_dev_t;

/* Opens the device on first use (later calls take a reference). Returns
 * RD_OK, RD_ENOTSUP when there is no usable device (not an error for the
 * job), or RD_EINVAL when a tunable is bad or RDMPI_IB_DEVICE /
 * RDMPI_IB_GID_INDEX name something that does not exist; the error detail
 * (util/errdetail.h) says which. */
int rd_vb_dev_get(rd_vb_dev_t **dev);
void rd_vb_dev_put(rd_vb_dev_t *dev);

/*
 * Address of one QP of one rank, as published through PMIx (version 1,
 * 28 bytes, integers little-endian as on every host rdmpi runs on):
 *
 *   0       1       2               4                               8
 *   +-------+-------+---------------+-------------------------------+
 *   |version| flags |     LID       |  QPN (24 bits) | reserved    |
 *   +-------+-------+---------------+-------------------------------+
 *   8                                                               24
 *   +---------------------------------------------------------------+
 *   |                         GID (16 bytes)                        |
 *   +---------------------------------------------------------------+
 *   24      25      26              28
 *   +-------+-------+---------------+
 *   |  mtu  |  port |   reserved    |
 *   +-------+-------+---------------+
 * flags: RD_VB_ADDR_F_DEV (0 = this rank has no device; the rest is 0),
 * RD_VB_ADDR_F_ETH (RoCE: route by GID).
 */
#define RD_VB_ADDR_VERSION 1
enum {
    RD_VB_ADDR_F_DEV = 1 << 0,
    RD_VB_ADDR_F_ETH = 1 << 1,
};
typedef struct __attribute__((packed)) rd_vb_addr {
    uint8_t version;
    uint8_t flags;
    uint16_t lid;
    uint32_t qpn;
    uint8_t gid[16];
    uint8_t mtu;                 /* enum ibv_mtu */
    uint8_t port;
    uint16_t reserved;
} rd_vb_addr_t;

_Static_assert(sizeof(rd_vb_addr_t) == 28, "address is 28 bytes");

/* This rank's address with qpn on dev (NULL: "no device"), as published. */
void rd_vb_addr_fill(const rd_vb_dev_t *dev, uint32_t qpn, rd_vb_addr_t *a);

/* Publishes this rank's address with qpn under key (rd_boot_put); with
 * dev == NULL publishes "no device" so peers never wait for a key. */
int rd_vb_addr_publish(const rd_vb_dev_t *dev, const char *key, uint32_t qpn);

/* Reads what rank published under key. RD_OK with *out filled (check
 * out->flags & RD_VB_ADDR_F_DEV), or a negative status. */
int rd_vb_addr_lookup(int rank, const char *key, rd_vb_addr_t *out);

/* Why a transport on dev (NULL: no device here) cannot reach rank, whose
 * address it looks up under key: a phrase for transport.h's refusal(),
 * naming the transport tp; returns RD_TP_ABSENT when rank published
 * nothing under key (it does not use tp), else RD_TP_REFUSED. */
int rd_vb_refusal(const rd_vb_dev_t *dev, int rank, const char *key, const char *tp, char *buf,
                  size_t len);

/* Nonzero if dev can talk to the device at a (same link layer). */
int rd_vb_addr_compatible(const rd_vb_dev_t *dev, const rd_vb_addr_t *a);

/* RC bring-up in one place: RESET -> INIT (remote read/write allowed) ->
 * RTR (towards remote_qpn at a, first expected PSN remote_psn, path MTU the
 * smaller of both ports') -> RTS (first PSN my_psn). rd_atom bounds the RDMA
 * Reads this QP has outstanding (and serves as a responder). Returns RD_OK or
 * RD_ESYS (errno set by the failing verb). */
int rd_vb_rc_connect(const rd_vb_dev_t *dev, struct ibv_qp *qp, const rd_vb_addr_t *a,
                     uint32_t remote_qpn, uint32_t remote_psn, uint32_t my_psn,
                     uint8_t rd_atom);

/* UD bring-up: RESET -> INIT (qkey) -> RTR -> RTS. */
int rd_vb_ud_ready(const rd_vb_dev_t *dev, struct ibv_qp *qp, uint32_t qkey);

/* Address handle towards a (UD). NULL with errno on failure. */
struct ibv_ah *rd_vb_ah_create(const rd_vb_dev_t *dev, const rd_vb_addr_t *a);

/* Creates a QP asking for the largest inline size the device accepts, up to
 * want_inline (the device limit is not in ibv_device_attr: probing is the
 * only portable way). attr->cap.max_inline_data holds what was granted. */
struct ibv_qp *rd_vb_qp_create(const rd_vb_dev_t *dev, struct ibv_qp_init_attr *attr,
                               uint32_t want_inline);

/* Access flags for registrations peers reach and for RC QPs: remote read
 * and write, plus remote atomics when the device supports them. */
int rd_vb_access(const rd_vb_dev_t *dev);

/* Registration through the cache: an entry covering [buf, buf+len) with
 * local write, remote read and remote write access, referenced until
 * rd_vb_mr_release. */
int rd_vb_mr_acquire(rd_vb_dev_t *dev, const void *buf, size_t len, rd_rcache_ent_t **e);
void rd_vb_mr_release(rd_vb_dev_t *dev, rd_rcache_ent_t *e);

static inline struct ibv_mr *rd_vb_mr(const rd_rcache_ent_t *e)
{
    return (struct ibv_mr *)e->handle;
}

#endif

/*
 * RC RDMA (rc_rdma.c): memory keys for rendezvous and get/put by RDMA Read
 * and Write, queued per peer until the connection and the send queue allow.
 */
#ifndef RD_TRANSPORT_VERBS_RC_RC_RDMA_H
#define RD_TRANSPORT_VERBS_RC_RC_RDMA_H

#include "transport/verbs/rc/rc_int.h"

/* Posts queued get/put operations of a READY peer that fit, as one send
 * list (rd_rc_issue_ops: only when some wait, as after every completion). */
void rd_rc_post_ops(int peer);
/* The ops table's mem_key, mem_release, get and put. */
int rd_rc_mem_key(const void *buf, size_t len, void *key, size_t *keylen);
void rd_rc_mem_release(const void *buf, size_t len);
int rd_rc_get(int peer, void *local, uint64_t remote_addr, const void *key,
              size_t keylen, size_t len, rd_tp_done_fn done, void *ctx);
int rd_rc_put(int peer, const void *local, uint64_t remote_addr, const void *key,
              size_t keylen, size_t len, rd_tp_done_fn done, void *ctx);

static inline void rd_rc_issue_ops(int peer)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (p->cm.state == RC_READY && !rd_list_empty(&p->sq.ops))
        rd_rc_post_ops(peer);
}

#endif

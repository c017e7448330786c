/*
 * RC RDMA (rc_rdma.c): registrations, get/put by RDMA Read and Write,
 * 8-byte atomics and flush, queued per peer until the connection and the
 * send queue allow.
 */
#ifndef RD_TRANSPORT_VERBS_RC_RC_RDMA_H
#define RD_TRANSPORT_VERBS_RC_RC_RDMA_H

#include "transport/verbs/rc/rc_int.h"

/* Registers the atomics' bounce buffer (with the data path's setup). */
int rd_rc_rdma_setup(void);
/* Posts queued operations of a READY peer that fit, as one send list, and
 * the zero-byte Write a waiting flush may need behind unsignalled ones
 * (rd_rc_issue_ops: only when something waits, as after every completion
 * and whenever credits come back). */
void rd_rc_post_ops(int peer);
/* An operation of p is over (completed, flushed in error, or dropped with
 * its failed peer): copies an atomic's result out of its bounce slot
 * (aslot >= 0), calls done or keeps the error for flush, and ends the
 * flushes that waited for it. */
void rd_rc_rdma_retire(rc_peer_t *p, int status, rd_tp_done_fn done, void *ctx,
                       uint64_t *result, int aslot);
/* The ops table's mem_reg, mem_dereg, get, put, put_imm, flush, fetch_add, cswap. */
int rd_rc_mem_reg(const void *buf, size_t len, rd_tp_mem_t **mem);
void rd_rc_mem_dereg(rd_tp_mem_t *mem);
int rd_rc_get(int peer, void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
              const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx);
int rd_rc_put(int peer, const void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
              const void *key, size_t keylen, size_t len, rd_tp_done_fn done, void *ctx);
int rd_rc_put_imm(int peer, const void *local, rd_tp_mem_t *lmem, uint64_t remote_addr,
                  const void *key, size_t keylen, size_t len, uint32_t imm,
                  rd_tp_done_fn done, void *ctx);
int rd_rc_flush(int peer, rd_tp_done_fn done, void *ctx);
int rd_rc_fetch_add(int peer, uint64_t remote_addr, const void *key, size_t keylen,
                    uint64_t add, uint64_t *result, rd_tp_done_fn done, void *ctx);
int rd_rc_cswap(int peer, uint64_t remote_addr, const void *key, size_t keylen,
                uint64_t compare, uint64_t swap, uint64_t *result, rd_tp_done_fn done,
                void *ctx);

static inline void rd_rc_issue_ops(int peer)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (p->cm.state == RC_READY && (!rd_list_empty(&p->sq.ops) || !rd_list_empty(&p->sq.flushes)))
        rd_rc_post_ops(peer);
}

#endif

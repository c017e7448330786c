/*
 * A scripted transport for unit tests of p2p's protocols and of what runs on
 * top of them (the nonblocking-collective engine). The test binary links it
 * instead of src/transport/registry.c: rd_transports lists only this fake,
 * which reaches every other rank of a job that has one process (fake_tp.c
 * also defines the rd_boot_fence and rd_boot_abort p2p calls). The test
 * plays the other ranks by hand: it reads what p2p sent (peer, header,
 * payload, in send order), builds the messages a peer would answer with
 * (proto.h) and queues them for delivery at the next progress() in the
 * order it chooses; it can make send() refuse the next N calls
 * (RD_EAGAIN), report a peer failed, and offer get/put over plain memcpy
 * (both "ranks" share one address space), completing at the next
 * progress() as a real network would. A second fake transport may carry
 * some of the peers (fake_tp_second), for what spans transports.
 */
#ifndef RD_TEST_FAKE_TP_H
#define RD_TEST_FAKE_TP_H

#include <stddef.h>
#include <stdint.h>

#include "core/comm.h"
#include "transport/transport.h"

/* What p2p gave send(), copied. */
typedef struct fake_msg {
    int peer;
    unsigned char hdr[128];
    size_t hdrlen, len;
    unsigned char *payload;   /* len bytes (NULL when 0) */
} fake_msg_t;

/* Before rd_p2p_init: a fresh fake with these remote memory operations
 * (RD_TP_RDMA_GET / PUT; it always reports failures) and eager limit, nothing recorded or
 * queued. Selects it through RDMPI_TRANSPORTS. */
void fake_tp_reset(unsigned caps, size_t eager_max);
/* After rd_p2p_finalize: frees what was recorded. */
void fake_tp_clear(void);

/* The setup of a test over the fake: p2p started (fake_tp_reset(caps,
 * eager_max), rd_p2p_init) as job rank 0 of 3, and *comm a communicator over
 * ranks 0..2 with context ctx, attached to p2p. RD_OK, or the failed step's
 * status with everything undone. */
int fake_tp_up(unsigned caps, size_t eager_max, uint32_t ctx, rd_comm_t **comm);
/* Undoes fake_tp_up: releases *comm (may be NULL) and sets it NULL, calls
 * fini (NULL: none), finalizes p2p, clears the fake. */
void fake_tp_down(rd_comm_t **comm, void (*fini)(void));

/* Messages p2p sent, in the order send() accepted them. */
int fake_tp_nsent(void);
const fake_msg_t *fake_tp_sent(int i);
/* The i-th sent message's header as p2p's wire header (proto.h). */
const struct rd_msg_hdr *fake_tp_hdr(int i);
/* Forgets what was sent so far (indices start at 0 again). */
void fake_tp_forget(void);

/* The next n calls of send() answer RD_EAGAIN (and take nothing). */
void fake_tp_refuse(int n);
/* send() calls refused so far. */
int fake_tp_refused(void);

/* Queues a message from peer for delivery through p2p's receive upcall at
 * the next progress(), after those queued before it (copies it). */
void fake_tp_push(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len);
/* Makes at key (RD_TP_KEY_MAX bytes of room) the key a peer's mem_reg()
 * would give for [buf, buf + len); returns its length. */
size_t fake_tp_key(const void *buf, size_t len, void *key);
/* 1 if key (keylen bytes, from p2p or fake_tp_key) covers [buf, buf + len). */
int fake_tp_key_covers(const void *key, size_t keylen, const void *buf, size_t len);

/* Messages queued and not yet delivered. */
int fake_tp_pending(void);
/* progress() reports peer failed with status at its next call. */
void fake_tp_fail(int peer, int status);

/* Counters: progress() calls, get() and put() calls, mem_reg() and
 * mem_dereg() calls; put_imm() calls and the keylen of the last local
 * handle get/put/put_imm were given (0: none). */
typedef struct fake_tp_stats {
    int progress, gets, puts, keys, releases;
    int put_imms;
    size_t lmem_keylen;
} fake_tp_stats_t;
const fake_tp_stats_t *fake_tp_stats(void);

/* After fake_tp_reset, before rd_p2p_init: a second fake transport, named
 * "ud", carries the peers from first on (the first fake keeps those
 * below), with remote memory operations caps2 (RD_TP_RDMA_*), put_imm when
 * imm is set, and rdma.inline_max inline_max. Its keys have another length
 * than the first's (FAKE_TP_KEYLEN2), so that a test can tell whose key it
 * was handed. Its counters: fake_tp_stats2. */
#define FAKE_TP_KEYLEN 16
#define FAKE_TP_KEYLEN2 24
void fake_tp_second(int first, unsigned caps2, int imm, size_t inline_max);
const fake_tp_stats_t *fake_tp_stats2(void);
/* The next mem_reg of the second fake fails with status. */
void fake_tp_fail_reg2(int status);
/* Queues an immediate from peer for env->notified at the next progress()
 * (as if peer's put_imm had landed here). */
void fake_tp_notify(int peer, uint32_t imm);

#endif

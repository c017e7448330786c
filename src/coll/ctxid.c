/*
 * Context-id agreement for the communicator constructors (see ctxid.h):
 * maxima of the processes' next free id over one communicator, one group,
 * or both groups of an intercommunicator, and the nonblocking agreement of
 * MPI_Comm_idup.
 *
 * Internal messages: tags with bit 30 set carry the agreements of
 * MPI_Comm_create_group and MPI_Intercomm_create in the parent's collective
 * context: user tags stop at RD_TAG_UB (2^30 - 1) and the internal
 * collectives use small tags, so neither matches them. Intercommunicator
 * agreements (dup, merge) use INTER_TAG in the intercommunicator's own
 * collective context, which nothing else uses.
 */
#include "coll/ctxid.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/coll_comm.h"
#include "coll/coll_steps.h"
#include "coll/coll_util.h"
#include "p2p/p2p.h"
#include "util/status.h"

#define INTERNAL_TAG_BIT 0x40000000
#define INTER_TAG 1

/* The lowest id this process has not used (lock held). */
static uint32_t next_ctx;

void rd_coll_ctx_init(uint32_t first)
{
    next_ctx = first;
}

/* Sends sn bytes to rank `to` and receives rn bytes from rank `from` (ranks
 * of the group messages go to: the remote one on an intercommunicator). */
static int exchange(rd_comm_t *c, int to, int from, int tag, const void *sbuf, size_t sn,
                    void *rbuf, size_t rn)
{
    return rd_coll_sendrecv(c, sbuf, sn, &rd_dt_bytes, to, rbuf, rn, &rd_dt_bytes, from, tag);
}

/* Maximum of *val over c. */
static int max_u32(rd_comm_t *c, uint32_t *val)
{
    uint32_t *all = malloc((size_t)c->size * sizeof(uint32_t));
    if (!all)
        return RD_ENOMEM;
    int rc = rd_coll_allgather_bytes(c, val, sizeof(uint32_t), all);
    if (rc == RD_OK)
        for (int i = 0; i < c->size; i++)
            if (all[i] > *val)
                *val = all[i];
    free(all);
    return rc;
}

int rd_coll_ctx_agree(rd_comm_t *c, uint32_t *ctx)
{
    uint32_t v = next_ctx;
    int rc = max_u32(c, &v);
    if (rc != RD_OK)
        return rc;
    next_ctx = v + 2;
    *ctx = v;
    return RD_OK;
}

/* A dissemination all-reduce (maximum) over the group's members. After
 * round d = 1, 2, 4, ... each member holds the maximum over the 2d members
 * before it, so ceil(log2 n) rounds cover everyone. */
int rd_coll_ctx_agree_group(rd_comm_t *c, const rd_group_t *g, int tag, uint32_t *ctx)
{
    int n = g->size, me = g->rank;
    int tagw = INTERNAL_TAG_BIT | tag;
    uint32_t val = next_ctx;
    for (int d = 1; d < n; d <<= 1) {
        int to = rd_group_rank_of(c->group, g->world[(me + d) % n]);
        int from = rd_group_rank_of(c->group, g->world[(me - d + n) % n]);
        uint32_t got = 0, send = val;
        int rc = exchange(c, to, from, tagw, &send, sizeof(send), &got, sizeof(got));
        if (rc != RD_OK)
            return rc;
        if (got > val)
            val = got;
    }
    next_ctx = val + 2;
    *ctx = val;
    return RD_OK;
}

int rd_coll_ctx_agree_inter(rd_comm_t *c, rd_comm_t *local, int span, const int *mine,
                            int *theirs, int n, uint32_t *ctx)
{
    uint32_t msg[3] = { next_ctx, 0, 0 }, got[3] = { 0, 0, 0 };
    int rc = max_u32(local, &msg[0]);
    if (rc != RD_OK)
        return rc;
    for (int i = 0; i < n; i++)
        msg[1 + i] = (uint32_t)mine[i];
    if (local->rank == 0) {
        rc = exchange(c, 0, 0, INTER_TAG, msg, sizeof(msg), got, sizeof(got));
        if (rc != RD_OK)
            return rc;
        if (got[0] > msg[0])
            msg[0] = got[0];
        memcpy(&msg[1], &got[1], 2 * sizeof(uint32_t));
    }
    if ((rc = rd_coll_bcast_bytes(local, msg, sizeof(msg), 0)) != RD_OK)
        return rc;
    next_ctx = msg[0] + (uint32_t)span;
    *ctx = msg[0];
    for (int i = 0; i < n; i++)
        theirs[i] = (int)msg[1 + i];
    return RD_OK;
}

/* The leaders swap (context, group size) and then their groups' job ranks
 * over peer, and broadcast what they got to their groups. */
static int leaders_swap(rd_comm_t *lc, int leader, rd_comm_t *peer, int rleader, int tag,
                        uint32_t *ctx, int *rsize, int **rworld)
{
    uint32_t hdr[2] = { *ctx, (uint32_t)lc->size }, got[2];
    int tagw = INTERNAL_TAG_BIT | tag, rc;
    if (lc->rank == leader) {
        if ((rc = exchange(peer, rleader, rleader, tagw, hdr, sizeof(hdr), got, sizeof(got))))
            return rc;
        hdr[0] = got[0] > hdr[0] ? got[0] : hdr[0];
        hdr[1] = got[1];
    }
    if ((rc = rd_coll_bcast_bytes(lc, hdr, sizeof(hdr), leader)) != RD_OK)
        return rc;
    if (!(*rworld = malloc(((size_t)hdr[1] + 1) * sizeof(int))))
        return RD_ENOMEM;
    size_t n = (size_t)hdr[1] * sizeof(int);
    if (lc->rank == leader &&
        (rc = exchange(peer, rleader, rleader, tagw, lc->group->world,
                       (size_t)lc->size * sizeof(int), *rworld, n)) != RD_OK)
        return rc;
    if ((rc = rd_coll_bcast_bytes(lc, *rworld, n, leader)) != RD_OK)
        return rc;
    *ctx = hdr[0];
    *rsize = (int)hdr[1];
    return RD_OK;
}

int rd_coll_ctx_agree_intercomm(rd_comm_t *lc, int leader, rd_comm_t *peer, int rleader,
                                int tag, uint32_t *ctx, int *rsize, int **rworld)
{
    uint32_t v = next_ctx;
    *rworld = NULL;
    int rc = max_u32(lc, &v);
    if (rc == RD_OK)
        rc = leaders_swap(lc, leader, peer, rleader, tag, &v, rsize, rworld);
    if (rc != RD_OK)
        return rc;
    next_ctx = v + 4;
    *ctx = v;
    return RD_OK;
}

/* ---- MPI_Comm_idup ----
 *
 * The blocking agreements above read next_ctx, agree and write it inside
 * one blocking call; a nonblocking agreement cannot take part in that,
 * because the progress hook may run inside another constructor's wait,
 * between its read and its write of next_ctx. So idup ids come from their
 * own range, RD_COLL_CTX_IDUP_BASE and up, counted by idup_next, which only
 * the checks below touch (atomically, in the progress hook).
 *
 * Agreement, in rounds of an allgather of (candidate, rejected):
 *   round k: every rank sends its candidate v (idup_next when the round was
 *   built) and whether it rejected the previous round's result;
 *   check k: if k > 1 and nobody rejected, the result R of round k-1 is the
 *   id (every rank holds it reserved). Otherwise R = max of the candidates;
 *   a rank accepts if R >= idup_next (no id from R up is in use) and then
 *   reserves it (idup_next = R + 2); the next round carries its verdict.
 * Without concurrent idups this takes two rounds; a rank that lost the race
 * to another idup rejects, and the next round retries above it.
 */
static uint32_t idup_next = RD_COLL_CTX_IDUP_BASE;

typedef struct idup {
    rd_comm_t *newc;           /* the user's handle; attached once the id is agreed */
    uint32_t mine[2];          /* this round's (candidate, rejected previous) */
    uint32_t *all;             /* every rank's pair */
    uint32_t result;           /* the previous round's maximum */
    int rounds;
} idup_t;

static int idup_check(rd_nbc_t *s, void *arg);

/* Ranks taking part: both groups of an intercommunicator. */
static int idup_ranks(const rd_comm_t *c)
{
    return c->size + (c->rgroup ? c->rgroup->size : 0);
}

/* On an intercommunicator all holds the local group's pairs, then the
 * remote group's: the local ones come over the local group's communicator
 * (rd_nbc_local_sink), the remote ones by the intercommunicator allgather. */
static void idup_round(rd_nbc_t *s, idup_t *d)
{
    rd_comm_t *c = rd_nbc_comm(s);
    uint32_t *remote = d->all;
    if (c->rgroup) {
        struct rd_coll_steps *l = rd_nbc_local_sink(s);
        for (int i = 0; i < c->size; i++) {
            if (i == c->rank) {
                rd_nbc_copy(s, d->mine, sizeof(d->mine), &rd_dt_bytes, &d->all[2 * i],
                            sizeof(d->mine), &rd_dt_bytes);
                continue;
            }
            l->ops->recv(l, &d->all[2 * i], sizeof(d->mine), &rd_dt_bytes, i);
            l->ops->send(l, d->mine, sizeof(d->mine), &rd_dt_bytes, i);
        }
        remote = d->all + 2 * c->size;
    }
    rd_nbc_allgatherv(s, d->mine, sizeof(d->mine), &rd_dt_bytes, remote, NULL, NULL,
                      sizeof(d->mine), &rd_dt_bytes);
    rd_nbc_call(s, idup_check, d);
    rd_nbc_fence(s);
}

static int idup_check(rd_nbc_t *s, void *arg)
{
    idup_t *d = arg;
    rd_comm_t *c = rd_nbc_comm(s);
    int n = idup_ranks(c);
    uint32_t span = c->rgroup ? 4 : 2;
    uint32_t max = 0, rejected = 0;
    for (int i = 0; i < n; i++) {
        if (d->all[2 * i] > max)
            max = d->all[2 * i];
        rejected |= d->all[2 * i + 1];
    }
    if (d->rounds++ > 0 && !rejected) {
        rd_comm_t *local = d->newc->rgroup ? rd_coll_comm(d->newc)->local : NULL;
        d->newc->ctx = d->result;
        int rc = rd_p2p_attach(d->newc);
        if (rc == RD_OK && local) {
            local->ctx = d->result + 2;
            rc = rd_p2p_attach(local);
        }
        return rc;
    }
    int ok = max >= idup_next;
    if (ok)
        idup_next = max + span;
    d->result = max;
    d->mine[0] = idup_next;
    d->mine[1] = !ok;
    idup_round(s, d);
    return RD_OK;
}

int rd_coll_ctx_idup(rd_nbc_t *s, rd_comm_t *newc)
{
    idup_t *d = rd_nbc_tmp(s, sizeof(*d));
    uint32_t *all = d ? rd_nbc_tmp(s, (size_t)idup_ranks(rd_nbc_comm(s)) * sizeof(d->mine)) : NULL;
    if (!all)
        return RD_ENOMEM;
    d->newc = newc;
    d->all = all;
    d->rounds = 0;
    d->mine[0] = idup_next;
    d->mine[1] = 0;
    idup_round(s, d);
    return RD_OK;
}

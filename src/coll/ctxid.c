/*
 * Context-id agreement for the communicator constructors (see ctxid.h):
 * each process keeps which slots (pairs of ids) its communicators hold, in
 * a bit mask; the processes that build a communicator OR their masks over
 * one communicator, one group, or both groups of an intercommunicator, and
 * take the lowest slot free everywhere. Slots come back when the last
 * communicator on them is freed (rd_coll_ctx_retire), so ids are reused
 * and a program that creates and frees communicators forever does not
 * grow. The nonblocking agreement of MPI_Comm_idup uses a space of its own.
 *
 * Internal messages: tags with bit 30 set carry the agreements of
 * MPI_Comm_create_group and MPI_Intercomm_create in the parent's collective
 * context: user tags stop at RD_TAG_UB (2^30 - 1) and the internal
 * collectives use small tags, so neither matches them. Agreements over a
 * whole intracommunicator use RD_TAG_CTXID. Intercommunicator agreements
 * (dup, merge) use INTER_TAG in the intercommunicator's own collective
 * context, which nothing else uses.
 *
 * Why reuse is safe: MPI_Comm_free is local, but MPI requires the program
 * to receive every message sent on a communicator, so when every process
 * of a new communicator has freed the old one, nothing of the old one is
 * left to arrive there, except for receives it still has posted (MPI lets
 * them complete); p2p keeps such a context's queues and this file keeps
 * its slot taken until they are done (the deferred list). Messages that
 * were never received are dropped with the queues (p2p.h: rd_p2p_ctx_free).
 */
#include "coll/ctxid.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "coll/coll.h"
#include "coll/coll_comm.h"
#include "coll/coll_steps.h"
#include "coll/coll_util.h"
#include "p2p/p2p.h"
#include "util/errdetail.h"
#include "util/status.h"

#define INTERNAL_TAG_BIT 0x40000000
#define INTER_TAG 1

/* Slot s of a space holds ids base + 2s (point-to-point) and base + 2s + 1
 * (collectives); an intercommunicator holds two adjacent slots. */
#define SLOTS (RD_COLL_CTX_IDUP_BASE / 2)
#define WORDS (SLOTS / 64)
#define NONE UINT32_MAX

typedef struct space {
    uint64_t used[WORDS];      /* bit s: slot s is held by this process */
    uint32_t base;             /* first id of slot 0 */
    const char *what;          /* for the error message */
} space_t;

static space_t blocking = { .base = 0, .what = "communicator constructors" };
static space_t idups = { .base = RD_COLL_CTX_IDUP_BASE,
                         .what = "MPI_Comm_idup and communicators of one process" };

/* Ids whose communicators are gone while a receive is still posted on them
 * (rd_p2p_ctx_free said RD_EAGAIN): retired when an agreement finds them
 * idle. */
static uint32_t *deferred;
static int ndeferred, deferred_cap;

static int is_used(const uint64_t *m, uint32_t s)
{
    return (int)(m[s / 64] >> (s % 64) & 1);
}

static void set_slots(space_t *sp, uint32_t s, uint32_t n, int held)
{
    for (uint32_t i = s; i < s + n; i++) {
        uint64_t bit = (uint64_t)1 << (i % 64);
        sp->used[i / 64] = held ? sp->used[i / 64] | bit : sp->used[i / 64] & ~bit;
    }
}

/* The lowest slot s >= from with slots s .. s + n - 1 free in m, or NONE. */
static uint32_t lowest_free(const uint64_t *m, uint32_t from, uint32_t n)
{
    for (uint32_t s = from; s + n <= SLOTS; s++) {
        if (s % 64 == 0 && m[s / 64] == UINT64_MAX) {
            s += 63;
            continue;
        }
        uint32_t k = 0;
        while (k < n && !is_used(m, s + k))
            k++;
        if (k == n)
            return s;
    }
    return NONE;
}

/* Bytes of m a message carries: up to its last word with a slot held (the
 * receiver zeroes its buffer first), so a message stays small while few
 * communicators are alive. */
static size_t mask_len(const uint64_t *m)
{
    size_t w = WORDS;
    while (w > 0 && m[w - 1] == 0)
        w--;
    return w * sizeof(uint64_t);
}

static space_t *space_of(uint32_t ctx)
{
    return ctx < RD_COLL_CTX_IDUP_BASE ? &blocking : &idups;
}

static int out_of_ids(const space_t *sp)
{
    rd_err_detail("out of context ids: all %d ids for %s are held by communicators on some "
                  "process of the new communicator (free the communicators no longer needed)",
                  SLOTS, sp->what);
    return RD_EINTERN;
}

/* ---- giving ids back ---- */

/* ctx's slot is free once p2p has let go of its queues. */
static int try_retire(uint32_t ctx)
{
    if (rd_p2p_ctx_free(ctx) != RD_OK)
        return 0;
    space_t *sp = space_of(ctx);
    set_slots(sp, (ctx - sp->base) / 2, 1, 0);
    return 1;
}

static void retire_or_defer(uint32_t ctx)
{
    if (try_retire(ctx))
        return;
    if (ndeferred == deferred_cap) {
        int n = deferred_cap ? 2 * deferred_cap : 16;
        uint32_t *p = realloc(deferred, (size_t)n * sizeof(*p));
        if (!p)
            return; /* the slot stays held: an id lost, never two communicators on one */
        deferred = p;
        deferred_cap = n;
    }
    deferred[ndeferred++] = ctx;
}

static void retry_deferred(void)
{
    for (int i = 0; i < ndeferred;) {
        if (try_retire(deferred[i]))
            deferred[i] = deferred[--ndeferred];
        else
            i++;
    }
}

void rd_coll_ctx_retire(rd_comm_t *c)
{
    uint32_t ctx = c->ctx;
    if (rd_p2p_detach(c))
        retire_or_defer(ctx);
}

void rd_coll_ctx_release(uint32_t ctx)
{
    retire_or_defer(ctx);
}

void rd_coll_ctx_init(uint32_t first)
{
    memset(blocking.used, 0, sizeof(blocking.used));
    memset(idups.used, 0, sizeof(idups.used));
    set_slots(&blocking, 0, first / 2, 1);
    free(deferred);
    deferred = NULL;
    ndeferred = deferred_cap = 0;
}

/* ---- the blocking agreements ----
 *
 * Several threads may run agreements in one process at once (each on
 * communicators of its own), and each waits for its peers with the
 * library lock released. Two of them must not both read the mask and take
 * the same free slot, so a process offers its mask to one agreement at a
 * time, the owner (as MPICH's "mask in use"): the others offer nothing
 * this round, which makes every process of that agreement retry in the
 * next. The owner is the one with the lowest priority among those of this
 * process in progress, a number every member computes alike (the parent's
 * id and a tag): of all agreements in progress anywhere, the lowest one is
 * the lowest in each of its processes, so it gets every process's mask
 * once their current rounds end, and succeeds; no set of agreements keeps
 * retrying for ever. A process that does not join the new communicator
 * offers its empty mask and needs no ownership.
 *
 * Known limit: an owner keeps the mask through its round, which waits for
 * every member to enter it. A thread that calls another agreement first
 * and this one after it, over processes whose masks this round holds,
 * waits for ever (MPICH's eager ids narrow the same limit; communicators
 * of one process, the common case, take their ids without the mask).
 */

/* An agreement of this process in progress. */
typedef struct claim {
    uint64_t prio;             /* lower goes first */
    rd_list_t link;            /* in claims, in the order they started */
} claim_t;

static rd_list_t claims = RD_LIST_INIT(claims);
static claim_t *owner;         /* the claim this process's mask is offered to, or NULL */

/* What a process offers in one round: the slots it holds, or that it
 * could not offer them (retry: another agreement of that process owns its
 * mask). The OR over the members decides the round alike everywhere. */
typedef struct offer {
    uint64_t retry;
    uint64_t used[WORDS];
} offer_t;

static uint64_t prio_of(const rd_comm_t *c, uint32_t tag)
{
    return (uint64_t)c->ctx << 32 | tag;
}

/* Only members claim the mask: a process that does not join the new
 * communicator must not hold back its other agreements. */
static void claim_begin(claim_t *cl, uint64_t prio, int member)
{
    cl->prio = prio;
    if (member)
        rd_list_push_back(&claims, &cl->link);
    else
        rd_list_init(&cl->link);
}

static void claim_end(claim_t *cl)
{
    if (owner == cl)
        owner = NULL;
    rd_list_remove(&cl->link);
}

/* cl may own the mask: nobody does and no claim of this process goes
 * before it (ties go to the one that started first). */
static int may_own(const claim_t *cl)
{
    if (owner)
        return 0;
    int before = 1;            /* o started before cl */
    rd_list_t *pos;
    rd_list_for_each(pos, &claims) {
        const claim_t *o = rd_list_entry(pos, claim_t, link);
        if (o == cl)
            before = 0;
        else if (o->prio < cl->prio || (before && o->prio == cl->prio))
            return 0;
    }
    return 1;
}

/* This process's offer for cl's next round: the slots it holds if it
 * joins the new communicator and owns the mask, nothing if it does not
 * join (it needs no id free), a retry if another agreement owns it. */
static void my_offer(claim_t *cl, int member, offer_t *m)
{
    retry_deferred();
    memset(m, 0, sizeof(*m));
    if (!member)
        return;
    if (!may_own(cl)) {
        m->retry = 1;
        return;
    }
    owner = cl;
    memcpy(m->used, blocking.used, sizeof(blocking.used));
}

/* The round is over (its verdict known everywhere): the mask is free for
 * the next owner. Before a retry the thread lets the others in: over one
 * process a round waits for nobody, and the owner it waits for runs in
 * another thread. */
static void round_end(claim_t *cl, int retry, unsigned *idle)
{
    if (owner == cl)
        owner = NULL;
    if (retry)
        rd_p2p_pause(rd_progress(), idle);
}

/* Sends sn bytes to rank `to` and receives up to rn bytes from rank `from`
 * (ranks of the group messages go to: the remote one on an
 * intercommunicator). */
static int exchange(rd_comm_t *c, int to, int from, int tag, const void *sbuf, size_t sn,
                    void *rbuf, size_t rn)
{
    return rd_coll_sendrecv(c, sbuf, sn, &rd_dt_bytes, to, rbuf, rn, &rd_dt_bytes, from, tag);
}

/* Bytes of an offer a message carries. */
static size_t offer_len(const offer_t *m)
{
    return offsetof(offer_t, used) + mask_len(m->used);
}

static void offer_or(offer_t *m, const offer_t *got)
{
    m->retry |= got->retry;
    for (size_t w = 0; w < WORDS; w++)
        m->used[w] |= got->used[w];
}

/* Rank in c of member i of g (g NULL: all of c). */
static int member_rank(const rd_comm_t *c, const rd_group_t *g, int i)
{
    return g ? rd_group_rank_of(c->group, g->world[i]) : i;
}

/* m becomes the OR of the members' offers (g's members, or all of c), by
 * a dissemination: after round d = 1, 2, 4, ... each member holds the OR
 * over the 2d members before it, so ceil(log2 n) rounds cover everyone. */
static int or_offers(rd_comm_t *c, const rd_group_t *g, int tag, offer_t *m)
{
    int n = g ? g->size : c->size, me = g ? g->rank : c->rank;
    offer_t *got = malloc(sizeof(*got));
    if (!got)
        return RD_ENOMEM;
    int rc = RD_OK;
    for (int d = 1; d < n && rc == RD_OK; d <<= 1) {
        memset(got, 0, sizeof(*got));
        rc = exchange(c, member_rank(c, g, (me + d) % n), member_rank(c, g, (me - d + n) % n),
                      tag, m, offer_len(m), got, sizeof(*got));
        if (rc == RD_OK)
            offer_or(m, got);
    }
    free(got);
    return rc;
}

/* Takes n slots from s (the same on every process) if this process is a
 * member, and names the first id. */
static int take(space_t *sp, uint32_t s, uint32_t n, int member, uint32_t *ctx)
{
    if (s == NONE)
        return out_of_ids(sp);
    if (member)
        set_slots(sp, s, n, 1);
    *ctx = sp->base + 2 * s;
    return RD_OK;
}

/* Rounds of offers among g's members (all of c if g is NULL) until one
 * where every member offered its mask; takes the lowest slot free in all. */
static int agree_rounds(rd_comm_t *c, const rd_group_t *g, int tag, uint64_t prio, int member,
                        uint32_t *ctx)
{
    /* A communicator of this process alone agrees with nobody: it must not
     * wait for the mask while its owner's round waits for other processes
     * (whose threads may wait for this one), so it takes an id of the
     * idup space, whose slots are taken without rounds (lock held). */
    if ((g ? g->size : c->size) == 1) {
        retry_deferred();
        return take(&idups, lowest_free(idups.used, 0, 1), 1, member, ctx);
    }
    offer_t *m = malloc(sizeof(*m));
    if (!m)
        return RD_ENOMEM;
    claim_t cl;
    unsigned idle = 0;
    claim_begin(&cl, prio, member);
    int rc;
    do {
        my_offer(&cl, member, m);
        rc = or_offers(c, g, tag, m);
        if (rc == RD_OK && !m->retry)
            rc = take(&blocking, lowest_free(m->used, 0, 1), 1, member, ctx);
        round_end(&cl, rc == RD_OK && m->retry, &idle);
    } while (rc == RD_OK && m->retry);
    claim_end(&cl);
    free(m);
    return rc;
}

int rd_coll_ctx_agree(rd_comm_t *c, int member, uint32_t *ctx)
{
    return agree_rounds(c, NULL, RD_TAG_CTXID, prio_of(c, 0), member, ctx);
}

int rd_coll_ctx_agree_group(rd_comm_t *c, const rd_group_t *g, int tag, uint32_t *ctx)
{
    return agree_rounds(c, g, INTERNAL_TAG_BIT | tag, prio_of(c, INTERNAL_TAG_BIT | (uint32_t)tag),
                        1, ctx);
}

/* What the leader of each group sends the other: two ints of its own (the
 * caller's, or its group's size), its priority and its group's offer. */
typedef struct leader_msg {
    uint32_t ints[2];
    uint64_t prio;
    offer_t offer;
} leader_msg_t;

/* At a leader: swaps msg with the other leader (rank `to` of c, tag) and
 * ORs the offers into msg; msg->ints and msg->prio become the other
 * side's. */
static int leaders_or(rd_comm_t *c, int to, int tag, leader_msg_t *msg)
{
    leader_msg_t *got = malloc(sizeof(*got));
    if (!got)
        return RD_ENOMEM;
    memset(got, 0, sizeof(*got));
    int rc = exchange(c, to, to, tag, msg, offsetof(leader_msg_t, offer) + offer_len(&msg->offer),
                      got, sizeof(*got));
    if (rc == RD_OK) {
        memcpy(msg->ints, got->ints, sizeof(msg->ints));
        msg->prio = got->prio;
        offer_or(&msg->offer, &got->offer);
    }
    free(got);
    return rc;
}

/* What a leader tells its group after a round over two groups: the slot
 * (NONE also when the round must be retried), whether to retry, and what
 * the other leader sent. */
typedef struct verdict {
    uint32_t slot, retry;
    uint32_t ints[2];
    uint64_t prio;
} verdict_t;

/* One round over both groups: each group ORs its offers over local, the
 * leaders (rank leader of local; rank rleader of c) swap theirs (with
 * tag) and broadcast the verdict. */
static int inter_round(rd_comm_t *local, int leader, rd_comm_t *c, int rleader, int tag,
                       uint32_t nslots, leader_msg_t *msg, verdict_t *v)
{
    memset(v, 0, sizeof(*v));
    int rc = or_offers(local, NULL, RD_TAG_CTXID, &msg->offer);
    if (rc == RD_OK && local->rank == leader && (rc = leaders_or(c, rleader, tag, msg)) == RD_OK) {
        v->retry = (uint32_t)msg->offer.retry;
        v->slot = v->retry ? NONE : lowest_free(msg->offer.used, 0, nslots);
        memcpy(v->ints, msg->ints, sizeof(v->ints));
        v->prio = msg->prio;
    }
    return rc == RD_OK ? rd_coll_bcast_bytes(local, v, sizeof(*v), leader) : rc;
}

/* Rounds over both groups until one where every process offered its
 * mask, and takes nslots from the slot found then. The two groups start
 * with priorities of their own (their local communicators differ); after
 * the first round both use the lower one, so that every process ranks the
 * agreement alike. mine[0 .. 1] go to the other leader; v->ints holds what
 * it sent. */
static int inter_rounds(rd_comm_t *local, int leader, rd_comm_t *c, int rleader, int tag,
                        uint64_t prio, int member, uint32_t nslots, const uint32_t *mine,
                        verdict_t *v, uint32_t *ctx)
{
    leader_msg_t *msg = malloc(sizeof(*msg));
    if (!msg)
        return RD_ENOMEM;
    claim_t cl;
    unsigned idle = 0;
    claim_begin(&cl, prio, member);
    int rc;
    do {
        memcpy(msg->ints, mine, sizeof(msg->ints));
        msg->prio = cl.prio;
        my_offer(&cl, member, &msg->offer);
        rc = inter_round(local, leader, c, rleader, tag, nslots, msg, v);
        if (rc == RD_OK && v->prio < cl.prio)
            cl.prio = v->prio;
        if (rc == RD_OK && !v->retry)
            rc = take(&blocking, v->slot, nslots, member, ctx);
        round_end(&cl, rc == RD_OK && v->retry, &idle);
    } while (rc == RD_OK && v->retry);
    claim_end(&cl);
    free(msg);
    return rc;
}

int rd_coll_ctx_agree_inter(rd_comm_t *c, rd_comm_t *local, int span, int member,
                            const int *mine, int *theirs, int n, uint32_t *ctx)
{
    uint32_t ints[2] = { 0, 0 };
    for (int i = 0; i < n; i++)
        ints[i] = (uint32_t)mine[i];
    uint32_t nslots = (uint32_t)span / 2;
    verdict_t v;
    int rc = inter_rounds(local, 0, c, 0, INTER_TAG, prio_of(c, 0), member, nslots, ints, &v,
                          ctx);
    for (int i = 0; rc == RD_OK && i < n; i++)
        theirs[i] = (int)v.ints[i];
    return rc;
}

int rd_coll_ctx_agree_intercomm(rd_comm_t *lc, int leader, rd_comm_t *peer, int rleader,
                                int tag, uint32_t *ctx, int *rsize, int **rworld)
{
    int tagw = INTERNAL_TAG_BIT | tag;
    uint32_t ints[2] = { (uint32_t)lc->size, 0 };
    verdict_t v;
    *rworld = NULL;
    int rc = inter_rounds(lc, leader, peer, rleader, tagw, prio_of(lc, (uint32_t)tagw), 1, 2,
                          ints, &v, ctx);
    if (rc != RD_OK)
        return rc;
    /* The slots are taken: from here on an error gives them back. */
    size_t nr = v.ints[0];
    if (!(*rworld = malloc((nr + 1) * sizeof(int))))
        rc = RD_ENOMEM;
    if (rc == RD_OK && lc->rank == leader)
        rc = exchange(peer, rleader, rleader, tagw, lc->group->world,
                      (size_t)lc->size * sizeof(int), *rworld, nr * sizeof(int));
    if (rc == RD_OK)
        rc = rd_coll_bcast_bytes(lc, *rworld, nr * sizeof(int), leader);
    if (rc != RD_OK) {
        rd_coll_ctx_release(*ctx);
        rd_coll_ctx_release(*ctx + 2);
        return rc;
    }
    *rsize = (int)nr;
    return RD_OK;
}

/* ---- MPI_Comm_idup ----
 *
 * The blocking agreements above read the mask, agree and take a slot
 * inside one blocking call; a nonblocking agreement cannot take part in
 * that, because the progress hook may run inside another constructor's
 * wait, between its read and its write of the mask. So idup ids come from
 * their own space (idups, from RD_COLL_CTX_IDUP_BASE), which only the
 * checks below, the constructors of communicators of one process
 * (agree_rounds) and the retiring of their communicators touch (in the
 * progress hook or an MPI call, lock held); a slot taken by a constructor
 * between two checks makes a rank reject it, as another idup would. Messages of a fixed size
 * (allgathers of the nonblocking schedule) carry candidate slots rather
 * than masks.
 *
 * Agreement, in rounds of an allgather of (candidate, rejected):
 *   round k: every rank sends its candidate (its lowest free slot, at or
 *   above the previous round's result) and whether it rejected that result;
 *   check k: if k > 1 and nobody rejected, the result R of round k-1 is the
 *   slot (every rank holds it). Otherwise the ranks that took R give it
 *   back, R becomes the maximum of the candidates, and a rank accepts it if
 *   R is free here, taking it; the next round carries its verdict.
 * Without concurrent idups this takes two rounds. A rank that lost the race
 * to another idup rejects, and the next round retries above it: candidates
 * only grow, so the rounds end, by agreement or when a candidate is NONE
 * (out of ids, the same verdict everywhere).
 */

typedef struct idup {
    rd_comm_t *newc;           /* the user's handle; attached once the id is agreed */
    uint32_t mine[2];          /* this round's (candidate, rejected previous) */
    uint32_t *all;             /* every rank's pair */
    uint32_t result;           /* the previous round's maximum */
    int held;                  /* this process took result */
    int rounds;
} idup_t;

static int idup_check(rd_nbc_t *s, void *arg);

/* xorshift64, seeded per process: only to break ties between idups. */
static uint32_t next_random(void)
{
    static uint64_t x;
    if (!x)
        x = ((uint64_t)getpid() << 32 | (uint64_t)time(NULL)) | 1;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return (uint32_t)(x >> 32);
}

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

/* The agreed slot: newc (and its local communicator) get their ids. */
static int idup_done(idup_t *d)
{
    rd_comm_t *local = d->newc->rgroup ? rd_coll_comm(d->newc)->local : NULL;
    uint32_t ctx = idups.base + 2 * d->result;
    d->newc->ctx = ctx;
    int rc = rd_p2p_attach(d->newc);
    if (rc != RD_OK)
        rd_coll_ctx_release(ctx);
    if (local) {
        local->ctx = ctx + 2;
        if (rc != RD_OK || (rc = rd_p2p_attach(local)) != RD_OK)
            rd_coll_ctx_release(ctx + 2);
    }
    return rc;
}

static int idup_check(rd_nbc_t *s, void *arg)
{
    idup_t *d = arg;
    rd_comm_t *c = rd_nbc_comm(s);
    int n = idup_ranks(c);
    uint32_t nslots = c->rgroup ? 2 : 1;
    uint32_t max = 0, rejected = 0;
    for (int i = 0; i < n; i++) {
        if (d->all[2 * i] > max)
            max = d->all[2 * i];
        rejected |= d->all[2 * i + 1];
    }
    if (d->rounds++ > 0 && !rejected)
        return idup_done(d);
    if (d->held)
        set_slots(&idups, d->result, nslots, 0);
    d->held = 0;
    if (max == NONE)
        return out_of_ids(&idups);
    d->result = max;
    d->held = lowest_free(idups.used, max, nslots) == max;
    if (d->held)
        set_slots(&idups, max, nslots, 1);
    /* Two idups over the same processes that chose the same slot both
     * reject it and would move up in lock step, round after round, to the
     * end of the space: a random step of 0-7 slots for this rank's next
     * candidate breaks the tie (each agreement takes the maximum). */
    d->mine[0] = d->held ? max : lowest_free(idups.used, max + (uint32_t)(next_random() & 7),
                                              nslots);
    d->mine[1] = !d->held;
    idup_round(s, d);
    return RD_OK;
}

int rd_coll_ctx_idup(rd_nbc_t *s, rd_comm_t *newc)
{
    rd_comm_t *c = rd_nbc_comm(s);
    idup_t *d = rd_nbc_tmp(s, sizeof(*d));
    uint32_t *all = d ? rd_nbc_tmp(s, (size_t)idup_ranks(c) * sizeof(d->mine)) : NULL;
    if (!all)
        return RD_ENOMEM;
    retry_deferred();
    d->newc = newc;
    d->all = all;
    d->rounds = 0;
    d->held = 0;
    d->result = 0;
    d->mine[0] = lowest_free(idups.used, 0, c->rgroup ? 2 : 1);
    d->mine[1] = 0;
    idup_round(s, d);
    return RD_OK;
}

/* Nonblocking collective schedules and the algorithms built on them (see nbc.h). */
#include "coll/nbc.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/coll_comm.h"
#include "coll/coll_inter.h"
#include "coll/coll_shm.h"
#include "coll/coll_steps.h"
#include "coll/coll_util.h"
#include "p2p/p2p.h"
#include "util/list.h"
#include "util/status.h"

enum step_kind {
    ST_SEND,
    ST_RECV,
    ST_COPY,
    ST_REDUCE,
    ST_CALL,
    ST_WAIT,
    ST_FENCE,
};

typedef struct step {
    int kind;                  /* enum step_kind */
    int peer;                  /* ST_SEND / ST_RECV */
    int local;                 /* ST_SEND / ST_RECV: on the local group's communicator */
    const void *src;           /* send buffer, copy source, reduction input */
    void *dst;                 /* receive buffer, copy target, reduction inout */
    size_t scount, dcount;
    rd_datatype_t *sdt, *ddt;  /* referenced until the schedule ends */
    const rd_op_t *op;
    rd_nbc_fn fn;
    rd_nbc_poll_fn poll;       /* ST_WAIT */
    void *arg;
} step_t;

/* Arrays kept inside the schedule up to these sizes (a short collective on
 * a few ranks allocates nothing beyond the schedule, which is pooled). */
#define INLINE_STEPS 8
#define INLINE_REQS 8
#define INLINE_TMPS 2
#define POOL_MAX 8

struct rd_nbc {
    rd_coll_steps_t sink;      /* what the shared algorithms build into */
    rd_coll_steps_t lsink;     /* intercommunicators: the same within the local group */
    rd_comm_t *local;          /* intercommunicators: the local group's communicator */
    rd_list_t link;            /* in active_scheds once started */
    struct rd_nbc *next_free;  /* in the pool */
    rd_comm_t *comm;
    rd_request_t *req;         /* the user's request */
    int tag;
    int fixed_tag;             /* tag given by rd_nbc_use_tag: no shared-memory path */
    int err;                   /* first failure: ends the schedule */
    int trunc;                 /* a receive was truncated: the schedule goes on,
                                * its sends padded (rd_coll_trunc, coll_util.h) */
    step_t *steps;
    int nsteps, cap;
    int pos, end;              /* the current round is steps [pos, end) */
    int lpos;                  /* its next local step (past the ST_WAITs done) */
    rd_request_t **reqs;       /* the current round's messages */
    int nreqs, ndone, capreqs;
    void **tmps;               /* scratch freed with the schedule */
    int ntmps, captmps;
    void (*on_free)(void *);
    void *on_free_arg;
    /* not cleared on reuse: */
    step_t steps_in[INLINE_STEPS];
    rd_request_t *reqs_in[INLINE_REQS];
    void *tmps_in[INLINE_TMPS];
};

_Static_assert(RD_NBC_TAG_BASE >= RD_COLL_TAG_NBC_BASE, "NBC tags overlap the blocking ones");
_Static_assert((long long)RD_NBC_TAG_BASE + RD_NBC_TAG_SPAN - 1 <= 0x3fffffff, "NBC tags too large");

static rd_list_t active_scheds = RD_LIST_INIT(active_scheds);
static rd_nbc_t *pool;         /* freed schedules for reuse */
static int npool;
static int in_hook;            /* a callback's p2p call must not re-enter the hook */
static int hook_id;            /* progress_hook's id, active while active_scheds is not empty */

/* rd_nbc_use_tag: the tag the next schedule on forced_comm takes. */
static _Thread_local const rd_comm_t *forced_comm;
static _Thread_local int forced_tag;

static void *at(const void *buf, ptrdiff_t off)
{
    return (void *)((uintptr_t)buf + (uintptr_t)off);
}

static int next_tag(rd_comm_t *c)
{
    return RD_NBC_TAG_BASE + (int)(rd_coll_comm(c)->nbc_seq++ % RD_NBC_TAG_SPAN);
}

/* Makes room for one more element in an array that starts inline: *arr
 * holds *cap elements of size sz; grows it to twice that. */
static int grow(void *arr, int *cap, size_t sz, const void *inline_arr)
{
    void **pa = arr;
    int n = 2 * *cap;
    void *p;
    if (*pa == inline_arr) {
        if ((p = malloc((size_t)n * sz)))
            memcpy(p, *pa, (size_t)*cap * sz);
    } else {
        p = realloc(*pa, (size_t)n * sz);
    }
    if (!p)
        return RD_ENOMEM;
    *pa = p;
    *cap = n;
    return RD_OK;
}

/* The step sink of the algorithms in coll_steps.c: they append to s. */
static rd_nbc_t *sched_of(rd_coll_steps_t *p)
{
    return (rd_nbc_t *)((char *)p - offsetof(rd_nbc_t, sink));
}

static void sink_send(rd_coll_steps_t *p, const void *buf, size_t count, rd_datatype_t *dt,
                      int peer)
{
    rd_nbc_send(sched_of(p), buf, count, dt, peer);
}

static void sink_recv(rd_coll_steps_t *p, void *buf, size_t count, rd_datatype_t *dt, int peer)
{
    rd_nbc_recv(sched_of(p), buf, count, dt, peer);
}

/* The local group's sink of an intercommunicator schedule: its messages go
 * over the local communicator, its other steps are the schedule's own. */
static rd_nbc_t *sched_of_local(rd_coll_steps_t *p)
{
    return (rd_nbc_t *)((char *)p - offsetof(rd_nbc_t, lsink));
}

static void mark_local(rd_nbc_t *s, int n)
{
    if (s->nsteps == n + 1)
        s->steps[n].local = 1;
}

static void lsink_send(rd_coll_steps_t *p, const void *buf, size_t count, rd_datatype_t *dt,
                       int peer)
{
    rd_nbc_t *s = sched_of_local(p);
    int n = s->nsteps;
    rd_nbc_send(s, buf, count, dt, peer);
    mark_local(s, n);
}

static void lsink_recv(rd_coll_steps_t *p, void *buf, size_t count, rd_datatype_t *dt, int peer)
{
    rd_nbc_t *s = sched_of_local(p);
    int n = s->nsteps;
    rd_nbc_recv(s, buf, count, dt, peer);
    mark_local(s, n);
}

static void lsink_copy(rd_coll_steps_t *p, const void *src, size_t scount, rd_datatype_t *sdt,
                       void *dst, size_t dcount, rd_datatype_t *ddt)
{
    rd_nbc_copy(sched_of_local(p), src, scount, sdt, dst, dcount, ddt);
}

static void lsink_reduce(rd_coll_steps_t *p, const void *in, void *inout, size_t count,
                         rd_datatype_t *dt, const rd_op_t *op)
{
    rd_nbc_reduce(sched_of_local(p), in, inout, count, dt, op);
}

static void lsink_fence(rd_coll_steps_t *p)
{
    rd_nbc_fence(sched_of_local(p));
}

static void *lsink_tmp(rd_coll_steps_t *p, size_t count, rd_datatype_t *dt)
{
    return rd_nbc_tmp_typed(sched_of_local(p), count, dt);
}

static const rd_coll_steps_ops_t lsink_ops = {
    .send = lsink_send,
    .recv = lsink_recv,
    .copy = lsink_copy,
    .reduce = lsink_reduce,
    .fence = lsink_fence,
    .tmp = lsink_tmp,
};

static void sink_copy(rd_coll_steps_t *p, const void *src, size_t scount, rd_datatype_t *sdt,
                      void *dst, size_t dcount, rd_datatype_t *ddt)
{
    rd_nbc_copy(sched_of(p), src, scount, sdt, dst, dcount, ddt);
}

static void sink_reduce(rd_coll_steps_t *p, const void *in, void *inout, size_t count,
                        rd_datatype_t *dt, const rd_op_t *op)
{
    rd_nbc_reduce(sched_of(p), in, inout, count, dt, op);
}

static void sink_fence(rd_coll_steps_t *p)
{
    rd_nbc_fence(sched_of(p));
}

static void *sink_tmp(rd_coll_steps_t *p, size_t count, rd_datatype_t *dt)
{
    return rd_nbc_tmp_typed(sched_of(p), count, dt);
}

static const rd_coll_steps_ops_t sink_ops = {
    .send = sink_send,
    .recv = sink_recv,
    .copy = sink_copy,
    .reduce = sink_reduce,
    .fence = sink_fence,
    .tmp = sink_tmp,
};

int rd_nbc_reserve_tag(rd_comm_t *c)
{
    return next_tag(c);
}

void rd_nbc_use_tag(const rd_comm_t *c, int tag)
{
    forced_comm = tag < 0 ? NULL : c;
    forced_tag = tag;
}

rd_nbc_t *rd_nbc_new(rd_comm_t *c)
{
    int fixed = forced_comm == c;
    int tag = fixed ? forced_tag : next_tag(c);
    forced_comm = NULL;
    if (tag < 0)
        return NULL;
    rd_nbc_t *s = pool;
    if (s) {
        pool = s->next_free;
        npool--;
    } else if (!(s = malloc(sizeof(*s)))) {
        return NULL;
    }
    memset(s, 0, offsetof(rd_nbc_t, steps_in));
    s->steps = s->steps_in;
    s->cap = INLINE_STEPS;
    s->reqs = s->reqs_in;
    s->capreqs = INLINE_REQS;
    s->tmps = s->tmps_in;
    s->captmps = INLINE_TMPS;
    s->tag = tag;
    s->fixed_tag = fixed;
    rd_list_init(&s->link);
    s->comm = c;
    rd_comm_ref(c);
    s->sink.ops = &sink_ops;
    s->sink.comm = c;
    if (c->rgroup) {
        /* An intercommunicator built without rd_coll_inter_init has no
         * communicator for the local steps: its collectives fail loudly
         * (the steps are still recorded, never run). */
        s->local = rd_coll_comm(c)->local;
        s->lsink.ops = &lsink_ops;
        s->lsink.comm = s->local ? s->local : c;
        if (s->local)
            rd_comm_ref(s->local);
        else
            s->err = RD_ENOTSUP;
    }
    return s;
}

rd_coll_steps_t *rd_nbc_local_sink(rd_nbc_t *s)
{
    return &s->lsink;
}

rd_comm_t *rd_nbc_comm(const rd_nbc_t *s)
{
    return s->comm;
}

void rd_nbc_on_free(rd_nbc_t *s, void (*fn)(void *), void *arg)
{
    s->on_free = fn;
    s->on_free_arg = arg;
}

void rd_nbc_free(rd_nbc_t *s)
{
    if (s->on_free)
        s->on_free(s->on_free_arg);
    for (int i = 0; i < s->nsteps; i++) {
        rd_dt_release(s->steps[i].sdt);
        rd_dt_release(s->steps[i].ddt);
    }
    for (int i = 0; i < s->ntmps; i++)
        free(s->tmps[i]);
    rd_comm_release(s->comm);
    if (s->local)
        rd_comm_release(s->local);
    if (s->steps != s->steps_in)
        free(s->steps);
    if (s->reqs != s->reqs_in)
        free(s->reqs);
    if (s->tmps != s->tmps_in)
        free(s->tmps);
    if (npool < POOL_MAX) {
        s->next_free = pool;
        pool = s;
        npool++;
    } else {
        free(s);
    }
}

void rd_nbc_fini(void)
{
    while (pool) {
        rd_nbc_t *s = pool;
        pool = s->next_free;
        free(s);
    }
    npool = 0;
}

/* ---- building ---- */

static step_t *add(rd_nbc_t *s, int kind)
{
    if (s->nsteps == s->cap && grow(&s->steps, &s->cap, sizeof(step_t), s->steps_in) != RD_OK) {
        s->err = RD_ENOMEM;
        return NULL;
    }
    step_t *st = &s->steps[s->nsteps++];
    memset(st, 0, sizeof(*st));
    st->kind = kind;
    return st;
}

static void set_types(step_t *st, rd_datatype_t *sdt, rd_datatype_t *ddt)
{
    st->sdt = sdt;
    st->ddt = ddt;
    if (sdt)
        rd_dt_ref(sdt);
    if (ddt)
        rd_dt_ref(ddt);
}

void rd_nbc_send(rd_nbc_t *s, const void *buf, size_t count, rd_datatype_t *dt, int peer)
{
    step_t *st = add(s, ST_SEND);
    if (!st)
        return;
    st->src = buf;
    st->scount = count;
    st->peer = peer;
    set_types(st, dt, NULL);
}

void rd_nbc_recv(rd_nbc_t *s, void *buf, size_t count, rd_datatype_t *dt, int peer)
{
    step_t *st = add(s, ST_RECV);
    if (!st)
        return;
    st->dst = buf;
    st->dcount = count;
    st->peer = peer;
    set_types(st, NULL, dt);
}

void rd_nbc_copy(rd_nbc_t *s, const void *src, size_t scount, rd_datatype_t *sdt, void *dst,
                 size_t dcount, rd_datatype_t *ddt)
{
    step_t *st = add(s, ST_COPY);
    if (!st)
        return;
    st->src = src;
    st->scount = scount;
    st->dst = dst;
    st->dcount = dcount;
    set_types(st, sdt, ddt);
}

void rd_nbc_reduce(rd_nbc_t *s, const void *in, void *inout, size_t count, rd_datatype_t *dt,
                   const rd_op_t *op)
{
    step_t *st = add(s, ST_REDUCE);
    if (!st)
        return;
    st->src = in;
    st->dst = inout;
    st->scount = st->dcount = count;
    st->op = op;
    set_types(st, dt, NULL);
}

void rd_nbc_call(rd_nbc_t *s, rd_nbc_fn fn, void *arg)
{
    step_t *st = add(s, ST_CALL);
    if (!st)
        return;
    st->fn = fn;
    st->arg = arg;
}

void rd_nbc_wait(rd_nbc_t *s, rd_nbc_poll_fn poll, void *arg, rd_datatype_t *dt)
{
    step_t *st = add(s, ST_WAIT);
    if (!st)
        return;
    st->poll = poll;
    st->arg = arg;
    set_types(st, dt, NULL);
}

void rd_nbc_fence(rd_nbc_t *s)
{
    add(s, ST_FENCE);
}

void *rd_nbc_tmp(rd_nbc_t *s, size_t len)
{
    if (s->ntmps == s->captmps &&
        grow(&s->tmps, &s->captmps, sizeof(void *), s->tmps_in) != RD_OK) {
        s->err = RD_ENOMEM;
        return NULL;
    }
    void *b = malloc(len ? len : 1);
    if (!b) {
        s->err = RD_ENOMEM;
        return NULL;
    }
    s->tmps[s->ntmps++] = b;
    return b;
}

/* Known limit: assumes a non-negative extent (as every type built from
 * positive strides has). */
void *rd_nbc_tmp_typed(rd_nbc_t *s, size_t count, const rd_datatype_t *dt)
{
    size_t span = 0;
    if (count)
        span = (count - 1) * (size_t)rd_dt_extent(dt) + (size_t)(dt->true_ub - dt->true_lb);
    void *b = rd_nbc_tmp(s, span);
    return b ? at(b, -dt->true_lb) : NULL;
}

/* ---- running ---- */

static int post(rd_nbc_t *s, const step_t *st)
{
    int send = st->kind == ST_SEND;
    rd_comm_t *c = st->local ? s->local : s->comm;
    const void *src = st->src;
    size_t scount = st->scount;
    rd_datatype_t *sdt = st->sdt;
    if (send && s->trunc) {
        char *b = rd_nbc_tmp(s, scount * sdt->size + 1);
        if (!b)
            return RD_ENOMEM;
        rd_coll_pad(src, scount, sdt, b);
        src = b;
        scount = scount * sdt->size + 1;
        sdt = &rd_dt_bytes;
    }
    if (s->nreqs == s->capreqs &&
        grow(&s->reqs, &s->capreqs, sizeof(rd_request_t *), s->reqs_in) != RD_OK)
        return RD_ENOMEM;
    rd_request_t *r = rd_req_new(send ? RD_REQ_SEND : RD_REQ_RECV);
    if (!r)
        return RD_ENOMEM;
    int rc = send ? rd_p2p_start(r, src, scount, sdt, c, st->peer, s->tag, RD_MODE_STANDARD, 1)
                  : rd_p2p_start(r, st->dst, st->dcount, st->ddt, c, st->peer, s->tag,
                                 RD_MODE_STANDARD, 1);
    if (rc != RD_OK) {
        rd_req_free(r);
        return rc;
    }
    s->reqs[s->nreqs++] = r;
    return RD_OK;
}

/* Posts the messages of the round starting at s->pos. */
static void start_round(rd_nbc_t *s)
{
    s->nreqs = s->ndone = 0;
    s->lpos = s->pos;
    for (s->end = s->pos; s->end < s->nsteps && s->steps[s->end].kind != ST_FENCE; s->end++) {
        const step_t *st = &s->steps[s->end];
        if ((st->kind == ST_SEND || st->kind == ST_RECV) && s->err == RD_OK)
            s->err = post(s, st);
    }
}

/* The round's local steps, in order, from s->lpos. A callback may append
 * steps (and so move s->steps). Returns 1 when the round's steps are all
 * done, 0 when an ST_WAIT is not satisfied yet (s->lpos stays at it and
 * the next call polls it again); *events counts the waits satisfied. */
static int run_local(rd_nbc_t *s, int *events)
{
    for (; s->lpos < s->end && s->err == RD_OK; s->lpos++) {
        step_t st = s->steps[s->lpos];
        switch (st.kind) {
        case ST_COPY:
            rd_coll_copy(st.src, st.scount, st.sdt, st.dst, st.dcount, st.ddt);
            break;
        case ST_REDUCE:
            rd_op_apply(st.op, st.src, st.dst, st.scount, st.sdt);
            break;
        case ST_CALL:
            s->err = st.fn(s, st.arg);
            break;
        case ST_WAIT: {
            int rc = st.poll(s, st.arg);
            if (rc == 0)
                return 0;
            if (rc < 0)
                s->err = rc;
            else
                (*events)++;
            break;
        }
        default:
            break;
        }
    }
    return 1;
}

static void finish(rd_nbc_t *s)
{
    rd_list_remove(&s->link);
    if (rd_list_empty(&active_scheds))
        rd_progress_hook_deactivate(hook_id);
    rd_req_complete(s->req, rd_coll_trunc_end(s->err, s->trunc));
    rd_nbc_free(s);
}

/* Moves s on as far as its messages and waits allow; returns the number of
 * rounds completed and waits satisfied. Frees s when it ends. */
static int advance(rd_nbc_t *s)
{
    int events = 0;
    for (;;) {
        while (s->ndone < s->nreqs && s->reqs[s->ndone]->done > 0)
            s->ndone++;
        if (s->ndone < s->nreqs)
            return events;
        for (int i = 0; i < s->nreqs; i++) {
            int rc = rd_coll_trunc(s->reqs[i]->error, &s->trunc);
            if (rc != RD_OK && s->err == RD_OK)
                s->err = rc;
            rd_req_free(s->reqs[i]);
        }
        s->nreqs = s->ndone = 0;
        if (s->err == RD_OK && !run_local(s, &events))
            return events;
        events++;
        s->pos = s->end;
        if (s->pos < s->nsteps && s->steps[s->pos].kind == ST_FENCE)
            s->pos++;
        if (s->err != RD_OK || s->pos >= s->nsteps) {
            finish(s);
            return events;
        }
        start_round(s);
    }
}

static int progress_hook(void)
{
    if (in_hook)
        return 0;
    in_hook = 1;
    int n = 0;
    rd_list_t *p, *t;
    rd_list_for_each_safe(p, t, &active_scheds)
        n += advance(rd_list_entry(p, rd_nbc_t, link));
    in_hook = 0;
    return n;
}

int rd_nbc_start(rd_nbc_t *s, rd_request_t *req)
{
    int rc = s->err != RD_OK ? s->err : rd_progress_hook_register(progress_hook);
    if (rc < 0) {
        rd_nbc_free(s);
        return rc;
    }
    hook_id = rc;
    s->req = req;
    rd_list_push_back(&active_scheds, &s->link);
    rd_progress_hook_activate(hook_id);
    s->pos = 0;
    start_round(s);
    in_hook++;
    advance(s);
    in_hook--;
    return RD_OK;
}

/* ---- algorithms ---- */

void rd_nbc_bcast(rd_nbc_t *s, void *buf, size_t count, rd_datatype_t *dt, int root)
{
    if (s->comm->rgroup) {
        rd_nbc_inter_bcast(s, buf, count, dt, root);
        return;
    }
    if (s->comm->size == 1)
        return;
    /* The shared-memory path's sequence numbers follow the start order,
     * which persistent collectives need not keep. */
    int rc = s->fixed_tag ? RD_ENOTSUP : rd_coll_shm_ibcast(s, buf, count, dt, root);
    if (rc != RD_ENOTSUP) {
        if (rc != RD_OK && s->err == RD_OK)
            s->err = rc;
        return;
    }
    rd_coll_steps_bcast(&s->sink, buf, count, dt, root);
}

void rd_nbc_barrier(rd_nbc_t *s)
{
    if (s->comm->rgroup) {
        rd_nbc_inter_barrier(s);
        return;
    }
    rd_coll_steps_barrier(&s->sink);
}

void rd_nbc_reduce_to(rd_nbc_t *s, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                      const rd_op_t *op, int root)
{
    if (s->comm->rgroup) {
        rd_nbc_inter_reduce(s, sbuf, rbuf, count, dt, op, root);
        return;
    }
    rd_coll_steps_reduce(&s->sink, sbuf, rbuf, count, dt, op, root);
}

void rd_nbc_allreduce(rd_nbc_t *s, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                      const rd_op_t *op)
{
    if (s->comm->rgroup) {
        rd_nbc_inter_allreduce(s, sbuf, rbuf, count, dt, op);
        return;
    }
    rd_coll_steps_allreduce(&s->sink, sbuf, rbuf, count, dt, op);
}

void rd_nbc_scan(rd_nbc_t *s, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                 const rd_op_t *op, int excl)
{
    rd_coll_steps_scan(&s->sink, sbuf, rbuf, count, dt, op, excl);
}

void rd_nbc_gatherv(rd_nbc_t *s, const void *sbuf, size_t scount, rd_datatype_t *sdt, void *rbuf,
                    const int *rcounts, const int *rdispls, size_t rcount, rd_datatype_t *rdt,
                    int root)
{
    if (s->comm->rgroup) {
        rd_nbc_inter_gatherv(s, sbuf, scount, sdt, rbuf, rcounts, rdispls, rcount, rdt, root);
        return;
    }
    rd_coll_steps_gatherv(&s->sink, sbuf, scount, sdt, rbuf, rcounts, rdispls, rcount, rdt, root);
}

void rd_nbc_scatterv(rd_nbc_t *s, const void *sbuf, const int *scounts, const int *sdispls,
                     size_t scount, rd_datatype_t *sdt, void *rbuf, size_t rcount,
                     rd_datatype_t *rdt, int root)
{
    if (s->comm->rgroup) {
        rd_nbc_inter_scatterv(s, sbuf, scounts, sdispls, scount, sdt, rbuf, rcount, rdt, root);
        return;
    }
    rd_coll_steps_scatterv(&s->sink, sbuf, scounts, sdispls, scount, sdt, rbuf, rcount, rdt,
                           root);
}

void rd_nbc_allgatherv(rd_nbc_t *s, const void *sbuf, size_t scount, rd_datatype_t *sdt,
                       void *rbuf, const int *rcounts, const int *rdispls, size_t rcount,
                       rd_datatype_t *rdt)
{
    if (s->comm->rgroup) {
        rd_nbc_inter_allgatherv(s, sbuf, scount, sdt, rbuf, rcounts, rdispls, rcount, rdt);
        return;
    }
    int n = s->comm->size, me = s->comm->rank;
    void *mine;
    size_t mycnt;
    rd_coll_block(rbuf, rcounts, rdispls, rcount, rdt, me, &mine, &mycnt);
    const void *src = sbuf;
    rd_datatype_t *srcdt = sdt;
    size_t srccnt = scount;
    if (sbuf == RD_NBC_IN_PLACE) {
        src = mine;
        srcdt = rdt;
        srccnt = mycnt;
    } else {
        rd_nbc_copy(s, sbuf, scount, sdt, mine, mycnt, rdt);
    }
    for (int k = 1; k < n; k++) {
        int to = (me + k) % n, from = (me - k + n) % n;
        void *p;
        size_t cnt;
        rd_coll_block(rbuf, rcounts, rdispls, rcount, rdt, from, &p, &cnt);
        rd_nbc_recv(s, p, cnt, rdt, from);
        rd_nbc_send(s, src, srccnt, srcdt, to);
    }
    rd_nbc_fence(s);
}

void rd_nbc_alltoallv(rd_nbc_t *s, const void *sbuf, const int *scounts, const int *sdispls,
                      size_t scount, rd_datatype_t *sdt, void *rbuf, const int *rcounts,
                      const int *rdispls, size_t rcount, rd_datatype_t *rdt)
{
    if (s->comm->rgroup) {
        rd_nbc_inter_alltoallv(s, sbuf, scounts, sdispls, scount, sdt, rbuf, rcounts, rdispls,
                               rcount, rdt);
        return;
    }
    int n = s->comm->size, me = s->comm->rank;
    void *p;
    size_t cnt;
    if (sbuf == RD_NBC_IN_PLACE) {
        /* What goes out is the receive buffer's current content: pack every
         * other block into scratch first, then exchange as bytes. */
        size_t total = 0;
        for (int i = 0; i < n; i++) {
            rd_coll_block(rbuf, rcounts, rdispls, rcount, rdt, i, &p, &cnt);
            if (i != me)
                total += cnt * rdt->size;
        }
        char *packed = rd_nbc_tmp(s, total);
        if (!packed)
            return;
        size_t off = 0;
        for (int i = 0; i < n; i++) {
            rd_coll_block(rbuf, rcounts, rdispls, rcount, rdt, i, &p, &cnt);
            if (i != me) {
                rd_nbc_copy(s, p, cnt, rdt, packed + off, cnt * rdt->size, &rd_dt_bytes);
                off += cnt * rdt->size;
            }
        }
        rd_nbc_fence(s);
        off = 0;
        for (int i = 0; i < n; i++) {
            rd_coll_block(rbuf, rcounts, rdispls, rcount, rdt, i, &p, &cnt);
            if (i != me) {
                rd_nbc_recv(s, p, cnt, rdt, i);
                rd_nbc_send(s, packed + off, cnt * rdt->size, &rd_dt_bytes, i);
                off += cnt * rdt->size;
            }
        }
        rd_nbc_fence(s);
        return;
    }
    for (int k = 1; k <= n; k++) {
        int to = (me + k) % n, from = (me - k + n) % n;
        void *sp;
        size_t scnt;
        rd_coll_block(rbuf, rcounts, rdispls, rcount, rdt, from, &p, &cnt);
        rd_coll_block(sbuf, scounts, sdispls, scount, sdt, to, &sp, &scnt);
        if (to == me) {
            rd_nbc_copy(s, sp, scnt, sdt, p, cnt, rdt);
        } else {
            rd_nbc_recv(s, p, cnt, rdt, from);
            rd_nbc_send(s, sp, scnt, sdt, to);
        }
    }
    rd_nbc_fence(s);
}

/*
 * The matching engine: posted-receive and unexpected-message queues of one
 * communication context, independent of any transport or MPI object.
 *
 * Elements are intrusive (embedded in receive requests and in unexpected
 * messages). Every operation follows MPI's rules:
 *  - a message matches the earliest-posted receive whose (source, tag) fit;
 *  - a receive matches the earliest-arrived unexpected message that fits;
 *  - RD_ANY_SOURCE / RD_ANY_TAG are wildcards on the receive side only.
 * Since arrivals from one source are fed in send order, non-overtaking holds.
 *
 * Cost: posted receives are kept per source plus one wildcard list, ordered by
 * a post sequence number, so a message whose source has no wildcard receive
 * competing costs O(1) + (tag mismatches skipped); unexpected messages are kept
 * per source and in one global arrival-order list, so a receive naming its
 * source scans only that source's queue.
 */
#ifndef RD_P2P_MATCH_H
#define RD_P2P_MATCH_H

#include <stdint.h>

#include "util/list.h"

#define RD_ANY_SOURCE (-2)   /* same values as MPI_ANY_SOURCE / MPI_ANY_TAG in MPICH */
#define RD_ANY_TAG (-1)

typedef struct rd_match_elem {
    rd_list_t link;      /* in a per-source queue or the wildcard posted list */
    rd_list_t all_link;  /* unexpected only: in the global arrival-order list */
    int src;             /* posted: source or RD_ANY_SOURCE; unexpected: source */
    int tag;             /* posted: tag or RD_ANY_TAG; unexpected: tag (>= 0) */
    uint64_t seq;        /* set by the engine: post order or arrival order */
} rd_match_elem_t;

typedef struct rd_match_q {
    int nsrc;                 /* sources are 0 .. nsrc-1 */
    rd_list_t *posted;        /* nsrc per-source posted lists */
    rd_list_t posted_any;     /* posted receives with src == RD_ANY_SOURCE */
    rd_list_t *unexp;         /* nsrc per-source unexpected lists */
    rd_list_t unexp_all;      /* all unexpected, arrival order */
    uint64_t post_seq, arrive_seq;
    long n_posted, n_unexp;   /* current queue lengths (for tests and stats) */
    int users;                /* kept by the owner (p2p: communicators attached) */
} rd_match_q_t;

/* Returns RD_OK, RD_EINVAL (nsrc < 1) or RD_ENOMEM. */
int rd_match_q_init(rd_match_q_t *q, int nsrc);
/* The queues must be empty or their elements abandoned by the caller. */
void rd_match_q_destroy(rd_match_q_t *q);

/* The two steps both the inline fast paths and match.c take: queue posted
 * receive r for (src, tag); and take matched receive r off its queue, leaving
 * m (the arriving message's element, not needed now) unqueued. */
static inline void rd_match_enqueue_posted(rd_match_q_t *q, rd_match_elem_t *r, int src,
                                           int tag)
{
    r->src = src;
    r->tag = tag;
    r->seq = q->post_seq++;
    rd_list_push_back(src == RD_ANY_SOURCE ? &q->posted_any : &q->posted[src], &r->link);
    q->n_posted++;
}

static inline rd_match_elem_t *rd_match_dequeue_posted(rd_match_q_t *q, rd_match_elem_t *r,
                                                       rd_match_elem_t *m)
{
    rd_list_remove(&r->link);
    q->n_posted--;
    if (m) {
        rd_list_init(&m->link);
        rd_list_init(&m->all_link);
    }
    return r;
}

/* A receive for (src, tag) is posted. If an unexpected message fits, it is
 * removed and returned (r is not queued); otherwise r is queued as posted and
 * NULL is returned. */
rd_match_elem_t *rd_match_post_slow(rd_match_q_t *q, rd_match_elem_t *r, int src, int tag);
static inline rd_match_elem_t *rd_match_post(rd_match_q_t *q, rd_match_elem_t *r, int src,
                                             int tag)
{
    /* Nothing unexpected to look through (the usual case): queue it. */
    if (q->n_unexp == 0) {
        rd_match_enqueue_posted(q, r, src, tag);
        return NULL;
    }
    return rd_match_post_slow(q, r, src, tag);
}

/* A message from src with tag arrives. If a posted receive fits, it is removed
 * and returned (m is not queued); otherwise m is queued as unexpected and NULL
 * is returned. m may be NULL: then nothing is queued, so the caller can look
 * for a receive first and allocate the unexpected element only when needed. */
rd_match_elem_t *rd_match_arrive_slow(rd_match_q_t *q, rd_match_elem_t *m, int src, int tag);
static inline rd_match_elem_t *rd_match_arrive(rd_match_q_t *q, rd_match_elem_t *m, int src,
                                               int tag)
{
    /* No ANY_SOURCE receive competes and the oldest receive naming src fits
     * (the usual case): that one is the match. */
    rd_list_t *head = &q->posted[src];
    if (rd_list_empty(&q->posted_any) && !rd_list_empty(head)) {
        rd_match_elem_t *r = rd_list_entry(head->next, rd_match_elem_t, link);
        if (r->tag == tag || r->tag == RD_ANY_TAG)
            return rd_match_dequeue_posted(q, r, m);
    }
    return rd_match_arrive_slow(q, m, src, tag);
}

/* The unexpected message a receive for (src, tag) would match, left queued;
 * NULL if none (MPI_Probe / MPI_Iprobe). */
rd_match_elem_t *rd_match_peek(rd_match_q_t *q, int src, int tag);

/* Removes an unexpected message returned by rd_match_peek (MPI_Mprobe). */
void rd_match_take(rd_match_q_t *q, rd_match_elem_t *m);

/* Removes a posted receive (MPI_Cancel). Returns 1 if it was still posted, 0 if
 * not (already matched). r must have been passed to rd_match_post, or be
 * zero-initialized (never posted: returns 0). */
int rd_match_cancel(rd_match_q_t *q, rd_match_elem_t *r);

#endif

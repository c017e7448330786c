/*
 * The matching engine (see match.h). MPI's ordering rules are kept by
 * sequence numbers rather than by one big list, so that the common case (a
 * receive naming its source, no ANY_SOURCE receive outstanding) touches only
 * one short per-source queue:
 *  - posted receives sit in the list of their source, or in posted_any for
 *    ANY_SOURCE; each list is in post order, and post_seq orders the two
 *    candidates an arriving message finds (one per list);
 *  - unexpected messages sit in the list of their source (for receives naming
 *    it) and in unexp_all (for ANY_SOURCE receives), both in arrival order.
 * The engine never allocates after init: elements are embedded in the
 * caller's requests and messages.
 *
 * An element that is in no queue has its link pointing to itself, which is
 * how rd_match_cancel tells "still posted" from "already matched".
 */
#include "p2p/match.h"

#include <assert.h>
#include <stdlib.h>

#include "util/status.h"

static inline int tag_fits(int want, int tag)
{
    return want == RD_ANY_TAG || want == tag;
}

/* The first element of a posted list whose tag fits, among those posted
 * before `before` (UINT64_MAX: no bound); NULL if none. Lists are in post
 * order, so the scan stops at the first element posted too late. */
static rd_match_elem_t *first_posted(rd_list_t *head, int tag, uint64_t before)
{
    rd_list_t *pos;
    rd_list_for_each(pos, head) {
        rd_match_elem_t *r = rd_list_entry(pos, rd_match_elem_t, link);
        if (r->seq >= before)
            return NULL;
        if (tag_fits(r->tag, tag))
            return r;
    }
    return NULL;
}

/* The earliest-arrived unexpected message a receive for (src, tag) fits. */
static rd_match_elem_t *first_unexp(rd_match_q_t *q, int src, int tag)
{
    rd_list_t *pos;
    if (src == RD_ANY_SOURCE) {
        rd_list_for_each(pos, &q->unexp_all) {
            rd_match_elem_t *m = rd_list_entry(pos, rd_match_elem_t, all_link);
            if (tag_fits(tag, m->tag))
                return m;
        }
        return NULL;
    }
    assert(src >= 0 && src < q->nsrc);
    rd_list_for_each(pos, &q->unexp[src]) {
        rd_match_elem_t *m = rd_list_entry(pos, rd_match_elem_t, link);
        if (tag_fits(tag, m->tag))
            return m;
    }
    return NULL;
}

/* Known limit: two list heads per source cost 32 bytes per peer per context,
 * fine up to ~10^5 ranks; beyond that a hash of non-empty sources would do. */
int rd_match_q_init(rd_match_q_t *q, int nsrc)
{
    q->posted = q->unexp = NULL;   /* destroy is safe even after a failure */
    if (nsrc < 1)
        return RD_EINVAL;
    q->nsrc = nsrc;
    q->posted = malloc((size_t)nsrc * sizeof(*q->posted));
    q->unexp = malloc((size_t)nsrc * sizeof(*q->unexp));
    if (!q->posted || !q->unexp)
        goto err;
    for (int i = 0; i < nsrc; i++) {
        rd_list_init(&q->posted[i]);
        rd_list_init(&q->unexp[i]);
    }
    rd_list_init(&q->posted_any);
    rd_list_init(&q->unexp_all);
    q->post_seq = q->arrive_seq = 0;
    q->n_posted = q->n_unexp = 0;
    return RD_OK;
err:
    free(q->posted);
    free(q->unexp);
    q->posted = q->unexp = NULL;
    return RD_ENOMEM;
}

void rd_match_q_destroy(rd_match_q_t *q)
{
    free(q->posted);
    free(q->unexp);
    q->posted = q->unexp = NULL;
    q->nsrc = 0;
}

rd_match_elem_t *rd_match_post_slow(rd_match_q_t *q, rd_match_elem_t *r, int src, int tag)
{
    rd_match_elem_t *m = first_unexp(q, src, tag);
    if (m) {
        rd_match_take(q, m);
        rd_list_init(&r->link);   /* never queued: cancel must report 0 */
        return m;
    }
    rd_match_enqueue_posted(q, r, src, tag);
    return NULL;
}

rd_match_elem_t *rd_match_arrive_slow(rd_match_q_t *q, rd_match_elem_t *m, int src, int tag)
{
    assert(src >= 0 && src < q->nsrc && tag >= 0);
    /* The first fitting receive naming src, then the first fitting ANY_SOURCE
     * receive posted before it: the earlier of the two is the one MPI
     * requires. With no wildcard receive outstanding the second scan is free. */
    rd_match_elem_t *r = first_posted(&q->posted[src], tag, UINT64_MAX);
    rd_match_elem_t *w = first_posted(&q->posted_any, tag, r ? r->seq : UINT64_MAX);
    if (w)
        r = w;
    if (r)
        return rd_match_dequeue_posted(q, r, m);
    if (!m)
        return NULL;
    m->src = src;
    m->tag = tag;
    m->seq = q->arrive_seq++;
    rd_list_push_back(&q->unexp[src], &m->link);
    rd_list_push_back(&q->unexp_all, &m->all_link);
    q->n_unexp++;
    return NULL;
}

rd_match_elem_t *rd_match_peek(rd_match_q_t *q, int src, int tag)
{
    return first_unexp(q, src, tag);
}

void rd_match_take(rd_match_q_t *q, rd_match_elem_t *m)
{
    rd_list_remove(&m->link);
    rd_list_remove(&m->all_link);
    q->n_unexp--;
}

int rd_match_cancel(rd_match_q_t *q, rd_match_elem_t *r)
{
    /* A zeroed element (next == NULL) was never handed to the engine. */
    if (!r->link.next || rd_list_empty(&r->link))
        return 0;
    rd_list_remove(&r->link);
    q->n_posted--;
    return 1;
}

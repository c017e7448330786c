/*
 * The edge exchange of MPI_Dist_graph_create (see dist_graph.h).
 *
 * Every rank learns every edge: an allgather of the edge counts, then one of
 * the edges, each rank's list padded to the longest. Simple, and O(total
 * edges) memory per rank; a sparse exchange would scale better.
 *
 * The graph is weighted if a rank that gave edges gave weights; if no rank
 * gave any edge, if any rank passed weights at all.
 */
#include "coll/dist_graph.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "util/status.h"

/* What each rank contributes first. */
typedef struct head {
    int nedges;
    int weights;               /* weights were given */
} head_t;

/* Fills adj from the edges of all ranks (size blocks of block ints). */
static int collect(const rd_comm_t *c, const head_t *heads, const int *all, size_t block,
                   rd_coll_dg_adj_t *adj)
{
    int in = 0, out = 0, me = c->rank;
    for (int r = 0; r < c->size; r++)
        for (int j = 0; j < heads[r].nedges; j++) {
            const int *e = all + (size_t)r * block + 3 * (size_t)j;
            in += e[1] == me;
            out += e[0] == me;
        }
    int *v = malloc((2 * ((size_t)in + (size_t)out) + 1) * sizeof(int));
    if (!v)
        return RD_ENOMEM;
    int *src = v, *sw = v + in, *dst = v + 2 * (size_t)in, *dw = dst + out;
    adj->indegree = in;
    adj->outdegree = out;
    adj->v = v;
    in = out = 0;
    for (int r = 0; r < c->size; r++)
        for (int j = 0; j < heads[r].nedges; j++) {
            const int *e = all + (size_t)r * block + 3 * (size_t)j;
            if (e[1] == me) {
                src[in] = e[0];
                sw[in++] = e[2];
            }
            if (e[0] == me) {
                dst[out] = e[1];
                dw[out++] = e[2];
            }
        }
    return RD_OK;
}

int rd_coll_dist_graph_exchange(rd_comm_t *c, int ne, const int *edges, int hasw,
                                rd_coll_dg_adj_t *adj)
{
    int size = c->size, rc = RD_ENOMEM;
    head_t mine = { ne, hasw }, *heads = malloc((size_t)size * sizeof(*heads));
    int *all = NULL, *pad = NULL;
    adj->v = NULL;
    if (!heads)
        goto done;
    if ((rc = rd_coll_allgather_bytes(c, &mine, sizeof(mine), heads)) != RD_OK)
        goto done;
    int longest = 0, weighted = 0, weighted_any = 0;
    for (int r = 0; r < size; r++) {
        if (heads[r].nedges > longest)
            longest = heads[r].nedges;
        if (heads[r].nedges > 0)
            weighted |= heads[r].weights;
        weighted_any |= heads[r].weights;
    }
    adj->weighted = longest ? weighted : weighted_any;
    size_t block = 3 * (size_t)longest;
    rc = RD_ENOMEM;
    all = malloc((size_t)size * block * sizeof(int) + 1);
    pad = calloc(block + 1, sizeof(int));
    if (!all || !pad)
        goto done;
    if (ne)
        memcpy(pad, edges, 3 * (size_t)ne * sizeof(int));
    if (block && (rc = rd_coll_allgather_bytes(c, pad, block * sizeof(int), all)) != RD_OK)
        goto done;
    rc = collect(c, heads, all, block, adj);
done:
    free(heads);
    free(all);
    free(pad);
    return rc;
}

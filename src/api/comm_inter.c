/*
 * MPI_Comm_split and MPI_Comm_create on an intercommunicator (MPI-3.1
 * 6.4.2): the result is an intercommunicator between the chosen part of
 * the local group and the matching part of the remote one, MPI_COMM_NULL
 * where either part is empty. Each rank learns its own group's choices
 * over the hidden local communicator and the remote group's through an
 * intercommunicator allgather; all new intercommunicators then share one
 * context agreement over both groups (disjoint ones may share ids).
 */
#include "api/comm.h"

#include <stdlib.h>

#include "coll/coll.h"
#include "coll/coll_inter.h"
#include "coll/ctxid.h"

/* Agrees on the new contexts (every rank of both groups takes part) and
 * builds the intercommunicator if both sides have members and this rank is
 * one. Takes over the references to lg and rg. */
static int finish(rd_comm_t *c, rd_group_t *lg, rd_group_t *rg, int member, rd_comm_t **out)
{
    uint32_t ctx;
    member = member && lg && rg;
    int rc = rd_coll_ctx_agree_inter(c, rd_api_comm_local(c), 4, member, NULL, NULL, 0, &ctx);
    if (rc == RD_OK && member)
        rc = rd_api_comm_build_inter(c, lg, rg, ctx, out);
    rd_group_release(lg);
    rd_group_release(rg);
    return rc;
}

int rd_api_comm_split_inter(rd_comm_t *c, int color, int key, rd_comm_t **out)
{
    rd_split_entry_t mine = { color, key };
    int rsize = c->rgroup->size;
    rd_split_entry_t *lall = malloc((size_t)c->size * sizeof(*lall));
    rd_split_entry_t *rall = malloc((size_t)rsize * sizeof(*rall));
    rd_group_t *lg = NULL, *rg = NULL;
    int rc = RD_ENOMEM;
    *out = NULL;
    if (!lall || !rall)
        goto out;
    rc = rd_coll_allgather_bytes(rd_api_comm_local(c), &mine, sizeof(mine), lall);
    if (rc == RD_OK)
        rc = rd_coll_inter_allgatherv(c, &mine, sizeof(mine), &rd_dt_bytes, rall, NULL, NULL,
                                      sizeof(mine), &rd_dt_bytes);
    if (rc == RD_OK)
        rc = rd_api_split_group(lall, c->group, color, &lg);
    if (rc == RD_OK)
        rc = rd_api_split_group(rall, c->rgroup, color, &rg);
    if (rc == RD_OK) {
        rc = finish(c, lg, rg, color != MPI_UNDEFINED, out);
        lg = rg = NULL;
    }
out:
    rd_group_release(lg);
    rd_group_release(rg);
    free(lall);
    free(rall);
    return rc;
}

int rd_api_comm_create_inter(rd_comm_t *c, rd_group_t *g, rd_comm_t **out)
{
    /* Every rank tells the other group its place in the group its own side
     * passed (-1: not in it); that gives the remote part in group order. */
    int rsize = c->rgroup->size, mine = g->rank, n = 0;
    int *pos = malloc((size_t)rsize * sizeof(int));
    int *world = malloc((size_t)rsize * sizeof(int));
    rd_group_t *rg = NULL;
    int rc = RD_ENOMEM;
    *out = NULL;
    if (!pos || !world)
        goto out;
    rc = rd_coll_inter_allgatherv(c, &mine, sizeof(int), &rd_dt_bytes, pos, NULL, NULL,
                                  sizeof(int), &rd_dt_bytes);
    if (rc != RD_OK)
        goto out;
    for (int i = 0; i < rsize; i++) {
        if (pos[i] >= rsize || (pos[i] >= 0 && ++n > rsize)) {
            rc = RD_EINVAL;
            goto out;
        }
        if (pos[i] >= 0)
            world[pos[i]] = c->rgroup->world[i];
    }
    if (n && !(rg = rd_group_new(n, world, rd_api.boot.rank))) {
        rc = RD_ENOMEM;
        goto out;
    }
    if (g->size)
        rd_group_ref(g);
    rc = finish(c, g->size ? g : NULL, rg, g->rank >= 0, out);
out:
    free(pos);
    free(world);
    return rc;
}

/*
 * Intercommunicators: MPI_Intercomm_create and MPI_Intercomm_merge. The two
 * groups agree on one context id (coll/ctxid.h); the intercommunicator
 * carries a hidden intracommunicator over its local group (comm.h) for the
 * agreements inside one group that dup and merge need.
 */
#include "api/comm.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/ctxid.h"

RD_WEAK_ALIAS(MPI_Intercomm_create)
int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm *newintercomm)
{
    static const char fn[] = "MPI_Intercomm_create";
    rd_comm_t *lc, *peer = NULL, *nc = NULL;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(local_comm, &lc, fn)) ||
        (err = rd_api_check_newcomm(lc, newintercomm, fn)) || (err = rd_api_check_intra(lc, fn)) ||
        (err = rd_api_check_tag(lc, tag, 0, fn)))
        return err;
    if (local_leader < 0 || local_leader >= lc->size)
        return rd_api_error(lc, MPI_ERR_RANK, fn, "local_leader %d is outside 0..%d",
                            local_leader, lc->size - 1);
    /* peer_comm and remote_leader only matter at the leader. */
    if (lc->rank == local_leader) {
        if ((err = rd_api_check_comm(peer_comm, &peer, fn)))
            return err;
        if (remote_leader < 0 || remote_leader >= rd_comm_remote_size(peer))
            return rd_api_error(lc, MPI_ERR_RANK, fn, "remote_leader %d is outside 0..%d",
                                remote_leader, rd_comm_remote_size(peer) - 1);
        if (rd_comm_world(peer, remote_leader) == rd_api.boot.rank)
            return rd_api_error(lc, MPI_ERR_RANK, fn,
                                "remote_leader %d is this process: the two groups must be "
                                "disjoint", remote_leader);
    }
    rd_api_lock();
    uint32_t ctx;
    int rsize = 0, *rworld = NULL, overlap = 0;
    int rc = rd_coll_ctx_agree_intercomm(lc, local_leader, peer, remote_leader, tag, &ctx, &rsize,
                                         &rworld);
    if (rc == RD_OK) {
        for (int i = 0; i < rsize && !overlap; i++)
            overlap = rd_group_rank_of(lc->group, rworld[i]) >= 0;
    }
    rd_group_t *rg = NULL;
    if (rc == RD_OK && !overlap && (rg = rd_group_new(rsize, rworld, rd_api.boot.rank)))
        rc = rd_api_comm_build_inter(lc, lc->group, rg, ctx, &nc);
    else if (rc == RD_OK) {
        /* No intercommunicator takes the two slots just agreed on. */
        rd_coll_ctx_release(ctx);
        rd_coll_ctx_release(ctx + 2);
        rc = overlap ? RD_OK : RD_ENOMEM;
    }
    rd_group_release(rg);
    rd_api_unlock();
    free(rworld);
    if (rc != RD_OK)
        return rd_api_status_error(lc, rc, fn);
    if (overlap)
        return rd_api_error(lc, MPI_ERR_COMM, fn,
                            "the local and remote groups overlap: they must be disjoint");
    *newintercomm = nc->handle;
    return MPI_SUCCESS;
}

/* The group that passed high = false comes first; if both passed the same
 * value, the group whose leader has the lower MPI_COMM_WORLD rank does. */
RD_WEAK_ALIAS(MPI_Intercomm_merge)
int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    static const char fn[] = "MPI_Intercomm_merge";
    rd_comm_t *c, *nc = NULL;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(intercomm, &c, fn)) ||
        (err = rd_api_check_newcomm(c, newintracomm, fn)))
        return err;
    if (!c->rgroup)
        return rd_api_error(c, MPI_ERR_COMM, fn, "the communicator is not an intercommunicator");
    int n = c->size + c->rgroup->size;
    int *world = malloc((size_t)n * sizeof(int));
    if (!world)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory");
    rd_api_lock();
    /* Rank 0's value stands for its group (all members pass the same). */
    int mine[2] = { high != 0, 0 }, theirs[2];
    uint32_t ctx;
    int rc = rd_coll_bcast_bytes(rd_api_comm_local(c), mine, sizeof(int), 0);
    if (rc == RD_OK)
        rc = rd_coll_ctx_agree_inter(c, rd_api_comm_local(c), 2, 1, mine, theirs, 1, &ctx);
    if (rc == RD_OK) {
        int first = mine[0] != theirs[0] ? !mine[0]
                                         : c->group->world[0] < c->rgroup->world[0];
        rd_group_t *a = first ? c->group : c->rgroup, *b = first ? c->rgroup : c->group;
        memcpy(world, a->world, (size_t)a->size * sizeof(int));
        memcpy(world + a->size, b->world, (size_t)b->size * sizeof(int));
        rd_group_t *g = rd_group_new(n, world, rd_api.boot.rank);
        rc = g ? rd_api_comm_build(c, g, ctx, &nc) : RD_ENOMEM;
        if (!g)
            rd_coll_ctx_release(ctx);
        rd_group_release(g);
    }
    rd_api_unlock();
    free(world);
    return rd_api_comm_out(c, rc, nc, newintracomm, fn);
}


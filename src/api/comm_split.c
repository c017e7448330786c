/*
 * MPI_Comm_split and MPI_Comm_split_type: every rank contributes (color,
 * key) in an allgather and computes the members of its own part; the parts
 * then agree on their context ids together, over the parent (coll/ctxid.h).
 * An intercommunicator is split in comm_inter.c.
 */
#include "api/comm.h"

#include <stdlib.h>

#include "coll/coll.h"

typedef struct split_member {
    int key, rank;
} split_member_t;

static int cmp_member(const void *pa, const void *pb)
{
    const split_member_t *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

int rd_api_split_group(const rd_split_entry_t *all, const rd_group_t *from, int color,
                       rd_group_t **g)
{
    int n = from->size, k = 0, rc = RD_OK;
    split_member_t *m = malloc(((size_t)n + 1) * sizeof(*m));
    int *world = malloc(((size_t)n + 1) * sizeof(int));
    *g = NULL;
    if (!m || !world) {
        rc = RD_ENOMEM;
        goto out;
    }
    if (color != MPI_UNDEFINED)
        for (int r = 0; r < n; r++)
            if (all[r].color == color)
                m[k++] = (split_member_t){ all[r].key, r };
    qsort(m, (size_t)k, sizeof(*m), cmp_member);
    for (int i = 0; i < k; i++)
        world[i] = from->world[m[i].rank];
    if (k && !(*g = rd_group_new(k, world, rd_api.boot.rank)))
        rc = RD_ENOMEM;
out:
    free(m);
    free(world);
    return rc;
}

/* The split itself: every rank of c contributes (color, key); the ranks of
 * my color, ordered by key then by rank in c, form my new communicator.
 * MPI_UNDEFINED gets NULL. Lock held; returns an internal status. */
static int split(rd_comm_t *c, int color, int key, rd_comm_t **out)
{
    rd_split_entry_t mine = { color, key };
    rd_split_entry_t *all = malloc((size_t)c->size * sizeof(*all));
    rd_group_t *g = NULL;
    int rc = RD_ENOMEM;
    *out = NULL;
    if (!all)
        return rc;
    if ((rc = rd_coll_allgather_bytes(c, &mine, sizeof(mine), all)) == RD_OK &&
        (rc = rd_api_split_group(all, c->group, color, &g)) == RD_OK) {
        /* Every rank takes part in the context agreement, MPI_UNDEFINED too. */
        rc = rd_api_comm_create_from(c, g, out);
        rd_group_release(g);
    }
    free(all);
    return rc;
}

/* MPI initialized, newcomm not NULL, comm an intracommunicator unless
 * inter_ok. */
static int check_split(MPI_Comm comm, MPI_Comm *newcomm, rd_comm_t **c, int inter_ok,
                       const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, c, fn)) || (err = rd_api_check_newcomm(*c, newcomm, fn)) ||
        (!inter_ok && (err = rd_api_check_intra(*c, fn))))
        return err;
    return MPI_SUCCESS;
}

/* Splits c and hands this rank's part to *newcomm. With whole_is_null, a
 * part that is all of c gives MPI_COMM_NULL: every member sees the same
 * sizes, so all of them drop it or none. */
static int split_out(rd_comm_t *c, int color, int key, int whole_is_null, MPI_Comm *newcomm,
                     const char *fn)
{
    rd_comm_t *nc;
    rd_api_lock();
    int rc = c->rgroup ? rd_api_comm_split_inter(c, color, key, &nc) : split(c, color, key, &nc);
    if (rc == RD_OK && nc && whole_is_null && nc->size == c->size) {
        rd_comm_release(nc);
        nc = NULL;
    }
    rd_api_unlock();
    return rd_api_comm_out(c, rc, nc, newcomm, fn);
}

RD_WEAK_ALIAS(MPI_Comm_split)
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_split";
    rd_comm_t *c;
    int err;
    if ((err = check_split(comm, newcomm, &c, 1, fn)))
        return err;
    if (color < 0 && color != MPI_UNDEFINED)
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            "invalid color %d: colors are >= 0 or MPI_UNDEFINED", color);
    return split_out(c, color, key, 0, newcomm, fn);
}

/* MPI_COMM_TYPE_SHARED: the ranks of my node, named by the lowest job rank
 * on it. MPI_COMM_TYPE_HW_UNGUIDED: the same, but only if it is a strict
 * subset of the communicator (else MPI_COMM_NULL, as MPI-4.0 says).
 * MPI_COMM_TYPE_HW_GUIDED needs the mpi_hw_resource_type info key, which
 * rdmpi does not read yet: MPI_COMM_NULL. */
RD_WEAK_ALIAS(MPI_Comm_split_type)
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                         MPI_Comm *newcomm)
{
    static const char fn[] = "MPI_Comm_split_type";
    rd_comm_t *c;
    int err;
    if ((err = check_split(comm, newcomm, &c, 0, fn)))
        return err;
    int node = rd_api.boot.local_ranks ? rd_api.boot.local_ranks[0] : rd_api.boot.rank;
    int color;
    switch (split_type) {
    case MPI_UNDEFINED:
    case MPI_COMM_TYPE_HW_GUIDED:
        color = MPI_UNDEFINED;
        break;
    case MPI_COMM_TYPE_SHARED:
    case MPI_COMM_TYPE_HW_UNGUIDED:
        color = node;
        break;
    default:
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            "invalid split_type %d: use MPI_COMM_TYPE_SHARED, "
                            "MPI_COMM_TYPE_HW_GUIDED, MPI_COMM_TYPE_HW_UNGUIDED or MPI_UNDEFINED",
                            split_type);
    }
    return split_out(c, color, key, split_type == MPI_COMM_TYPE_HW_UNGUIDED, newcomm, fn);
}


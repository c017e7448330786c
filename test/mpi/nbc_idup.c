/*
 * nbc_idup: MPI_Comm_idup.
 *  - idup of COMM_WORLD and of a split, both pending together with an
 *    Ibcast on the parent, and a blocking MPI_Comm_dup made while they are
 *    in flight; completed in different orders;
 *  - every new communicator is congruent to its parent, carries a copied
 *    attribute, and is isolated: the same tag on all of them (and on the
 *    parent) never crosses over, for p2p and for NBCs;
 *  - many idups in a row (the context ids do not run into each other).
 */
#include "mtest.h"

#include <stdlib.h>

static int copied;

static int copy_fn(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
    (void)c;
    (void)key;
    (void)extra;
    *(void **)out = in;
    *flag = 1;
    copied++;
    return MPI_SUCCESS;
}

/* A ring exchange with tag 7 on every communicator at once, posted in
 * opposite orders: each must deliver its own value. */
static void check_isolated(MPI_Comm *comms, int nc)
{
    MPI_Request *r = MTest_Malloc(sizeof(MPI_Request) * 2 * (size_t)nc);
    int *in = MTest_Malloc(sizeof(int) * (size_t)nc), *out = MTest_Malloc(sizeof(int) * (size_t)nc);
    for (int k = nc - 1; k >= 0; k--) {
        int me, n;
        MPI_Comm_rank(comms[k], &me);
        MPI_Comm_size(comms[k], &n);
        out[k] = 1000 * k + me;
        MT_OK(MPI_Irecv(&in[k], 1, MPI_INT, (me + n - 1) % n, 7, comms[k], &r[k]));
    }
    for (int k = 0; k < nc; k++) {
        int me, n;
        MPI_Comm_rank(comms[k], &me);
        MPI_Comm_size(comms[k], &n);
        MT_OK(MPI_Isend(&out[k], 1, MPI_INT, (me + 1) % n, 7, comms[k], &r[nc + k]));
    }
    MT_OK(MPI_Waitall(2 * nc, r, MPI_STATUSES_IGNORE));
    for (int k = 0; k < nc; k++) {
        int me, n;
        MPI_Comm_rank(comms[k], &me);
        MPI_Comm_size(comms[k], &n);
        MT_CHECK(in[k] == 1000 * k + (me + n - 1) % n, "comm %d: got %d", k, in[k]);
    }
    /* The same NBC on all of them at once. */
    for (int k = 0; k < nc; k++) {
        out[k] = 50 + k;
        MT_OK(MPI_Iallreduce(&out[k], &in[k], 1, MPI_INT, MPI_MAX, comms[k], &r[k]));
    }
    MT_OK(MPI_Waitall(nc, r, MPI_STATUSES_IGNORE));
    for (int k = 0; k < nc; k++)
        MT_CHECK(in[k] == 50 + k, "comm %d: allreduce %d", k, in[k]);
    free(r);
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm split, d1, d2, d3, bdup;
    int key, result;
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, MTest_rank % 2, MTest_size - MTest_rank, &split));
    MT_OK(MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    MT_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &copied));

    for (int rep = 0; rep < 4; rep++) {
        MPI_Request r[4];
        int v = MTest_rank == 0 ? 99 + rep : 0;
        copied = 0;
        MT_OK(MPI_Comm_idup(MPI_COMM_WORLD, &d1, &r[0]));
        MT_OK(MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[1]));
        MT_OK(MPI_Comm_idup(split, &d2, &r[2]));
        /* a blocking constructor while the idups are pending */
        MT_OK(MPI_Comm_dup(split, &bdup));
        MT_OK(MPI_Comm_idup(split, &d3, &r[3]));
        if ((rep + MTest_rank) % 2) {
            MT_OK(MPI_Waitall(4, r, MPI_STATUSES_IGNORE));
        } else {
            for (int k = 3; k >= 0; k--)
                MT_OK(MPI_Wait(&r[k], MPI_STATUS_IGNORE));
        }
        MT_CHECK(v == 99 + rep, "Ibcast next to idup gave %d", v);
        MT_CHECK(copied == 1, "attribute copied %d times", copied);
        MT_OK(MPI_Comm_compare(d1, MPI_COMM_WORLD, &result));
        MT_CHECK(result == MPI_CONGRUENT, "idup of world: compare %d", result);
        MT_OK(MPI_Comm_compare(d2, split, &result));
        MT_CHECK(result == MPI_CONGRUENT, "idup of split: compare %d", result);
        void *val;
        int flag;
        MT_OK(MPI_Comm_get_attr(d1, key, &val, &flag));
        MT_CHECK(flag && val == &copied, "attribute not on the idup");
        MPI_Comm all[6] = { MPI_COMM_WORLD, d1, split, d2, bdup, d3 };
        check_isolated(all, 6);
        MT_OK(MPI_Comm_free(&d1));
        MT_OK(MPI_Comm_free(&d2));
        MT_OK(MPI_Comm_free(&d3));
        MT_OK(MPI_Comm_free(&bdup));
    }

    /* Many in flight at once. */
    enum { MANY = 12 };
    MPI_Comm many[MANY];
    MPI_Request r[MANY];
    for (int k = 0; k < MANY; k++)
        MT_OK(MPI_Comm_idup(k % 2 ? split : MPI_COMM_WORLD, &many[k], &r[k]));
    MT_OK(MPI_Waitall(MANY, r, MPI_STATUSES_IGNORE));
    check_isolated(many, MANY);
    for (int k = 0; k < MANY; k++)
        MT_OK(MPI_Comm_free(&many[k]));

    MT_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, key));
    MT_OK(MPI_Comm_free_keyval(&key));
    MT_OK(MPI_Comm_free(&split));
    return MTest_Finalize();
}

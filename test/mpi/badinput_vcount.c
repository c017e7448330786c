/*
 * badinput_vcount: the collectives whose buffers are counts and
 * displacements per rank (v and w forms: blocking, nonblocking, persistent
 * and large-count) and those with one block per rank refuse a block that a
 * buffer cannot address, with MPI_ERRORS_RETURN, instead of letting
 * count x extent or displacement x extent wrap: 16 elements of a 2^60-byte
 * type per block is MPI_ERR_COUNT; one element at 16 extents of 2^60 bytes,
 * or at a byte displacement near 2^63, is MPI_ERR_ARG; 3 blocks of 2^61
 * bytes per rank on two ranks or more is MPI_ERR_COUNT. Every rank passes
 * the bad argument (the rooted ones run on MPI_COMM_SELF, where the root is
 * every rank), nothing moves, and the ranks go on communicating.
 */
#include "err_common.h"

#include <stdint.h>
#include <stdlib.h>

#define NMAX 64

static int n;                          /* ranks of MPI_COMM_WORLD */
static int counts[NMAX], displs[NMAX], zeros[NMAX];
static MPI_Count ccounts[NMAX], cones[NMAX];
static MPI_Aint cdispls[NMAX], czeros[NMAX], cfar[NMAX];
static MPI_Datatype types[NMAX];
static char sbuf[64], rbuf[64];

static void fill(MPI_Datatype t, int count, int displ)
{
    for (int i = 0; i < NMAX; i++) {
        counts[i] = count;
        ccounts[i] = count;
        displs[i] = displ;
        cdispls[i] = displ;
        cones[i] = 1;
        zeros[i] = 0;
        czeros[i] = 0;
        cfar[i] = PTRDIFF_MAX - 16;
        types[i] = t;
    }
}

/* A nonblocking or persistent call must be refused before it makes a
 * request. */
static void refused_req(int rc, MPI_Request *r, int cls, const char *what)
{
    MT_ERRCLASS(rc, cls, what);
    MT_CHECK(*r == MPI_REQUEST_NULL, "%s: a refused call returned a request", what);
    *r = MPI_REQUEST_NULL;
}

/* A persistent collective made from arguments with a bad block is refused
 * at the latest when started. */
static void refused_start(int rc, MPI_Request *r, int cls, const char *what)
{
    if (rc == MPI_SUCCESS) {
        rc = MPI_Start(r);
        MPI_Request_free(r);
    }
    MT_ERRCLASS(rc, cls, what);
    *r = MPI_REQUEST_NULL;
}

/* v and w forms with every block of counts[i] elements of t at displs[i]
 * (extents; bytes for w): class cls. */
static void v_forms(MPI_Datatype t, int cls, const char *why)
{
    MPI_Comm w = MPI_COMM_WORLD, self = MPI_COMM_SELF;
    MPI_Request r = MPI_REQUEST_NULL;
    char what[128];
#define V(call, name) (snprintf(what, sizeof(what), "%s: %s", name, why), MT_ERRCLASS(call, cls, what))
#define VR(call, name) (snprintf(what, sizeof(what), "%s: %s", name, why), refused_req(call, &r, cls, what))
#define VP(call, name) (snprintf(what, sizeof(what), "%s: %s", name, why), refused_start(call, &r, cls, what))
    V(MPI_Allgatherv(sbuf, 0, MPI_INT, rbuf, counts, displs, t, w), "Allgatherv");
    VR(MPI_Iallgatherv(sbuf, 0, MPI_INT, rbuf, counts, displs, t, w, &r), "Iallgatherv");
    V(MPI_Allgatherv_c(sbuf, 0, MPI_INT, rbuf, ccounts, cdispls, t, w), "Allgatherv_c");
    VP(MPI_Allgatherv_init(sbuf, 0, MPI_INT, rbuf, counts, displs, t, w, MPI_INFO_NULL, &r),
       "Allgatherv_init");
    V(MPI_Alltoallv(sbuf, zeros, zeros, MPI_INT, rbuf, counts, displs, t, w), "Alltoallv");
    V(MPI_Alltoallv(sbuf, counts, displs, t, rbuf, zeros, zeros, MPI_INT, w),
      "Alltoallv (send side)");
    VR(MPI_Ialltoallv(sbuf, zeros, zeros, MPI_INT, rbuf, counts, displs, t, w, &r),
       "Ialltoallv");
    V(MPI_Alltoallv_c(sbuf, czeros, czeros, MPI_INT, rbuf, ccounts, cdispls, t, w),
      "Alltoallv_c");
    VP(MPI_Alltoallv_init(sbuf, zeros, zeros, MPI_INT, rbuf, counts, displs, t, w,
                          MPI_INFO_NULL, &r), "Alltoallv_init");
    V(MPI_Gatherv(sbuf, 0, MPI_INT, rbuf, counts, displs, t, 0, self), "Gatherv");
    VR(MPI_Igatherv(sbuf, 0, MPI_INT, rbuf, counts, displs, t, 0, self, &r), "Igatherv");
    V(MPI_Gatherv_c(sbuf, 0, MPI_INT, rbuf, ccounts, cdispls, t, 0, self), "Gatherv_c");
    V(MPI_Scatterv(sbuf, counts, displs, t, rbuf, 0, MPI_INT, 0, self), "Scatterv");
    VR(MPI_Iscatterv(sbuf, counts, displs, t, rbuf, 0, MPI_INT, 0, self, &r), "Iscatterv");
    VP(MPI_Scatterv_init(sbuf, counts, displs, t, rbuf, 0, MPI_INT, 0, self, MPI_INFO_NULL, &r),
       "Scatterv_init");
    if (cls == MPI_ERR_COUNT) {
        /* w: byte displacements, so only the count can overflow with int ones. */
        V(MPI_Alltoallw(sbuf, zeros, zeros, types, rbuf, counts, zeros, types, w), "Alltoallw");
        VR(MPI_Ialltoallw(sbuf, counts, zeros, types, rbuf, zeros, zeros, types, w, &r),
           "Ialltoallw");
        V(MPI_Alltoallw_c(sbuf, czeros, czeros, types, rbuf, ccounts, czeros, types, w),
          "Alltoallw_c");
        VP(MPI_Alltoallw_init(sbuf, zeros, zeros, types, rbuf, counts, zeros, types, w,
                              MPI_INFO_NULL, &r), "Alltoallw_init");
    }
#undef V
#undef VR
#undef VP
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    n = MTest_size;
    if (n > NMAX) {
        printf("SKIP: more than %d ranks\n", NMAX);
        MPI_Finalize();
        return 0;
    }
    MPI_Datatype big, spread, half;
    char what[128];
    /* 2^60 bytes in one element, one int every 2^60 bytes, 2^61 bytes. */
    MT_OK(MPI_Type_contiguous_c((MPI_Count)1 << 60, MPI_BYTE, &big));
    MT_OK(MPI_Type_commit(&big));
    MT_OK(MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)1 << 60, &spread));
    MT_OK(MPI_Type_commit(&spread));
    MT_OK(MPI_Type_contiguous_c((MPI_Count)1 << 61, MPI_BYTE, &half));
    MT_OK(MPI_Type_commit(&half));

    fill(big, 16, 0);
    v_forms(big, MPI_ERR_COUNT, "16 elements of 2^60 bytes per rank");
    fill(spread, 1, 16);
    v_forms(spread, MPI_ERR_ARG, "one int at 16 extents of 2^60 bytes");

    /* w with MPI_Aint byte displacements: a 2^60-byte block just below 2^63. */
    fill(big, 1, 0);
    MPI_Request r = MPI_REQUEST_NULL;
    MT_ERRCLASS(MPI_Ialltoallw_c(sbuf, czeros, czeros, types, rbuf, cones, cfar, types,
                                 MPI_COMM_WORLD, &r), MPI_ERR_ARG,
                "Ialltoallw_c: a block of 2^60 bytes at 2^63 - 16");
    MT_CHECK(r == MPI_REQUEST_NULL, "Ialltoallw_c: a refused call returned a request");

    /* One block per rank: 3 x 2^61 bytes fit one buffer, twice that not. */
    if (n > 1) {
        MPI_Comm w = MPI_COMM_WORLD;
        snprintf(what, sizeof(what), "%d blocks of 3 x 2^61 bytes", n);
        MT_ERRCLASS(MPI_Allgather(sbuf, 0, MPI_INT, rbuf, 3, half, w), MPI_ERR_COUNT, what);
        MT_ERRCLASS(MPI_Alltoall(sbuf, 0, MPI_INT, rbuf, 3, half, w), MPI_ERR_COUNT, what);
        MT_ERRCLASS(MPI_Alltoall(sbuf, 3, half, rbuf, 0, MPI_INT, w), MPI_ERR_COUNT, what);
        refused_req(MPI_Iallgather(sbuf, 0, MPI_INT, rbuf, 3, half, w, &r), &r, MPI_ERR_COUNT,
                    what);
        refused_req(MPI_Ialltoall(sbuf, 0, MPI_INT, rbuf, 3, half, w, &r), &r, MPI_ERR_COUNT,
                    what);
        MT_ERRCLASS(MPI_Allgather_c(sbuf, 0, MPI_INT, rbuf, 3, half, w), MPI_ERR_COUNT, what);
    }

    /* Nothing was sent: a v-collective of the right sizes works. */
    int mine = 100 + MTest_rank, *all = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        displs[i] = i, counts[i] = 1;
    MT_OK(MPI_Allgatherv(&mine, 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < n; i++)
        MT_CHECK(all[i] == 100 + i, "Allgatherv after the refused calls: block %d is %d", i,
                 all[i]);
    free(all);
    MT_OK(MPI_Type_free(&big));
    MT_OK(MPI_Type_free(&spread));
    MT_OK(MPI_Type_free(&half));
    MTest_Check_comm_works(MPI_COMM_WORLD, "overflowing v-collective blocks");
    return MTest_Finalize();
}

/*
 * Persistent collectives (MPI-4.0 section 5.13): the recorded arguments and
 * the inactive request made from them (coll_persist.c), for the entry points
 * of the int forms (coll_persist.c) and the large-count forms
 * (coll_persist_c.c), and what MPI_Start needs.
 */
#ifndef RD_API_COLL_PERSIST_H
#define RD_API_COLL_PERSIST_H

#include "api/api.h"

enum rd_api_pcoll_kind {
    RD_PC_BARRIER,
    RD_PC_BCAST,
    RD_PC_GATHER,
    RD_PC_GATHERV,
    RD_PC_SCATTER,
    RD_PC_SCATTERV,
    RD_PC_ALLGATHER,
    RD_PC_ALLGATHERV,
    RD_PC_ALLTOALL,
    RD_PC_ALLTOALLV,
    RD_PC_ALLTOALLW,
    RD_PC_REDUCE,
    RD_PC_ALLREDUCE,
    RD_PC_REDSCAT,
    RD_PC_REDSCAT_BLOCK,
    RD_PC_SCAN,
    RD_PC_EXSCAN,
    RD_PC_NB_ALLGATHER,
    RD_PC_NB_ALLGATHERV,
    RD_PC_NB_ALLTOALL,
    RD_PC_NB_ALLTOALLV,
    RD_PC_NB_ALLTOALLW,
};

/* The arguments of one persistent collective. The reductions keep their
 * datatype and count in rtype and rcount; bcast its buffer in rbuf. Arrays
 * (int counts and displacements, MPI_Aint byte displacements for the
 * neighbourhood alltoallw, datatypes) are NULL where unused. */
typedef struct rd_api_pcoll {
    int kind;
    MPI_Comm comm;
    const void *sbuf;
    void *rbuf;
    int scount, rcount;
    MPI_Datatype stype, rtype;
    MPI_Op op;
    int root;
    const void *scounts, *sdispls, *stypes;
    const void *rcounts, *rdispls, *rtypes;
    /* Set by the init call: the lengths of the arrays, and which of stype,
     * rtype and op it holds a reference on. */
    int ns, nr;
    unsigned char held_stype, held_rtype, held_op;
} rd_api_pcoll_t;

/* What a _c form was given beyond rd_api_pcoll_t: its counts and its int-sized
 * displacements (the neighbourhood alltoallw's byte displacements are
 * MPI_Aint in both forms and go straight into rd_api_pcoll_t). */
typedef struct rd_api_pcoll_wide {
    MPI_Count scount, rcount;
    const MPI_Count *scounts, *sdispls, *rcounts, *rdispls;
} rd_api_pcoll_wide_t;

/* Checks the arguments a kind uses (those that need no data: the buffers
 * are checked by each start) and makes the inactive request in *request;
 * the arrays are copied. Returns MPI_SUCCESS or the error handler's code. */
int rd_api_pcoll_init(rd_api_pcoll_t *a, MPI_Info info, MPI_Request *request, const char *fn);
/* The same for a _c form: w's counts and displacements are narrowed to int
 * into a (MPI_ERR_COUNT beyond) first. */
int rd_api_pcoll_init_c(rd_api_pcoll_t *a, const rd_api_pcoll_wide_t *w, MPI_Info info,
                        MPI_Request *request, const char *fn);

/* Lock held on entry and exit (released while the collective starts).
 * Activates p, a request of kind RD_REQ_PERSIST_COLL: starts the
 * nonblocking collective it records, whose request becomes p->inner.
 * Returns MPI_SUCCESS or the error handler's code (MPI_ERR_REQUEST if p is
 * already active). */
int rd_api_pcoll_start(rd_request_t *p, const char *fn);
/* Lock held. Drops the references p's record holds on its datatypes and
 * operation (MPI_Request_free, before the request itself is freed). */
void rd_api_pcoll_free(rd_request_t *p);

#endif

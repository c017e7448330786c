/*
 * Collective algorithms written once for the blocking and the nonblocking
 * form. An algorithm gives its messages and local copies, round by round, to
 * a step sink: the blocking form runs them as they come (rd_coll_run_t
 * below), a schedule records them for the progress engine (nbc.c, through
 * the rd_nbc_* builders of nbc.h). The two share the algorithm's steps
 * rather than one driver so that the blocking path stays as fast as it was:
 * its requests live on the caller's stack, and no schedule, pooled request
 * or progress hook comes between a blocking collective and its messages.
 *
 * What both sinks guarantee, and so all an algorithm may assume: the
 * messages of a round are posted in the order given and complete in any
 * order; a round ends at a fence, after all its messages have completed; a
 * copy runs no earlier than the messages given before it were posted and no
 * later than the end of its round, so it must not touch a buffer that a
 * message of its round reads or writes. After a failure the remaining steps
 * are skipped and the first error is reported. Private to src/coll.
 */
#ifndef RD_COLL_COLL_STEPS_H
#define RD_COLL_COLL_STEPS_H

#include <stddef.h>

#include "core/comm.h"
#include "core/datatype.h"
#include "core/request.h"

typedef struct rd_coll_steps rd_coll_steps_t;

typedef struct rd_coll_steps_ops {
    void (*send)(rd_coll_steps_t *p, const void *buf, size_t count, rd_datatype_t *dt, int peer);
    void (*recv)(rd_coll_steps_t *p, void *buf, size_t count, rd_datatype_t *dt, int peer);
    /* the packed bytes of the smaller of the two, as rd_coll_copy */
    void (*copy)(rd_coll_steps_t *p, const void *src, size_t scount, rd_datatype_t *sdt,
                 void *dst, size_t dcount, rd_datatype_t *ddt);
    void (*fence)(rd_coll_steps_t *p);
} rd_coll_steps_ops_t;

struct rd_coll_steps {
    const rd_coll_steps_ops_t *ops;
    rd_comm_t *comm;           /* peers are ranks of comm */
};

/* ---- the blocking sink ---- */

/* Messages in flight at once on the caller's stack; more come from the
 * request pool. */
#define RD_COLL_RUN_LOCAL 4

typedef struct rd_coll_run {
    rd_coll_steps_t steps;
    int tag;
    int err;                   /* first failure: later steps are skipped */
    int n, cap;                /* the current round's requests */
    rd_request_t **reqs;
    rd_request_t *reqs_in[RD_COLL_RUN_LOCAL];
    rd_request_t local[RD_COLL_RUN_LOCAL];
} rd_coll_run_t;

/* A sink that runs steps on c's collective context with tag; hand
 * &run->steps to the algorithm, then call rd_coll_run_end. */
void rd_coll_run_init(rd_coll_run_t *run, rd_comm_t *c, int tag);
/* Ends the last round and returns the first error (RD_OK if none). */
int rd_coll_run_end(rd_coll_run_t *run);

/* ---- algorithms ----
 * Counts are in elements of the given types. In-place buffers are
 * RD_COLL_IN_PLACE (coll.h), which equals RD_NBC_IN_PLACE (nbc.h). */

/* Binomial tree from root: a rank receives from its parent (its rank
 * relative to root without the lowest set bit), then sends to its children,
 * farthest first. */
void rd_coll_steps_bcast(rd_coll_steps_t *p, void *buf, size_t count, rd_datatype_t *dt,
                         int root);
/* Dissemination: ceil(log2 n) rounds of one zero-byte message each way. */
void rd_coll_steps_barrier(rd_coll_steps_t *p);
/* Linear: the root exchanges with every other rank directly, in one round.
 * rcounts / rdispls (scatterv: scounts / sdispls) are per rank, the
 * displacements in extents of the type; NULL means every rank has rcount
 * (scount) elements at rank * count * extent. Empty blocks send nothing. */
void rd_coll_steps_gatherv(rd_coll_steps_t *p, const void *sbuf, size_t scount,
                           rd_datatype_t *sdt, void *rbuf, const int *rcounts,
                           const int *rdispls, size_t rcount, rd_datatype_t *rdt, int root);
void rd_coll_steps_scatterv(rd_coll_steps_t *p, const void *sbuf, const int *scounts,
                            const int *sdispls, size_t scount, rd_datatype_t *sdt, void *rbuf,
                            size_t rcount, rd_datatype_t *rdt, int root);

#endif

/*
 * Collective algorithms written once for the blocking and the nonblocking
 * form. An algorithm gives its messages and local steps, round by round, to
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
 * copy or reduction runs after the messages given before it in its round
 * have completed (so it may use what they received) and before the round
 * ends. The round's later messages may be posted before it runs, so it must
 * not touch their buffers, and what it computes is sent in a later round. A
 * temporary lives until the collective ends. After a failure the remaining
 * steps are skipped and the first error is reported. Private to src/coll.
 */
#ifndef RD_COLL_COLL_STEPS_H
#define RD_COLL_COLL_STEPS_H

#include <stddef.h>

#include "core/comm.h"
#include "core/datatype.h"
#include "core/op.h"
#include "core/request.h"

typedef struct rd_coll_steps rd_coll_steps_t;

typedef struct rd_coll_steps_ops {
    void (*send)(rd_coll_steps_t *p, const void *buf, size_t count, rd_datatype_t *dt, int peer);
    void (*recv)(rd_coll_steps_t *p, void *buf, size_t count, rd_datatype_t *dt, int peer);
    /* the packed bytes of the smaller of the two, as rd_coll_copy, after the
     * messages given before it in its round */
    void (*copy)(rd_coll_steps_t *p, const void *src, size_t scount, rd_datatype_t *sdt,
                 void *dst, size_t dcount, rd_datatype_t *ddt);
    /* inout = in op inout (rd_op_apply), after the messages given before it
     * in its round */
    void (*reduce)(rd_coll_steps_t *p, const void *in, void *inout, size_t count,
                   rd_datatype_t *dt, const rd_op_t *op);
    void (*fence)(rd_coll_steps_t *p);
    /* Room for count elements of dt in dt's layout until the collective
     * ends; NULL on failure, which the sink reports. */
    void *(*tmp)(rd_coll_steps_t *p, size_t count, rd_datatype_t *dt);
} rd_coll_steps_ops_t;

struct rd_coll_steps {
    const rd_coll_steps_ops_t *ops;
    rd_comm_t *comm;           /* peers are ranks of comm */
};

/* ---- the blocking sink ---- */

/* Messages in flight at once on the caller's stack; more come from the
 * request pool. */
#define RD_COLL_RUN_LOCAL 4
/* Temporaries a blocking run holds, and the size up to which each lives on
 * the caller's stack (larger ones come from the scratch cache). */
#define RD_COLL_RUN_TMPS 2
#define RD_COLL_RUN_TMP_STACK 1024

typedef struct rd_coll_run {
    rd_coll_steps_t steps;
    int tag;
    int err;                   /* first failure: later steps are skipped */
    int trunc;                 /* a receive was truncated: later steps run, sends
                                * padded (rd_coll_trunc in coll_util.h) */
    void **pads;               /* the padded copies, freed at the end */
    int npads;
    int n, cap;                /* the current round's requests */
    rd_request_t **reqs;
    rd_request_t *reqs_in[RD_COLL_RUN_LOCAL];
    rd_request_t local[RD_COLL_RUN_LOCAL];
    int ntmps;
    void *tmp_mem[RD_COLL_RUN_TMPS];   /* from the scratch cache, or NULL */
    union {
        max_align_t align;
        char b[RD_COLL_RUN_TMP_STACK];
    } tmp_stack[RD_COLL_RUN_TMPS];
} rd_coll_run_t;

/* A sink that runs steps on c's collective context with tag; hand
 * &run->steps to the algorithm, then call rd_coll_run_end. */
void rd_coll_run_init(rd_coll_run_t *run, rd_comm_t *c, int tag);
/* Ends the last round and returns the first error (RD_OK if none; RD_ETRUNC
 * if a receive was truncated and nothing else failed). */
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
/* Binomial tree towards root, operands combined in rank order: towards root
 * when op commutes, else towards rank 0 (every subtree a run of consecutive
 * ranks) and one message from 0 to root. The running result stays in the
 * send buffer until the first child's data arrive; those are received into
 * the accumulator (the root's receive buffer when it can be) and the send
 * buffer combined in, so a leaf sends its data as they are. */
void rd_coll_steps_reduce(rd_coll_steps_t *p, const void *sbuf, void *rbuf, size_t count,
                          rd_datatype_t *dt, const rd_op_t *op, int root);
/* Inclusive (exclusive when excl: rank 0's receive buffer stays untouched)
 * prefix reduction by recursive doubling. */
void rd_coll_steps_scan(rd_coll_steps_t *p, const void *sbuf, void *rbuf, size_t count,
                        rd_datatype_t *dt, const rd_op_t *op, int excl);

/* Allreduce state shared by the recursive doubling below and the blocking
 * Rabenseifner allreduce (coll_reduce.c), which folds in and out the same
 * way. The running result lives in rbuf (acc == rbuf) unless a
 * non-commutative combine swapped it into the temporary; other receives the
 * peers' data and is set up when first needed. Until the first combine this
 * rank's data are only in src (fresh): the first exchange then receives
 * straight into rbuf and combines src into it, so src is never copied. */
typedef struct rd_coll_ar {
    const char *src;
    char *rbuf, *acc, *other;
    int fresh;
    size_t count;
    rd_datatype_t *dt;
    const rd_op_t *op;
} rd_coll_ar_t;

void rd_coll_ar_init(rd_coll_ar_t *s, const void *sbuf, void *rbuf, size_t count,
                     rd_datatype_t *dt, const rd_op_t *op);
/* Where this rank's running result is now. */
const char *rd_coll_ar_data(const rd_coll_ar_t *s);
/* s->other, set up from p's temporaries on first use (NULL on failure). */
char *rd_coll_ar_other(rd_coll_steps_t *p, rd_coll_ar_t *s);
/* Rank of new rank nr after folding: the first 2 * rem ranks pair up and
 * the odd one of each pair carries on. */
static inline int rd_coll_ar_real_rank(int nr, int rem)
{
    return nr < rem ? nr * 2 + 1 : nr + rem;
}
/* Folds the first 2 * rem ranks pairwise into the odd ones; returns this
 * rank's rank among the remaining power of two, or -1 if it sits out. */
int rd_coll_steps_ar_fold_in(rd_coll_steps_t *p, rd_coll_ar_t *s, int rem);
/* The inverse: the odd ones send the result back into the even ones'
 * receive buffers; then the result is moved into rbuf if it is elsewhere. */
void rd_coll_steps_ar_fold_out(rd_coll_steps_t *p, rd_coll_ar_t *s, int rem);
/* Recursive doubling, any n (the ranks beyond a power of two fold into their
 * neighbours first); operands combined in rank order. */
void rd_coll_steps_allreduce(rd_coll_steps_t *p, const void *sbuf, void *rbuf, size_t count,
                             rd_datatype_t *dt, const rd_op_t *op);

#endif

/*
 * Nonblocking collectives as schedules advanced by the progress engine (no
 * helper thread).
 *
 * A schedule is a list of steps cut into rounds by fences. Starting a round
 * posts all of its sends and receives at once (p2p on the communicator's
 * collective context); when every one of them has completed, the round's
 * local steps (copies, reductions, callbacks, waits) run in order and the
 * next round starts. A wait step holds its round (and so the schedule) until
 * its poll function reports a condition met, e.g. a stamp in a peer's shared
 * area (the node-local MPI_Ibcast of coll_shm.c); it is polled again at each
 * progress call, so a schedule never blocks the caller. The whole schedule
 * is built when the MPI_I* call is made, so the caller's count and
 * displacement arrays are not needed afterwards; a callback may append
 * further steps (used by the context-id agreement of MPI_Comm_idup in
 * coll/ctxid.c). A progress hook, active only while some schedule is
 * (rd_progress_hook_*), walks the active schedules; the last round's
 * completion completes the user's request through rd_req_complete.
 *
 * Tags: every schedule gets tag RD_NBC_TAG_BASE + (n mod RD_NBC_TAG_SPAN),
 * where n counts the schedules started on the communicator. Collectives are
 * started in the same order by every member, so both ends agree on n, and
 * concurrent schedules on one communicator never match each other's
 * messages. The range lies above the small fixed tags of the blocking
 * collectives (src/coll/coll.h). Within one schedule, two messages between
 * the same pair of ranks are told apart by p2p's non-overtaking order.
 *
 * Builders below src/api know no MPI names: "in place" is RD_NBC_IN_PLACE.
 * On an intercommunicator the builders below run the intercommunicator
 * algorithms (coll_inter.h), whose roots and counts follow its rules.
 */
#ifndef RD_COLL_NBC_H
#define RD_COLL_NBC_H

#include <stddef.h>

#include "core/comm.h"
#include "core/datatype.h"
#include "core/op.h"
#include "core/request.h"

/* Above RD_COLL_TAG_NBC_BASE (coll.h), which bounds the blocking tags. */
#define RD_NBC_TAG_BASE (1 << 20)
/* Schedules on one communicator that may be in flight at once. */
#define RD_NBC_TAG_SPAN (1 << 20)

/* The API layer passes this for MPI_IN_PLACE. */
#define RD_NBC_IN_PLACE ((void *)-1)

typedef struct rd_nbc rd_nbc_t;

/* A local step calling fn(s, arg) after its round's messages completed;
 * returns an internal status (anything but RD_OK fails the schedule). */
typedef int (*rd_nbc_fn)(rd_nbc_t *s, void *arg);

/* A new empty schedule on c (takes a reference on c and the next tag of c).
 * NULL on ENOMEM. */
rd_nbc_t *rd_nbc_new(rd_comm_t *c);

/* Persistent collectives (MPI-4.0 section 5.13) match in the order of their
 * initialisation, whatever the order of their starts: the init takes the
 * next tag of c (rd_nbc_reserve_tag: -1 on ENOMEM), and before each start
 * rd_nbc_use_tag(c, tag) makes the next rd_nbc_new(c) of the calling thread
 * take that tag instead of the next one (tag < 0 withdraws it). Such a
 * schedule keeps off the node-local shared-memory path, whose sequence
 * numbers follow the order of the starts. */
int rd_nbc_reserve_tag(rd_comm_t *c);
void rd_nbc_use_tag(const rd_comm_t *c, int tag);

/* Step constructors. They never fail: an allocation failure is remembered
 * and reported by rd_nbc_start. Datatypes are referenced until the schedule
 * ends. peer is a rank of the schedule's communicator. */
void rd_nbc_send(rd_nbc_t *s, const void *buf, size_t count, rd_datatype_t *dt, int peer);
void rd_nbc_recv(rd_nbc_t *s, void *buf, size_t count, rd_datatype_t *dt, int peer);
/* Copies the packed form of (src, scount, sdt) into (dst, dcount, ddt);
 * copies min of both sizes. */
void rd_nbc_copy(rd_nbc_t *s, const void *src, size_t scount, rd_datatype_t *sdt, void *dst,
                 size_t dcount, rd_datatype_t *ddt);
/* inout = in op inout (count elements of dt, both laid out as dt says). */
void rd_nbc_reduce(rd_nbc_t *s, const void *in, void *inout, size_t count, rd_datatype_t *dt,
                   const rd_op_t *op);
void rd_nbc_call(rd_nbc_t *s, rd_nbc_fn fn, void *arg);

/* A wait step's condition: returns 1 when met (the schedule moves on), 0
 * when not yet (polled again at the next progress call), or a negative
 * internal status, which fails the schedule. It must not block nor call the
 * progress engine. */
typedef int (*rd_nbc_poll_fn)(rd_nbc_t *s, void *arg);
/* A step that holds its round until poll(s, arg) returns 1; dt (may be
 * NULL) is referenced until the schedule ends, for a poll that reads or
 * writes data of that type. */
void rd_nbc_wait(rd_nbc_t *s, rd_nbc_poll_fn poll, void *arg, rd_datatype_t *dt);
/* Ends the current round. */
void rd_nbc_fence(rd_nbc_t *s);
/* Scratch memory freed with the schedule (NULL on ENOMEM, also remembered). */
void *rd_nbc_tmp(rd_nbc_t *s, size_t len);
/* Scratch for count elements of dt laid out as dt describes; the returned
 * pointer is the buffer argument to use with (count, dt). */
void *rd_nbc_tmp_typed(rd_nbc_t *s, size_t count, const rd_datatype_t *dt);
/* The schedule's communicator. */
rd_comm_t *rd_nbc_comm(const rd_nbc_t *s);
/* On an intercommunicator, a step sink whose messages go to ranks of the
 * local group over its own communicator (coll_inter.h), its other steps
 * into s: how the local group's algorithms (coll_steps.h) join s. */
struct rd_coll_steps *rd_nbc_local_sink(rd_nbc_t *s);
/* Registers fn(arg) to run when s is freed, whether it ended, failed or
 * never started (releases what the caller holds for the schedule). One per
 * schedule. */
void rd_nbc_on_free(rd_nbc_t *s, void (*fn)(void *), void *arg);

/* Starts s: posts the first round and hands s to the progress hook; req (kind
 * RD_REQ_NBC) completes when s ends, with the first error any step saw.
 * Returns RD_OK, or a status if the schedule could not be built or started
 * (s is freed and req is left untouched). */
int rd_nbc_start(rd_nbc_t *s, rd_request_t *req);
/* Frees a schedule that was never started. */
void rd_nbc_free(rd_nbc_t *s);
/* Frees the pool of schedules kept for reuse and the per-communicator
 * counters (MPI_Finalize, after every schedule ended). */
void rd_nbc_fini(void);

/* ---- algorithm builders: append one collective's rounds to s ----
 * Counts are in elements of the given types; displacements of the v-variants
 * in extents of the type. Root-only and send-side arguments are ignored where
 * MPI ignores them. The broadcast's tree, the barrier, the linear
 * gather(v) / scatter(v), the reduce's tree, the allreduce's recursive
 * doubling and the scan are the algorithms the blocking collectives run too
 * (coll_steps.h). */

/* Node-local: through the ranks' shared areas (rd_coll_shm_ibcast) up to
 * RDMPI_IBCAST_SHM_MAX bytes, unless the tag was fixed (rd_nbc_use_tag);
 * else a binomial tree. */
void rd_nbc_bcast(rd_nbc_t *s, void *buf, size_t count, rd_datatype_t *dt, int root);
/* Dissemination: ceil(log2 n) rounds. */
void rd_nbc_barrier(rd_nbc_t *s);
/* Binomial tree towards root (towards 0 and then to root for non-commutative ops). */
void rd_nbc_reduce_to(rd_nbc_t *s, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                      const rd_op_t *op, int root);
/* Recursive doubling, any n (the ranks beyond a power of two fold into their
 * neighbours first); operand order kept for non-commutative ops. */
void rd_nbc_allreduce(rd_nbc_t *s, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                      const rd_op_t *op);
/* Inclusive (exclusive when excl) prefix reduction: recursive doubling. */
void rd_nbc_scan(rd_nbc_t *s, const void *sbuf, void *rbuf, size_t count, rd_datatype_t *dt,
                 const rd_op_t *op, int excl);
/* Linear: the root exchanges with every other rank directly. scounts /
 * sdispls (gatherv: rcounts / rdispls) are per rank; NULL means every rank
 * has scount (rcount) elements at rank * count * extent. Empty blocks send
 * nothing. */
void rd_nbc_gatherv(rd_nbc_t *s, const void *sbuf, size_t scount, rd_datatype_t *sdt, void *rbuf,
                    const int *rcounts, const int *rdispls, size_t rcount, rd_datatype_t *rdt,
                    int root);
void rd_nbc_scatterv(rd_nbc_t *s, const void *sbuf, const int *scounts, const int *sdispls,
                     size_t scount, rd_datatype_t *sdt, void *rbuf, size_t rcount,
                     rd_datatype_t *rdt, int root);
/* Every rank sends its block to every other rank in one round. */
void rd_nbc_allgatherv(rd_nbc_t *s, const void *sbuf, size_t scount, rd_datatype_t *sdt,
                       void *rbuf, const int *rcounts, const int *rdispls, size_t rcount,
                       rd_datatype_t *rdt);
/* One round of n - 1 sends and receives; in place: the receive buffer is
 * packed into scratch first. */
void rd_nbc_alltoallv(rd_nbc_t *s, const void *sbuf, const int *scounts, const int *sdispls,
                      size_t scount, rd_datatype_t *sdt, void *rbuf, const int *rcounts,
                      const int *rdispls, size_t rcount, rd_datatype_t *rdt);

#endif

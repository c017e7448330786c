/*
 * Context ids: how the members of a new communicator agree on one, and how
 * ids come back when communicators are freed.
 *
 * Communicator c uses c->ctx for point-to-point traffic and c->ctx + 1 for
 * its collectives: a slot. Each process keeps a mask of the slots its
 * communicators hold; a new communicator takes the lowest slot that none
 * of the processes building it holds (the OR of their masks, as MPICH's
 * mask allreduce does). Ids are unique per process, which is all matching
 * needs: two disjoint communicators may share an id. When the last
 * reference to a communicator goes, rd_coll_ctx_retire gives its slot back
 * (once no receive is posted on it any more), so ids are reused. When no
 * slot is free on every member, the constructor fails with RD_EINTERN and
 * the detail "out of context ids" on every member alike.
 *
 * Intercommunicators take two adjacent slots: ctx and ctx + 1 for
 * themselves, ctx + 2 and ctx + 3 for a hidden intracommunicator over the
 * local group (the internal collectives cannot run on an
 * intercommunicator, where every message goes to the other group); each of
 * the two communicators gives its own slot back. Both groups agree on one
 * id: each group ORs its own masks, the two leaders swap theirs and
 * broadcast the result.
 *
 * The blocking agreements are collective over the communicator they name
 * and are called with the library lock held; their waits release it
 * (p2p.h, rd_p2p_pause), so agreements of several threads of a process
 * run at once, and ctxid.c lets only one at a time offer the process's
 * mask. A communicator of one process takes its id without agreeing, from
 * the idup space. MPI_Comm_idup agrees without blocking, on ids from a
 * space of its own (RD_COLL_CTX_IDUP_BASE and up; see ctxid.c). Every
 * function returns RD_OK or a negative status.
 */
#ifndef RD_COLL_CTXID_H
#define RD_COLL_CTXID_H

#include <stdint.h>

#include "coll/nbc.h"
#include "core/comm.h"
#include "core/group.h"

/* The blocking constructors take ids below this (RD_COLL_CTX_IDUP_BASE / 2
 * communicators alive at once), MPI_Comm_idup as many from here on. */
#define RD_COLL_CTX_IDUP_BASE (1u << 14)

/* The lowest id not taken by the predefined communicators (MPI_Init). */
void rd_coll_ctx_init(uint32_t first);

/* Called with the last reference to c (core's free hook, set at init): if
 * no other communicator uses c->ctx, its slot comes back, at once or once
 * the receives still posted on it are done. */
void rd_coll_ctx_retire(rd_comm_t *c);
/* Gives back the slot of ctx, which an agreement reserved but no
 * communicator was attached to (a constructor that failed after it). */
void rd_coll_ctx_release(uint32_t ctx);

/* Agrees over c on the ids of a new intracommunicator; this process
 * reserves them if it is a member. Every rank of c calls it, also those
 * that will not be members. */
int rd_coll_ctx_agree(rd_comm_t *c, int member, uint32_t *ctx);

/* The same among the members of g only (g a subset of c's group, this
 * process in it), for MPI_Comm_create_group: a dissemination maximum with
 * messages in c's collective context tagged by tag (0 .. 2^30 - 1), so that
 * concurrent calls with different tags never match each other. */
int rd_coll_ctx_agree_group(rd_comm_t *c, const rd_group_t *g, int tag, uint32_t *ctx);

/* Agreement over both groups of intercommunicator c (local: its hidden
 * intracommunicator over the local group) on span ids (4 for a new
 * intercommunicator, 2 for an intracommunicator over both groups),
 * reserved if this process is a member. The leaders also swap n <= 2 ints:
 * mine (rank 0's values) for theirs. */
int rd_coll_ctx_agree_inter(rd_comm_t *c, rd_comm_t *local, int span, int member,
                            const int *mine, int *theirs, int n, uint32_t *ctx);

/* MPI_Intercomm_create: agreement over lc, then the leaders (rank leader of
 * lc; rank rleader of peer) swap the id and their groups' job ranks through
 * peer (with tag) and broadcast them to their groups. Reserves 4 ids. On
 * RD_OK, *rworld (malloc'd) holds the *rsize job ranks of the remote group;
 * on error it is NULL or to be freed. peer matters only at the leader. */
int rd_coll_ctx_agree_intercomm(rd_comm_t *lc, int leader, rd_comm_t *peer, int rleader,
                                int tag, uint32_t *ctx, int *rsize, int **rworld);

/* Appends to s (a schedule on newc's parent, of the same group(s)) the
 * nonblocking agreement of MPI_Comm_idup: when it completes, newc has its
 * id and is attached to p2p. On an intercommunicator the agreement spans
 * both groups and reserves 4 ids; newc's local communicator (set with
 * rd_coll_inter_init) gets ctx + 2 and is attached too. RD_ENOMEM if the
 * steps cannot be built. */
int rd_coll_ctx_idup(rd_nbc_t *s, rd_comm_t *newc);

#endif

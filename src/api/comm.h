/*
 * What the communicator entry points (comm.c, comm_split.c, intercomm.c)
 * share: building a communicator object once its context id is agreed
 * (coll/ctxid.h), the state rd_comm_t has no field for, and the argument
 * checks they have in common. Lock held unless a function says otherwise.
 */
#ifndef RD_API_COMM_H
#define RD_API_COMM_H

#include <stdint.h>

#include "api/api.h"
#include "core/comm.h"
#include "core/group.h"

/* A communicator over g with context ctx, inheriting parent's error
 * handler. Returns an internal status. */
int rd_api_comm_build(rd_comm_t *parent, rd_group_t *g, uint32_t ctx, rd_comm_t **out);

/* An intercommunicator between local and remote with contexts ctx .. ctx + 3
 * (coll/ctxid.h), inheriting parent's error handler. */
int rd_api_comm_build_inter(rd_comm_t *parent, rd_group_t *local, rd_group_t *remote,
                            uint32_t ctx, rd_comm_t **out);
/* For MPI_Comm_idup of intercommunicator parent: an intercommunicator over
 * its groups, with a handle, whose context ids (and the attachment to p2p
 * of it and its local communicator) the agreement supplies later. */
int rd_api_comm_new_inter_pending(rd_comm_t *parent, rd_comm_t **out);
/* The hidden intracommunicator over an intercommunicator's local group. */
rd_comm_t *rd_api_comm_local(const rd_comm_t *c);

/* What each rank contributes to a split. */
typedef struct rd_split_entry {
    int color, key;
} rd_split_entry_t;

/* The members of color among the entries all[r] of the ranks r of from,
 * ordered by key then by r, as a new group; *g NULL when there are none or
 * color is MPI_UNDEFINED (comm_split.c). Returns an internal status. */
int rd_api_split_group(const rd_split_entry_t *all, const rd_group_t *from, int color,
                       rd_group_t **g);

/* MPI_Comm_split / MPI_Comm_create on intercommunicator c (comm_inter.c):
 * *out is the new intercommunicator, or NULL for a rank without one.
 * Collective over both groups; returns an internal status. */
int rd_api_comm_split_inter(rd_comm_t *c, int color, int key, rd_comm_t **out);
int rd_api_comm_create_inter(rd_comm_t *c, rd_group_t *g, rd_comm_t **out);

/* Drops the user's reference on c (a communicator whose construction
 * failed, or one being freed). Requests and schedules may hold more:
 * c goes when the last one does. */
void rd_api_comm_destroy(rd_comm_t *c);
/* The free hook of every communicator (core/comm.h), called with its last
 * reference: drops what comm.c keeps for it (intercommunicator's local
 * part, info) and gives its context id back. */
void rd_api_comm_gone(rd_comm_t *c);

/* The end of a constructor, without the lock: the error handler's code for
 * a failed status rc, else MPI_SUCCESS with *newcomm = nc's handle
 * (MPI_COMM_NULL for a NULL nc: a rank not in the new communicator). */
int rd_api_comm_out(rd_comm_t *c, int rc, rd_comm_t *nc, MPI_Comm *newcomm, const char *fn);

/* Checks without the lock: newcomm not NULL; c an intracommunicator (the
 * constructors without an intercommunicator form fail here with
 * MPI_ERR_COMM saying so). MPI_SUCCESS or the error handler's code. */
int rd_api_check_newcomm(rd_comm_t *c, MPI_Comm *newcomm, const char *fn);
int rd_api_check_intra(rd_comm_t *c, const char *fn);

#endif

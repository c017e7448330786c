/*
 * Communicators: a group, a context id that keeps their traffic apart, and
 * an error handler. The context id ctx carries point-to-point traffic and
 * ctx + 1 the communicator's collectives, so user messages and collective
 * messages never match each other.
 */
#ifndef RD_CORE_COMM_H
#define RD_CORE_COMM_H

#include <stdint.h>

#include "core/errhandler.h"
#include "core/group.h"
#include "util/list.h"

/* Bytes rd_comm_t reserves for src/coll's per-communicator state. */
#define RD_COMM_COLL_SIZE 16

typedef struct rd_attr {
    rd_list_t link;
    int keyval;
    void *value;
} rd_attr_t;

typedef struct rd_comm {
    int handle;
    int refs;
    uint32_t ctx;              /* p2p context; ctx + 1 for collectives */
    int rank;                  /* my rank in the (local) group */
    int size;                  /* size of the (local) group */
    rd_group_t *group;         /* local group */
    rd_group_t *rgroup;        /* intercommunicators: the remote group, else NULL */
    rd_errhandler_t *errh;
    /* matching queues of ctx and ctx + 1: p2p's (rd_p2p_attach), opaque here */
    struct rd_match_q *mq;
    struct rd_match_q *mq_coll;
    rd_list_t attrs;           /* rd_attr_t */
    int topo;                  /* topology kind, 0 = none */
    void *topo_data;
    char name[128];
    /* src/coll's state for this communicator (coll/coll_comm.h); zero in a
     * new communicator, never interpreted here. */
    _Alignas(8) unsigned char coll[RD_COMM_COLL_SIZE];
} rd_comm_t;

/* Job rank of rank r in the group messages go to (remote group for intercomms). */
static inline int rd_comm_world(const rd_comm_t *c, int r)
{
    return (c->rgroup ? c->rgroup : c->group)->world[r];
}
/* Size of the group messages go to. */
static inline int rd_comm_remote_size(const rd_comm_t *c)
{
    return (c->rgroup ? c->rgroup : c->group)->size;
}

/* A communicator over group g (a reference is taken) with context ctx. The
 * caller attaches the matching queues (rd_p2p_attach) and sets errh, name and
 * the handle. NULL on ENOMEM. */
rd_comm_t *rd_comm_new(rd_group_t *g, uint32_t ctx);
void rd_comm_ref(rd_comm_t *c);
/* Drops a reference; the last one frees the communicator (attributes must be
 * deleted by the caller first, since their callbacks are MPI-level). */
void rd_comm_release(rd_comm_t *c);
/* fn is called with each communicator's last reference, before it is freed:
 * the layer that gave it its context id takes the id back (set at init). */
void rd_comm_set_free_hook(void (*fn)(rd_comm_t *c));

#endif

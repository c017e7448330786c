/*
 * What src/coll keeps per communicator. It lives in the area core reserves
 * in rd_comm_t (coll[RD_COMM_COLL_SIZE], zero in a new communicator), so it
 * costs no allocation and no destructor; core never looks inside.
 */
#ifndef RD_COLL_COLL_COMM_H
#define RD_COLL_COLL_COMM_H

#include <stdint.h>

#include "core/comm.h"

typedef struct rd_coll_comm {
    uint32_t shm_seq;   /* node-local collectives so far (coll_shm.c) */
    uint32_t nbc_seq;   /* schedules started so far (nbc.c: their tags) */
    /* intercommunicators: the communicator over the local group that their
     * collectives run their local steps on (coll_inter.h); not referenced */
    rd_comm_t *local;
} rd_coll_comm_t;

_Static_assert(sizeof(rd_coll_comm_t) <= RD_COMM_COLL_SIZE, "coll's state fits its area");

static inline rd_coll_comm_t *rd_coll_comm(rd_comm_t *c)
{
    return (rd_coll_comm_t *)(void *)c->coll;
}

#endif

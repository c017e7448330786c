/* Request pool (see request.h). Requests are recycled through a free list so
 * that the fast path never calls malloc; each keeps its handle slot. */
#include "core/request.h"

#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "core/datatype.h"
#include "core/handle.h"

static rd_request_t *pool;

rd_request_t *rd_req_new(int kind)
{
    rd_request_t *r = pool;
    int handle;
    if (r) {
        pool = r->next_free;
        handle = r->handle;
    } else {
        r = malloc(sizeof(*r));
        if (!r)
            return NULL;
        handle = rd_handle_alloc(RD_OBJ_REQUEST, r);
        if (!handle) {
            free(r);
            return NULL;
        }
    }
    memset(r, 0, sizeof(*r));
    r->handle = handle;
    r->kind = (uint8_t)kind;
    return r;
}

void rd_req_init_local(rd_request_t *r, int kind)
{
    /* A compound literal: the compiler zeroes the struct with a few wide
     * stores instead of a memset call (a blocking call's fixed cost). */
    *r = (rd_request_t){ .kind = (uint8_t)kind };
}

void rd_req_free(rd_request_t *r)
{
    if (r->dt) {
        rd_dt_release(r->dt);
        r->dt = NULL;
    }
    if (r->tmp) {
        free(r->tmp);
        r->tmp = NULL;
    }
    if (r->comm_held) {
        r->comm_held = 0;
        rd_comm_release(r->comm);
    }
    if (!r->handle)
        return; /* a local request: the caller owns the memory */
    r->done = -1; /* poison: a stale handle no longer looks complete */
    r->next_free = pool;
    pool = r;
}

void rd_req_hold_comm(rd_request_t *r, rd_comm_t *c)
{
    r->comm = c;
    rd_comm_ref(c);
    r->comm_held = 1;
}

void rd_req_complete(rd_request_t *r, int err)
{
    r->error = err;
    r->done = 1;
    if (r->user_freed)
        rd_req_free(r);
}

void rd_req_fini(void)
{
    while (pool) {
        rd_request_t *r = pool;
        pool = r->next_free;
        rd_handle_free(r->handle);
        free(r);
    }
}

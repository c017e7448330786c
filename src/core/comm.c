/* Communicator objects (see comm.h). */
#include "core/comm.h"

#include <stdlib.h>

#include "core/handle.h"

rd_comm_t *rd_comm_new(rd_group_t *g, uint32_t ctx)
{
    rd_comm_t *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->refs = 1;
    c->ctx = ctx;
    c->group = g;
    rd_group_ref(g);
    c->rank = g->rank;
    c->size = g->size;
    rd_list_init(&c->attrs);
    return c;
}

static void (*free_hook)(rd_comm_t *c);

void rd_comm_set_free_hook(void (*fn)(rd_comm_t *c))
{
    free_hook = fn;
}

void rd_comm_ref(rd_comm_t *c)
{
    c->refs++;
}

void rd_comm_release(rd_comm_t *c)
{
    if (!c || --c->refs > 0)
        return;
    if (free_hook)
        free_hook(c);
    if (c->handle)
        rd_handle_free(c->handle);
    rd_group_release(c->group);
    rd_group_release(c->rgroup);
    rd_errh_release(c->errh);
    free(c->topo_data);
    free(c);
}

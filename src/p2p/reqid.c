/* The request id table (see reqid.h). */
#include "p2p/reqid.h"

#include <stdlib.h>
#include <string.h>

void rd_reqid_init(rd_reqid_tab_t *t)
{
    memset(t, 0, sizeof(*t));
}

void rd_reqid_fini(rd_reqid_tab_t *t)
{
    free(t->slot);
    memset(t, 0, sizeof(*t));
}

/* Room for one more slot: doubles the array (the first time, 64 slots). */
static int grow(rd_reqid_tab_t *t)
{
    if (t->cap >= RD_REQID_SLOTS_MAX)
        return -1;
    uint32_t cap = t->cap ? t->cap * 2 : 64;
    rd_reqid_slot_t *s = realloc(t->slot, (size_t)cap * sizeof(*s));
    if (!s)
        return -1;
    t->slot = s;
    t->cap = cap;
    return 0;
}

uint64_t rd_reqid_new(rd_reqid_tab_t *t, void *obj)
{
    uint32_t i;
    if (t->free_head) {
        i = t->free_head - 1;
        t->free_head = t->slot[i].next_free;
    } else {
        if (t->n == t->cap && grow(t) != 0)
            return 0;
        i = t->n++;
        t->slot[i].gen = 1;
    }
    t->slot[i].obj = obj;
    t->slot[i].next_free = 0;
    t->live++;
    return (uint64_t)t->slot[i].gen << 32 | (i + 1);
}

void rd_reqid_release(rd_reqid_tab_t *t, uint64_t id)
{
    uint32_t i = (uint32_t)id - 1;
    if (i >= t->n || t->slot[i].gen != (uint32_t)(id >> 32) || !t->slot[i].obj)
        return;
    t->slot[i].obj = NULL;
    t->slot[i].gen++;   /* wraps after 2^32 uses of one slot: far beyond any id's life */
    t->slot[i].next_free = t->free_head;
    t->free_head = i + 1;
    t->live--;
}

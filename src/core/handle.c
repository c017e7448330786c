/* Handle tables (see handle.h). Not thread-safe by itself: callers hold the
 * library lock when they create or free objects. */
#include "core/handle.h"

#include <stdlib.h>
#include <string.h>

#include "util/status.h"

rd_handle_table_t rd_handle_tables[RD_OBJ_MAX];

int rd_handle_builtin_set(int obj, int handle, void *ptr)
{
    uint32_t i = (uint32_t)handle & 0xff;
    rd_handle_tables[obj].builtin[i] = ptr;
    rd_handle_tables[obj].builtin_handle[i] = handle;
    return RD_OK;
}

static int grow(rd_handle_table_t *t, uint32_t need)
{
    if (need <= t->cap)
        return RD_OK;
    uint32_t cap = t->cap ? t->cap : 64;
    while (cap < need)
        cap *= 2;
    void **s = realloc(t->slot, cap * sizeof(*s));
    if (!s)
        return RD_ENOMEM;
    memset(s + t->cap, 0, (cap - t->cap) * sizeof(*s));
    t->slot = s;
    t->cap = cap;
    return RD_OK;
}

int rd_handle_reserve(int obj, uint32_t index, void *ptr)
{
    rd_handle_table_t *t = &rd_handle_tables[obj];
    if (grow(t, index + 1) != RD_OK)
        return RD_ENOMEM;
    t->slot[index] = ptr;
    if (t->n < index + 1)
        t->n = index + 1;
    return RD_OK;
}

int rd_handle_alloc(int obj, void *ptr)
{
    rd_handle_table_t *t = &rd_handle_tables[obj];
    uint32_t i;
    if (t->nfree) {
        i = t->free_idx[--t->nfree];
    } else {
        if (t->n > RD_HANDLE_INDEX_MASK || grow(t, t->n + 1) != RD_OK)
            return 0;
        i = t->n++;
    }
    t->slot[i] = ptr;
    return rd_handle_make(obj, i);
}

void rd_handle_free(int handle)
{
    if (RD_HANDLE_KIND(handle) != RD_HANDLE_KIND_DYNAMIC)
        return;
    rd_handle_table_t *t = &rd_handle_tables[RD_HANDLE_OBJ(handle)];
    uint32_t i = (uint32_t)handle & RD_HANDLE_INDEX_MASK;
    if (i >= t->n || !t->slot[i])
        return;
    t->slot[i] = NULL;
    if (t->nfree == t->free_cap) {
        uint32_t cap = t->free_cap ? 2 * t->free_cap : 64;
        uint32_t *f = realloc(t->free_idx, cap * sizeof(*f));
        if (!f)
            return; /* the slot is simply not reused */
        t->free_idx = f;
        t->free_cap = cap;
    }
    t->free_idx[t->nfree++] = i;
}

void rd_handle_fini(void)
{
    for (int o = 0; o < RD_OBJ_MAX; o++) {
        free(rd_handle_tables[o].slot);
        free(rd_handle_tables[o].free_idx);
    }
    memset(rd_handle_tables, 0, sizeof(rd_handle_tables));
}

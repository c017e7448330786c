/* Handle tables (see handle.h). Not thread-safe by itself: callers hold the
 * library lock when they create or free objects. */
#include "core/handle.h"

#include <stdlib.h>
#include <string.h>

#include "util/status.h"

#define BUILTIN_SLOTS 256

typedef struct table {
    void **slot;          /* dynamic objects */
    uint32_t n, cap;      /* slots in use (high-water mark) and capacity */
    uint32_t *free_idx;   /* stack of freed indices */
    uint32_t nfree, free_cap;
    void *builtin[BUILTIN_SLOTS];
    int builtin_handle[BUILTIN_SLOTS];
} table_t;

static table_t tables[RD_OBJ_MAX];

int rd_handle_builtin_set(int obj, int handle, void *ptr)
{
    uint32_t i = (uint32_t)handle & 0xff;
    tables[obj].builtin[i] = ptr;
    tables[obj].builtin_handle[i] = handle;
    return RD_OK;
}

static int grow(table_t *t, uint32_t need)
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
    table_t *t = &tables[obj];
    if (grow(t, index + 1) != RD_OK)
        return RD_ENOMEM;
    t->slot[index] = ptr;
    if (t->n < index + 1)
        t->n = index + 1;
    return RD_OK;
}

int rd_handle_alloc(int obj, void *ptr)
{
    table_t *t = &tables[obj];
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
    table_t *t = &tables[RD_HANDLE_OBJ(handle)];
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

void *rd_handle_get(int obj, int handle)
{
    uint32_t h = (uint32_t)handle;
    if (RD_HANDLE_OBJ(h) != (uint32_t)obj)
        return NULL;
    table_t *t = &tables[obj];
    switch (RD_HANDLE_KIND(h)) {
    case RD_HANDLE_KIND_BUILTIN: {
        uint32_t i = h & 0xff;
        return t->builtin_handle[i] == handle ? t->builtin[i] : NULL;
    }
    case RD_HANDLE_KIND_DYNAMIC: {
        uint32_t i = h & RD_HANDLE_INDEX_MASK;
        return i < t->n ? t->slot[i] : NULL;
    }
    }
    return NULL;
}

void rd_handle_fini(void)
{
    for (int o = 0; o < RD_OBJ_MAX; o++) {
        free(tables[o].slot);
        free(tables[o].free_idx);
    }
    memset(tables, 0, sizeof(tables));
}

/*
 * Handle tables: MPI handles are ints (MPICH ABI). A handle names its object
 * kind and where the object lives:
 *
 *   31 30 29    26 25                                  0
 *  +-----+--------+-------------------------------------+
 *  |kind | object |               index                 |
 *  +-----+--------+-------------------------------------+
 *   kind: 01 builtin (predefined, index = low byte), 10 dynamic (index into a
 *   growable table). Object codes follow MPICH: comm 1, group 2, datatype 3,
 *   errhandler 5, op 6, info 7, win 8, keyval 9, request 11, session 14.
 *
 * Predefined objects are registered with MPICH's exact handle values; dynamic
 * ones get 0x80000000 | obj << 26 | index. A few MPICH "predefined" datatypes
 * (MPI_FLOAT_INT ...) already use dynamic-form handles 0x8c000000..4, so the
 * datatype table reserves those indices.
 */
#ifndef RD_CORE_HANDLE_H
#define RD_CORE_HANDLE_H

#include <stdint.h>

enum rd_obj {
    RD_OBJ_COMM = 1,
    RD_OBJ_GROUP = 2,
    RD_OBJ_DATATYPE = 3,
    RD_OBJ_FILE = 4,           /* no table: only error handlers name it */
    RD_OBJ_ERRHANDLER = 5,
    RD_OBJ_OP = 6,
    RD_OBJ_INFO = 7,
    RD_OBJ_WIN = 8,
    RD_OBJ_KEYVAL = 9,
    RD_OBJ_REQUEST = 11,
    RD_OBJ_SESSION = 14,
    RD_OBJ_MAX = 16,
};

#define RD_HANDLE_KIND(h) (((uint32_t)(h)) >> 30)
#define RD_HANDLE_OBJ(h) ((((uint32_t)(h)) >> 26) & 0xf)
#define RD_HANDLE_KIND_BUILTIN 1u
#define RD_HANDLE_KIND_DYNAMIC 2u
#define RD_HANDLE_INDEX_MASK 0x03ffffffu

static inline int rd_handle_make(int obj, uint32_t index)
{
    return (int)(0x80000000u | ((uint32_t)obj << 26) | index);
}

/* Registers a predefined object under its fixed handle value. */
int rd_handle_builtin_set(int obj, int handle, void *ptr);

/* Stores ptr in the dynamic table of obj; returns its new handle, or 0 on ENOMEM. */
int rd_handle_alloc(int obj, void *ptr);
/* Reserves index in the dynamic table (before any rd_handle_alloc) for ptr. */
int rd_handle_reserve(int obj, uint32_t index, void *ptr);
/* Frees a dynamic handle (its slot is reused later). */
void rd_handle_free(int handle);

/* The tables behind the handles; only rd_handle_get reads them directly. */
#define RD_HANDLE_BUILTIN_SLOTS 256
typedef struct rd_handle_table {
    void **slot;          /* dynamic objects */
    uint32_t n, cap;      /* slots in use (high-water mark) and capacity */
    uint32_t *free_idx;   /* stack of freed indices */
    uint32_t nfree, free_cap;
    void *builtin[RD_HANDLE_BUILTIN_SLOTS];
    int builtin_handle[RD_HANDLE_BUILTIN_SLOTS];
} rd_handle_table_t;
extern rd_handle_table_t rd_handle_tables[RD_OBJ_MAX];

/* The object behind handle, or NULL when handle is not a live object of kind
 * obj. Inline: every MPI call decodes a few handles. */
static inline void *rd_handle_get(int obj, int handle)
{
    uint32_t h = (uint32_t)handle;
    if (RD_HANDLE_OBJ(h) != (uint32_t)obj)
        return (void *)0;
    const rd_handle_table_t *t = &rd_handle_tables[obj];
    if (RD_HANDLE_KIND(h) == RD_HANDLE_KIND_BUILTIN) {
        uint32_t i = h & 0xff;
        return t->builtin_handle[i] == handle ? t->builtin[i] : (void *)0;
    }
    if (RD_HANDLE_KIND(h) == RD_HANDLE_KIND_DYNAMIC) {
        uint32_t i = h & RD_HANDLE_INDEX_MASK;
        return i < t->n ? t->slot[i] : (void *)0;
    }
    return (void *)0;
}

/* Frees all tables (at MPI_Finalize). */
void rd_handle_fini(void);

#endif

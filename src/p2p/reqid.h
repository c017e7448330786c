/*
 * Request ids: the names p2p puts on the wire for its own requests (the
 * sreq/rreq fields of proto.h), so that a message that comes back names a
 * request without ever carrying its address. An id is a slot of this table
 * and the slot's generation; a slot's generation moves on when its id is
 * released, so a stale id (its request ended), an id out of range or one
 * that never was (forged, corrupted) finds nothing and the caller drops the
 * message. Lookup is an array index and a compare; a released slot is
 * reused first (LIFO), so the table grows only with the requests in flight
 * at once. No locking: p2p's callers already serialize p2p.
 *
 *  63                               32 31                                0
 *  +----------------------------------+----------------------------------+
 *  |           generation             |          slot index + 1          |
 *  +----------------------------------+----------------------------------+
 * 0 is never an id (index + 1 >= 1): "no request".
 */
#ifndef RD_P2P_REQID_H
#define RD_P2P_REQID_H

#include <stddef.h>
#include <stdint.h>

typedef struct rd_reqid_slot {
    void *obj;          /* the live object, or NULL when free */
    uint32_t gen;       /* generation of the slot's current (or next) id */
    uint32_t next_free; /* free list: index + 1 of the next free slot, 0: end */
} rd_reqid_slot_t;

typedef struct rd_reqid_tab {
    rd_reqid_slot_t *slot;
    uint32_t n, cap;         /* slots used at least once, allocated */
    uint32_t free_head;      /* index + 1 of the first free slot, 0: none */
    uint32_t live;           /* ids handed out and not released */
} rd_reqid_tab_t;

/* Most slots a table has (ids in flight at once). */
#define RD_REQID_SLOTS_MAX (1u << 30)

/* Zeroed table; rd_reqid_fini frees it. */
void rd_reqid_init(rd_reqid_tab_t *t);
void rd_reqid_fini(rd_reqid_tab_t *t);

/* A new id naming obj (not NULL), or 0 when the table cannot grow. */
uint64_t rd_reqid_new(rd_reqid_tab_t *t, void *obj);

/* Ends id (a live one, from rd_reqid_new): later lookups of it fail. */
void rd_reqid_release(rd_reqid_tab_t *t, uint64_t id);

/* The object a live id names, or NULL for 0, an id out of range, a free
 * slot or a stale generation. */
static inline void *rd_reqid_get(const rd_reqid_tab_t *t, uint64_t id)
{
    uint32_t i = (uint32_t)id - 1;   /* id 0 wraps to an index out of range */
    if (__builtin_expect(i < t->n && t->slot[i].gen == (uint32_t)(id >> 32), 1))
        return t->slot[i].obj;       /* NULL in a free slot */
    return NULL;
}

#endif

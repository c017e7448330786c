/*
 * Intrusive doubly-linked lists (circular, with a sentinel head). Used for
 * queues whose elements live inside other objects: requests, unexpected
 * messages, pending sends. All operations are O(1).
 */
#ifndef RD_UTIL_LIST_H
#define RD_UTIL_LIST_H

#include <stddef.h>

typedef struct rd_list {
    struct rd_list *next, *prev;
} rd_list_t;

#define RD_LIST_INIT(name) { &(name), &(name) }
#define rd_container_of(ptr, type, member) \
    ((type *)((char *)(ptr) - offsetof(type, member)))
#define rd_list_entry(ptr, type, member) rd_container_of(ptr, type, member)
#define rd_list_for_each(pos, head) \
    for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)
#define rd_list_for_each_safe(pos, tmp, head) \
    for ((pos) = (head)->next, (tmp) = (pos)->next; (pos) != (head); \
         (pos) = (tmp), (tmp) = (pos)->next)

static inline void rd_list_init(rd_list_t *h) { h->next = h->prev = h; }
static inline int rd_list_empty(const rd_list_t *h) { return h->next == h; }

static inline void rd_list_insert_between(rd_list_t *e, rd_list_t *prev, rd_list_t *next)
{
    e->prev = prev;
    e->next = next;
    prev->next = e;
    next->prev = e;
}
static inline void rd_list_push_back(rd_list_t *h, rd_list_t *e) { rd_list_insert_between(e, h->prev, h); }
static inline void rd_list_push_front(rd_list_t *h, rd_list_t *e) { rd_list_insert_between(e, h, h->next); }
static inline void rd_list_remove(rd_list_t *e)
{
    e->prev->next = e->next;
    e->next->prev = e->prev;
    e->next = e->prev = e;
}
static inline rd_list_t *rd_list_first(const rd_list_t *h) { return h->next == h ? NULL : h->next; }

#endif

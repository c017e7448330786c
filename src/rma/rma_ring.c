/*
 * The notification ring (rma_ring.h): a bounded many-producer queue in
 * the manner of Vyukov's, where a producer claims a position with a
 * compare-and-swap on tail and owns its slot once the slot's turn says
 * so, and the consumer alone advances head. A producer that finds the
 * slot of its position still holding the previous lap's notification
 * reports the ring full instead of waiting: the caller decides how to
 * wait (rma_notify.c asks the target to drain its ring).
 */
#include "rma/rma_ring.h"

#define LAP(pos) ((pos) / RD_RMA_RING_SLOTS)

int rd_rma_ring_push(rd_rma_ring_t *r, int source, int tag)
{
    uint64_t pos = atomic_load_explicit(&r->tail, memory_order_relaxed);
    rd_rma_ring_slot_t *s;
    for (;;) {
        s = &r->slot[pos & (RD_RMA_RING_SLOTS - 1)];
        uint64_t turn = atomic_load_explicit(&s->turn, memory_order_acquire);
        uint64_t mine = 2 * LAP(pos);
        if (turn == mine) {
            if (atomic_compare_exchange_weak_explicit(&r->tail, &pos, pos + 1,
                                                      memory_order_relaxed,
                                                      memory_order_relaxed))
                break;
        } else if (turn < mine) {
            return 0;
        } else {
            /* Another producer took pos and its lap moved on. */
            pos = atomic_load_explicit(&r->tail, memory_order_relaxed);
        }
    }
    s->source = source;
    s->tag = tag;
    atomic_store_explicit(&s->turn, 2 * LAP(pos) + 1, memory_order_release);
    return 1;
}

int rd_rma_ring_pop(rd_rma_ring_t *r, int *source, int *tag)
{
    uint64_t pos = atomic_load_explicit(&r->head, memory_order_relaxed);
    rd_rma_ring_slot_t *s = &r->slot[pos & (RD_RMA_RING_SLOTS - 1)];
    if (atomic_load_explicit(&s->turn, memory_order_acquire) != 2 * LAP(pos) + 1)
        return 0;
    *source = s->source;
    *tag = s->tag;
    atomic_store_explicit(&s->turn, 2 * (LAP(pos) + 1), memory_order_release);
    atomic_store_explicit(&r->head, pos + 1, memory_order_release);
    return 1;
}

uint64_t rd_rma_ring_taken(rd_rma_ring_t *r)
{
    return atomic_load_explicit(&r->head, memory_order_acquire);
}

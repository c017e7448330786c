/*
 * The notification ring of a window's control block (rma_win.h): node
 * peers that reach a window's memory with stores publish a notified put's
 * (source, tag) here, and the target takes them in the order their slots
 * were claimed, so that the notifications of one origin stay in order.
 * Many producers (processes of the node, the target among them), one
 * consumer (the target). The ring lives in shared memory created
 * zero-filled, and zero is a valid empty ring: nobody initializes it.
 */
#ifndef RD_RMA_RMA_RING_H
#define RD_RMA_RMA_RING_H

#include <stdatomic.h>
#include <stdint.h>

#define RD_RMA_RING_SLOTS 128    /* a power of two */

/* A slot belongs to the claims of its index, lap after lap (lap = claim
 * position / RD_RMA_RING_SLOTS): turn 2*lap says it is free for that
 * lap's producer, 2*lap+1 that it holds that lap's notification. */
typedef struct rd_rma_ring_slot {
    _Atomic uint64_t turn;
    int32_t source, tag;
} rd_rma_ring_slot_t;

/* tail and head on cache lines of their own: producers share the first,
 * the consumer writes the second. */
typedef struct rd_rma_ring {
    _Atomic uint64_t tail;       /* positions claimed by producers */
    unsigned char pad0[64 - sizeof(uint64_t)];
    _Atomic uint64_t head;       /* positions taken by the consumer */
    unsigned char pad1[64 - sizeof(uint64_t)];
    rd_rma_ring_slot_t slot[RD_RMA_RING_SLOTS];
} rd_rma_ring_t;

/* Publishes (source, tag) with release ordering (stores made before are
 * seen by the consumer that takes it): 1, or 0 when the ring is full
 * (nothing done). */
int rd_rma_ring_push(rd_rma_ring_t *r, int source, int tag);
/* Takes the oldest notification (acquire): 1, or 0 when there is none
 * yet (also while its producer has claimed the slot but not written it). */
int rd_rma_ring_pop(rd_rma_ring_t *r, int *source, int *tag);
/* How many notifications the consumer has taken so far (changes when the
 * target frees slots). */
uint64_t rd_rma_ring_taken(rd_rma_ring_t *r);

#endif

/*
 * The windows half's own state, shared by rma_win.c (creation, memory,
 * peers), rma_sync.c (fence, PSCW, epochs), rma_lock.c (passive target)
 * and rma_dyn.c (attached regions). Never included outside src/rma.
 */
#ifndef RD_RMA_RMA_WIN_H
#define RD_RMA_RMA_WIN_H

#include <stdatomic.h>
#include <stdint.h>

#include "rma/rma_impl.h"
#include "rma/rma_ring.h"
#include "rma/rma_seg.h"

/* Active-message types of this half (rma_impl.h: 64 .. 79). */
enum {
    RD_RMA_AM_POST = RD_RMA_AM_SYNC_FIRST,  /* target -> origin: exposure epoch open */
    RD_RMA_AM_COMPLETE,                     /* origin -> target: access epoch closed */
    RD_RMA_AM_LOCK,                         /* origin -> target: lock request (flags: type) */
    RD_RMA_AM_GRANT,                        /* target -> origin: lock granted */
    RD_RMA_AM_UNLOCK,                       /* origin -> target: release (flags: type) */
};

/* A rank's control block, first in its window segment (or in a small
 * segment of its own for Win_create and dynamic windows): its lock word,
 * so that node peers take the lock with atomics on the mapped word, and
 * the ring where node peers that store into its window memory publish
 * notified puts (rma_ring.h). One page, so that the window memory after
 * it stays page-aligned. */
#define RD_RMA_CTL_SIZE 4096
typedef struct rd_rma_ctl {
    _Atomic uint64_t lock;       /* shared holders, plus RD_RMA_LOCK_EXCL when exclusive */
    unsigned char pad0[64 - sizeof(uint64_t)];
    rd_rma_ring_t ring;
    unsigned char pad1[RD_RMA_CTL_SIZE - 64 - sizeof(rd_rma_ring_t)];
} rd_rma_ctl_t;
_Static_assert(sizeof(rd_rma_ctl_t) == RD_RMA_CTL_SIZE, "control block size");
#define RD_RMA_LOCK_EXCL (UINT64_C(1) << 62)

/* A lock request waiting at its target (FIFO). */
typedef struct rd_rma_lockreq {
    struct rd_rma_lockreq *next;
    int origin;                  /* rank of the window's communicator */
    int type;                    /* RD_LOCK_* */
} rd_rma_lockreq_t;

typedef struct rd_rma_region {
    uint64_t base;
    size_t len;
} rd_rma_region_t;

typedef struct rd_rma_map {
    void *addr;
    size_t len;
} rd_rma_map_t;

struct rd_rma_sync {
    /* memory */
    rd_rma_ctl_t *ctl;           /* this rank's control block */
    rd_rma_ctl_t **pctl;         /* by rank: its control block mapped here, or NULL */
    void *heap;                  /* memory of an ALLOCATE window without node peers */
    rd_rma_ctl_t heap_ctl;       /* control block when no node peer maps it */
    char segname[RD_RMA_SEG_NAME_MAX];  /* segment this rank created, until unlinked */
    int linked;
    int node_peers;              /* other members on this node */
    rd_rma_map_t *maps;          /* peers' segments mapped here (unmapped at free) */
    int nmaps;
    uint64_t *byworld;           /* (job rank << 32 | rank), sorted: senders of messages */
    int poke;                    /* some peer reaches this rank's memory through its
                                  * progress: flush and Win_sync progress once */
    unsigned idle_flushes;       /* flushes that found nothing owed (rma_lock.c) */
    /* PSCW */
    unsigned *posts;             /* by rank: POSTs received from it, not yet used by a start */
    int *start_grp, start_n;
    int *post_grp, post_n;
    unsigned completes;          /* COMPLETEs received in the exposure epoch */
    /* passive target, origin side */
    unsigned char *granted;      /* by rank: grant received for a pending request */
    unsigned char *how;          /* by rank: how its lock was taken (rma_lock.c) */
    int nlocked;                 /* targets held with Win_lock */
    /* passive target, target side */
    rd_rma_lockreq_t *queue, **queue_tail;
    /* dynamic windows, target side */
    rd_rma_region_t *regions;
    int nregions, cap;
};

/* Rank of w's communicator that job rank world is, or -1. */
int rd_rma_rank_of(rd_win_t *w, int world);

#endif

/*
 * rma's private state, shared by its files (never included outside
 * src/rma). Two halves own it:
 *  - windows and synchronization (rma_win.c, rma_seg.c, rma_sync.c,
 *    rma_lock.c): creation, memory, the peer table, epochs, locks, PSCW;
 *  - operations (rma_ops.c, rma_am.c, rma_acc.c, rma_notify.c): Put, Get,
 *    accumulates, atomics and notified puts on the three paths, their
 *    target-side handlers, and completion accounting.
 * The calls between the halves are declared here.
 */
#ifndef RD_RMA_RMA_IMPL_H
#define RD_RMA_RMA_IMPL_H

#include <stdint.h>

#include "p2p/p2p.h"
#include "rma/rma.h"

/* How contiguous Put/Get reach one target (rma.h explains the paths). */
enum rd_rma_path { RD_RMA_PATH_AM = 0, RD_RMA_PATH_SHM = 1, RD_RMA_PATH_RDMA = 2 };

/* Active-message types (p2p.h range RD_AM_RMA_FIRST .. LAST): 64-79 for
 * windows and synchronization, 80-127 for operations. */
enum {
    RD_RMA_AM_SYNC_FIRST = RD_AM_RMA_FIRST,       /* 64 */
    RD_RMA_AM_OPS_FIRST = RD_AM_RMA_FIRST + 16,   /* 80 */
};

/* Every rma wire header starts with this (version 1):
 *
 *   0       1       2               4                               8
 *  +-------+-------+---------------+-------------------------------+
 *  | type  | flags |   reserved    |       window id (ctx)         |
 *  +-------+-------+---------------+-------------------------------+
 *
 * The window id is the context id of the window's communicator, the same
 * on every member; the target looks it up (rd_rma_win_lookup) and drops a
 * message for a window it does not know. */
typedef struct __attribute__((packed)) rd_rma_hdr {
    uint8_t type;
    uint8_t flags;
    uint16_t reserved;
    uint32_t win;
} rd_rma_hdr_t;

/* One target as this rank sees it. */
typedef struct rd_rma_peer {
    int world;                   /* job rank */
    int path;                    /* enum rd_rma_path for contiguous Put/Get */
    uint64_t base;               /* target's base address in its own address space */
    size_t size;
    int disp_unit;
    void *mapped;                /* PATH_SHM: the target's window memory, mapped here */
    size_t keylen;               /* key of the target's window (PATH_RDMA, node peers) */
    size_t rdma_max;             /* PATH_RDMA: longest RDMA operation to it, 0 = any */
    uint8_t key[RD_P2P_KEY_MAX];
    /* windows & sync half */
    int lock;                    /* RD_LOCK_* held at this target by this rank, 0 */
    int in_access;               /* target is in the current PSCW access group */
    /* operations half */
    uint64_t am_sent, am_acked;  /* active-message operations to / acknowledged by it */
    unsigned am_queued;          /* of those, held in p2p's queue with their payload */
    unsigned results;            /* operations whose results have not all come back */
    unsigned rdma_unflushed;     /* RDMA operations issued since its last flush */
    int cma_refused;             /* node peer whose memory the kernel refused to CMA */
    uint64_t ctl;                /* device atomics: address of its lock word, and key */
    size_t ctl_keylen;
    uint8_t ctl_key[RD_P2P_KEY_MAX];
    int error;                   /* first error of an operation to it not yet reported */
} rd_rma_peer_t;

/* Access and exposure epochs. */
enum rd_rma_epoch {
    RD_EPOCH_NONE = 0,
    RD_EPOCH_FENCE,              /* between two fences (no NOSUCCEED) */
    RD_EPOCH_PSCW,               /* start .. complete (access) / post .. wait (exposure) */
    RD_EPOCH_LOCK,               /* one or more Win_lock */
    RD_EPOCH_LOCK_ALL,
};

struct rd_rma_win {
    uint32_t id;                 /* = win->comm->ctx */
    rd_win_t *win;
    int nranks;
    rd_rma_peer_t *peers;        /* by rank of win->comm */
    rd_p2p_mem_t *mem;           /* registration of win->base (non-dynamic) */
    /* windows & sync half */
    int access, exposure;        /* enum rd_rma_epoch */
    void *seg;                   /* shm segment holding base (ALLOCATE / SHARED), or NULL */
    size_t seglen;
    struct rd_rma_sync *sync;    /* lock queue, PSCW counters, dynamic regions (rma_sync.c) */
    int dev_atomics;             /* 8-byte accumulates, atomics and the lock word by the
                                  * device (rma_dev.h) */
    rd_p2p_mem_t *ctl_mem;       /* registration of this rank's lock word (device atomics) */
    /* operations half */
    struct rd_rma_opstate *ops;  /* pending requests, notification ring (rma_ops.c) */
};

/* One poll of a wait loop: progress, backing off while nothing happens. */
static inline void rd_rma_poll(unsigned *idle)
{
    if (rd_progress() == 0)
        rd_p2p_idle(idle);
    else
        *idle = 0;
}

/* ---- provided by the windows & sync half ---- */
/* The window with id on this rank, or NULL. */
rd_win_t *rd_rma_win_lookup(uint32_t id);
/* RD_OK when an access epoch to target is open now, else RD_ESYNC. */
int rd_rma_epoch_check(rd_win_t *w, int target);
/* Dynamic windows, target side: whether [addr, addr+len) lies inside one
 * attached region. */
int rd_rma_dyn_covers(rd_win_t *w, uint64_t addr, size_t len);
/* The notification ring of target's control block (rma_ring.h) when this
 * rank stores into target's window memory (itself, and node peers whose
 * window memory is mapped here), else NULL: notified puts to other
 * targets travel as messages. */
struct rd_rma_ring *rd_rma_notify_ring(rd_win_t *w, int target);

/* ---- provided by the operations half ---- */
/* Registers the operation handlers (from rd_rma_init). */
int rd_rma_ops_init(void);
void rd_rma_ops_finalize(void);
int rd_rma_ops_win_new(rd_win_t *w);
void rd_rma_ops_win_free(rd_win_t *w);
/* Completes every operation this rank issued on w to target (-1: all
 * targets): remote completion (local 0: the target's memory holds the
 * data, results are here), or local completion only (local 1). Progresses
 * until then; returns the first error an operation had (and clears it). */
int rd_rma_ops_complete(rd_win_t *w, int target, int local);
/* Whether this rank owes nothing to target pe: every active message
 * answered, no RDMA operation unflushed, no error to report. A flush of
 * such a target only orders the stores into mapped memory. */
static inline int rd_rma_ops_idle(const rd_rma_peer_t *pe)
{
    return pe->am_acked == pe->am_sent && !pe->rdma_unflushed && pe->error == 0;
}
/* Whether any operation from this rank on w is not yet complete. */
int rd_rma_ops_pending(rd_win_t *w, int target);
/* Notified puts this rank sent, by how the notification went: into the
 * target's ring, as an RDMA immediate, as a message; and how often a ring
 * was found full. */
void rd_rma_notify_counts(unsigned long *ring, unsigned long *imm, unsigned long *msg,
                          unsigned long *full);
/* Gets read from node peers by CMA, Gets as large that took the rings
 * because their target was waiting in MPI, and CMA transfers the kernel
 * refused (they went through the rings instead). */
void rd_rma_cma_counts(unsigned long *gets, unsigned long *waiting, unsigned long *refused);

#endif

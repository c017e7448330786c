/*
 * Passive-target synchronization (rma_lock.c): besides rma.h's lock,
 * unlock and flush calls, what the other files of the windows half use
 * from it.
 */
#ifndef RD_RMA_RMA_LOCK_H
#define RD_RMA_RMA_LOCK_H

#include "rma/rma_win.h"

/* Registers the LOCK, GRANT and UNLOCK handlers and the progress hook
 * that retries waiting requests (from rd_rma_init, after rd_p2p_init). */
int rd_rma_lock_init(void);
/* Drops the requests waiting at w (window freed). */
void rd_rma_lock_free(rd_win_t *w);
/* Whether this process holds a lock on w (Win_lock or Win_lock_all). */
int rd_rma_lock_held(rd_win_t *w);
/* Locks this process took since init, by the way they were taken. */
void rd_rma_lock_counts(unsigned long *atomic, unsigned long *am);

#endif

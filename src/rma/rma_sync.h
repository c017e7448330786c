/*
 * Active-target synchronization (rma_sync.c): besides rma.h's fence and
 * PSCW calls and rma_impl.h's epoch check, what the other files of the
 * windows half use from it.
 */
#ifndef RD_RMA_RMA_SYNC_H
#define RD_RMA_RMA_SYNC_H

#include "rma/rma_win.h"

/* Registers the POST and COMPLETE handlers (from rd_rma_init). */
int rd_rma_sync_init(void);
/* Sends a header-only synchronization message of type (flags in the
 * header) to rank of w. RD_OK (also when the transport queued it) or the
 * transport's error. */
int rd_rma_sync_send(rd_win_t *w, int rank, int type, int flags);
/* The window and sender rank (*rank) of an arrived synchronization
 * message from job rank peer, its header's flags in *flags; NULL when the
 * message is too short or names no window or member here (dropped). */
rd_win_t *rd_rma_sync_incoming(int peer, const void *hdr, size_t hdrlen, int *rank, int *flags);
/* Releases w's PSCW state (window freed). */
void rd_rma_sync_free(rd_win_t *w);

#endif

/*
 * RC connection manager (rc_cm.c): the UD QP that carries REQ/REP, the
 * QPN table, the connect timers and what happens when a peer fails.
 */
#ifndef RD_TRANSPORT_VERBS_RC_RC_CM_H
#define RD_TRANSPORT_VERBS_RC_RC_CM_H

#include "transport/verbs/rc/rc_int.h"

/* At init: the CM's UD QP, its buffers and posted receives. */
int rd_rc_cm_setup(void);
/* At init: the inline limit our RC QPs get (rd_rc.max_inline), by a probe QP. */
int rd_rc_inline_probe(void);
/* Nonzero if the peer published a CM address our device can reach. */
int rd_rc_reachable(int peer);
/* IDLE -> CONNECTING: creates the QP and sends REQ. */
void rd_rc_start_connect(int peer);
/* -> READY, and the get/put operations that waited for it are posted. */
void rd_rc_set_ready(int peer);
/* Handles CM messages that arrived; returns how many. */
int rd_rc_poll_cm(void);
/* Retransmits REQ and fails connections past their deadline. */
void rd_rc_cm_timers(void);
/* The peer cannot be reached: -> FAILED, queued operations end with status. */
void rd_rc_fail_peer(int peer, int status);
/* transport.h's loopback: peers[rank]'s QP, connected to rd_rc.loop_qp on
 * the same device, carries this process's RDMA to its own memory. */
int rd_rc_loopback(void);
/* Tells p2p about the peers that failed since the last pass. */
void rd_rc_report_failures(void);

/* The peer whose QP has number qpn, or -1 (a receive completion's sender). */
static inline int qtab_get(uint32_t qpn)
{
    uint32_t i = (qpn * 2654435761u) & rd_rc.qtab_mask;
    while (rd_rc.qtab_peer[i] >= 0) {
        if (rd_rc.qtab_qpn[i] == qpn)
            return rd_rc.qtab_peer[i];
        i = (i + 1) & rd_rc.qtab_mask;
    }
    return -1;
}

#endif

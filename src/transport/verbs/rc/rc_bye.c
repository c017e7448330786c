/*
 * RC goodbye: in finalize, each side sends a signalled BYE to every
 * connected peer and keeps its QP until its BYE has completed and the
 * peer's has arrived (rc.h), so that no side sends into a QP its peer has
 * destroyed; then a message lost on a failed connection ends the job
 * instead of leaving the peer waiting.
 */
#include "transport/verbs/rc/rc_bye.h"

#include <sched.h>
#include <stdio.h>

#include "boot/boot.h"
#include "transport/verbs/rc/rc_cm.h"
#include "transport/verbs/rc/rc_int.h"
#include "transport/verbs/rc/rc_msg.h"
#include "util/clock.h"

/* A peer finalize still waits for: one whose QP is connected (or about to
 * be: WAIT_RTU turns READY when the peer's RTU arrives, which it sent
 * before anything else) until our BYE has completed and its BYE has
 * arrived. IDLE and FAILED peers get no BYE; neither do CONNECTING and
 * CROSSED ones (we asked for a connection that no operation finished with,
 * so the peer may never have heard of it; if its REP comes during the
 * wait, the peer is READY and counts). */
static int bye_pending(const rc_peer_t *p)
{
    switch ((enum rc_conn)p->cm.state) {
    case RC_WAIT_RTU:
        return 1;
    case RC_READY:
        return !p->bye.out || (int32_t)(p->sq.done_seq - p->bye.seq) <= 0 || !p->bye.in;
    case RC_IDLE:
    case RC_CONNECTING:
    case RC_CROSSED:
    case RC_FAILED:
        return 0;
    }
    return 0;
}

/* Before the QPs go (the goodbye of rc.h): posts a signalled BYE to every
 * connected peer and waits, bounded, until each BYE has completed and each
 * such peer's BYE has arrived. A send returns as soon as its data is copied
 * or inlined, so the last messages before MPI_Finalize (the final
 * barrier's) may still be on the wire; our BYE's completion says they and
 * it were acknowledged, and the peer's BYE says that it will not send into
 * our QP once it is gone (before this protocol, the last rank out of the
 * barrier waited for its retries into a destroyed QP, up to the bound).
 * Messages other than BYE that arrive now belong to the finished job and
 * are dropped (poll_recv, rd_rc.finalizing); rings are not read. A message
 * that fails within the bound is seen (msg_lost, check_lost); one whose
 * retries take longer (RDMPI_RC_TIMEOUT 19 and above: 8 tries of 2.1 s or
 * more) is not. The bound (10 s) only matters when a peer is gone or
 * misbehaves: a lost final ack, a peer that never finalizes. */
void rd_rc_goodbye(void)
{
    if (!rd_rc.data_ready)
        return;
    double end = rd_clock_s() + 10.0;
    for (;;) {
        int events = rd_rc_poll_cm();
        int k = rd_rc_poll_recv();
        events += k > 0 ? k : 0;
        k = rd_rc_poll_send();
        events += k > 0 ? k : 0;
        int busy = 0;
        for (int i = 0; i < rd_rc.size; i++) {
            rc_peer_t *p = &rd_rc.peers[i];
            if (i == rd_rc.rank)
                continue;   /* the loopback: no peer on the other side to tell */
            if (p->cm.state == RC_READY && !p->bye.out) {
                uint32_t seq = p->sq.post_seq;
                if (rd_rc_post_hdr_only(i, RD_RC_IMM_BYE, 1) == RD_OK) {
                    p->bye.out = 1;
                    p->bye.seq = seq;
                    events++;
                }
            }
            busy |= bye_pending(p);
        }
        if (!busy || rd_clock_s() > end)
            return;
        if (events == 0)
            sched_yield();
    }
}

/* In MPI_Finalize, after the closing barrier succeeded: a message to a peer
 * that was never delivered (its connection failed after the send returned,
 * e.g. this rank's last barrier message) leaves that peer waiting for it
 * forever, in its barrier or a receive; the job ends here with the reason. */
void rd_rc_check_lost(void)
{
    for (int i = 0; i < rd_rc.size; i++) {
        if (!rd_rc.peers[i].sq.msg_lost)
            continue;
        char msg[256];
        snprintf(msg, sizeof(msg), "rdmpi: rank %d: MPI_Finalize: messages to rank %d were not "
                 "delivered (the RC connection failed); ending the job so that rank %d does not "
                 "wait for them", rd_rc.rank, i, i);
        rd_boot_abort(1, msg);
    }
}

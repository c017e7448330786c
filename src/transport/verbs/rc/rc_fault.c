/*
 * RC fault injection, for tests only: RDMPI_RC_FAULT=RANK:N moves the QP
 * to a peer into the error state when rank RANK sends message N + 1 to it,
 * as a broken link would leave it; everything after that is the ordinary
 * failure path (test/mpi/rc_fault.c checks it). Compiled only with
 * --enable-fault-injection (RD_FAULT_INJECTION).
 */
#include "transport/verbs/rc/rc_fault.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "transport/verbs/rc/rc_cm.h"
#include "transport/verbs/rc/rc_int.h"
#include "transport/verbs/rc/rc_msg.h"
#include "transport/verbs/rc/rc_tunables.h"
#include "util/errdetail.h"

/* RDMPI_RC_FAULT=RANK:N (testing only): on rank RANK, the QP to a peer is
 * moved to the error state when message N + 1 to that peer is sent, the way
 * a broken link would leave it (this side's work requests flush, the
 * peer's retries run out). */
int rd_rc_fault_knob(long *after)
{
    const char *s;
    int rc = rd_tunable_str(&rd_rc_tunables[RD_RC_T_FAULT], &s);
    *after = -1;
    if (rc != RD_OK || !s)
        return rc;
    char *end;
    errno = 0;
    long r = strtol(s, &end, 10), n = -1;
    if (!errno && end != s && *end == ':' && r >= 0) {
        char *e2;
        n = strtol(end + 1, &e2, 10);
        if (errno || e2 == end + 1 || *e2 || n < 0)
            r = -1;
    } else {
        r = -1;
    }
    if (r < 0) {
        rd_err_detail("RDMPI_RC_FAULT=\"%s\" is not valid: expected RANK:N (two whole numbers)", s);
        return RD_EINVAL;
    }
    if (r == rd_rc.rank)
        *after = n;
    return RD_OK;
}

/* RDMPI_RC_FAULT: peer's QP goes to the error state, as a broken link
 * would leave it; what follows is the ordinary failure path (the send being
 * posted and everything outstanding complete in error, fail_peer). */
static void inject_fault(int peer)
{
    struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };
    if (ibv_modify_qp(rd_rc.peers[peer].sq.qp, &a, IBV_QP_STATE) != 0)
        rd_rc_fail_peer(peer, RD_EPEER);   /* not even that: fail it by hand */
}

/* rd_rc_send on the rank RDMPI_RC_FAULT names: counts the messages sent to
 * each peer and breaks the QP before message fault_after + 1 goes out. */
int rd_rc_fault_send(int peer, const void *hdr, size_t hdrlen, const void *payload,
                      size_t len)
{
    rc_peer_t *p = &rd_rc.peers[peer];
    if (p->cm.state == RC_READY && p->fault_msgs == (uint32_t)rd_rc.fault_after)
        inject_fault(peer);
    int err = rd_rc_send_msg(peer, hdr, hdrlen, payload, len);
    if (err == RD_OK)
        p->fault_msgs++;
    return err;
}

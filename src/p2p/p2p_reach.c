/*
 * Peers no transport reaches. After init, a peer that no transport of this
 * rank's RDMPI_TRANSPORTS reached is either a mistake of this rank's
 * setting (every transport tried was refused: no RDMA device, a node of
 * its own for shm), and MPI_Init fails naming the peer and why each
 * transport was refused; or the two ranks name no transport in common
 * (RDMPI_TRANSPORTS differs between them), and the job runs until it first
 * needs that peer: a send to it, or a receive naming it, then fails with
 * the same message instead of waiting forever. Ranks that never talk may
 * run so (a coupled job whose parts use different networks).
 */
#include <stdio.h>
#include <string.h>

#include "p2p/p2p_impl.h"
#include "util/errdetail.h"

/* RDMPI_TRANSPORTS as this rank read it, for the messages. */
static char want_list[64];

/* Writes why no transport reaches peer (nor others more ranks) into buf;
 * *absent: some transport tried is one the peer does not use. */
static void describe(int peer, int others, char *buf, size_t len, int *absent)
{
    size_t off = 0;
    char more[48] = "";
    *absent = 0;
    if (others > 0)
        snprintf(more, sizeof(more), " (nor %d other rank%s)", others, others > 1 ? "s" : "");
    off += (size_t)snprintf(buf, len, "rank %d cannot reach rank %d%s with RDMPI_TRANSPORTS=%s:",
                            rd_p2p.rank, peer, more, want_list);
    for (int i = 0; i < rd_p2p.ninited && off < len; i++) {
        const rd_transport_t *tp = rd_p2p.inited[i];
        char why[RD_ERR_DETAIL_MAX / 2] = "not reachable";
        if (tp->refusal && tp->refusal(peer, why, sizeof(why)) == RD_TP_ABSENT)
            *absent = 1;
        off += (size_t)snprintf(buf + off, len - off, "%s %s refused: %s", i ? ";" : "",
                                tp->name, why);
    }
    if (rd_p2p.ninited == 0 && off < len)
        snprintf(buf + off, len - off, " none of them is built into this library");
}

int rd_p2p_unreachable(int peer)
{
    char msg[RD_ERR_DETAIL_MAX];
    int absent;
    describe(peer, 0, msg, sizeof(msg), &absent);
    rd_err_detail("%s", msg);
    return RD_EUNREACH;
}

int rd_p2p_reach_check(const char *want)
{
    int first = -1, n = 0, refused_all = 0;
    snprintf(want_list, sizeof(want_list), "%s", want);
    for (int peer = 0; peer < rd_p2p.size; peer++) {
        if (peer == rd_p2p.rank || rd_p2p.peers[peer].tp)
            continue;
        char msg[RD_ERR_DETAIL_MAX];
        int absent;
        describe(peer, 0, msg, sizeof(msg), &absent);
        if (!absent && !refused_all) {
            refused_all = 1;
            first = peer;
        }
        if (first < 0)
            first = peer;
        n++;
    }
    rd_p2p.nunreach = n;
    if (n)
        rd_p2p.recv_check = 1;   /* receives naming such a peer fail when posted */
    if (!refused_all)
        return RD_OK;
    char msg[RD_ERR_DETAIL_MAX];
    int absent;
    describe(first, n - 1, msg, sizeof(msg), &absent);
    /* tcp reaches any rank that has it: the usual way out. */
    rd_err_detail("%s%s", msg, rd_p2p_name_listed(want_list, "tcp") ? ""
                               : "; add tcp to RDMPI_TRANSPORTS, or leave it unset");
    return RD_EUNREACH;
}

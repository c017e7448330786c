/*
 * TCP transport: moves p2p messages between ranks over TCP sockets, for
 * peers no faster transport reaches (other hosts without RDMA), or every
 * peer with RDMPI_TRANSPORTS=tcp. Wire format and connection set-up are
 * drawn in tcp_wire.h. This file holds the ops table, init (the address
 * and port we publish, the connection key) and finalize; the rest is split
 * by concern and
 * shares its state through tcp_int.h:
 *   tcp_conn.c   connections: listen, accept, connect, HELLO/ACK/NACK,
 *                retries and timers, a peer's failure
 *   tcp_send.c   peer queues, held bursts, writev
 *   tcp_recv.c   read, parse (tcp_parse.c), claim
 *   tcp_poll.c   progress: epoll, the direct connection, SO_RCVLOWAT and
 *                the read gap
 *   tcp_addr.c   which addresses to publish, which of a peer's to use
 *
 * One connection per pair of ranks, opened on the first send with the
 * address the peer published through PMIx and authenticated by a key:
 * the job key rdmpi's mpirun hands every rank outside PMIx, or under other
 * launchers a key each rank publishes (another user's process cannot
 * inject messages).
 * Receiving follows the O2G lesson: one edge-triggered epoll set over
 * every socket, each readable socket drained at once, and a message
 * matched as soon as its header is in.
 *
 * Eager payloads are at most eager_max (64 KiB); a large message is
 * streamed by p2p as DATA fragments of up to frag_max (256 KiB), at most
 * 1 MiB per peer and progress pass, so it never holds up other peers for
 * long. Big payloads (RD_TCP_BIG) avoid copies on both sides (tcp_int.h).
 */
#include "transport/tcp/tcp.h"

#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "transport/tcp/tcp_addr.h"
#include "transport/tcp/tcp_int.h"
#include "transport/tcp/tcp_wire.h"
#include "transport/transport.h"
#include "util/clock.h"
#include "transport/tcp/tcp_tunables.h"
#include "util/errdetail.h"
#include "util/list.h"
#include "util/status.h"

/* How long finalize waits for peers' BYEs (they are all finalizing after
 * MPI_Finalize's barrier, so this only bounds a failure). */
#define RD_TCP_FINALIZE_WAIT_MS 10000

struct rd_tcp_state rd_tcp;

static int tcp_init(const rd_tp_env_t *env);
static void tcp_finalize(void);
static int tcp_reachable(int peer);
static int tcp_refusal(int peer, char *buf, size_t len);

rd_transport_t rd_tcp_transport = {
    .name = "tcp",
    .msg = { .hdr_max = RD_TCP_HDR_MAX },   /* eager_max, frag_max: set by tcp_init */
    .fail = { .reports = 1 },
    .fence_after_init = 1,
    .init = tcp_init,
    .finalize = tcp_finalize,
    .reachable = tcp_reachable,
    .refusal = tcp_refusal,
    .send = rd_tcp_send,
    .push = rd_tcp_push,
    .progress = rd_tcp_progress,
    .watch = rd_tcp_watch,
};

/* RDMPI_TCP_IF (tcp_addr.h says how it is read). */
static int choose_addrs(rd_tcp_addr_t *out)
{
    const char *want;
    int rc = rd_tunable_str(&rd_tcp_tunables[RD_TCP_T_IF], &want);
    if (rc != RD_OK)
        return rc;
    struct ifaddrs *all = NULL;
    if (getifaddrs(&all) != 0) {
        rd_err_detail_sys(errno, "tcp: getifaddrs");
        return RD_ESYS;
    }
    int n = rd_tcp_addrs_collect(all, want, out->ent, RD_TCP_ADDRS_MAX);
    if (all)
        freeifaddrs(all);
    if (n == 0) {
        if (want)
            rd_err_detail("RDMPI_TCP_IF=%s: no interface that is up has an address matching it",
                          want);
        else
            rd_err_detail("tcp: no interface that is up has an IPv4 or IPv6 address");
        return RD_EINVAL;
    }
    out->count = (uint8_t)n;
    return RD_OK;
}

static int tcp_reachable(int peer)
{
    return rd_tcp.peers && peer >= 0 && peer < rd_tcp.size && peer != rd_tcp.rank &&
           rd_tcp_fetch_addr(peer);
}

static int tcp_refusal(int peer, char *buf, size_t len)
{
    rd_tcp_addr_t a;
    size_t alen = sizeof(a);
    if (rd_boot_get(peer, RD_TCP_BOOT_KEY, &a, &alen) == RD_EINVAL) {
        snprintf(buf, len, "rank %d does not use tcp", peer);
        return RD_TP_ABSENT;
    }
    snprintf(buf, len, "rank %d published no usable tcp address", peer);
    return RD_TP_REFUSED;
}

static int tcp_init(const rd_tp_env_t *env)
{
    memset(&rd_tcp, 0, offsetof(struct rd_tcp_state, rx));
    rd_tcp.env = *env;
    rd_tcp.rank = env->boot->rank;
    rd_tcp.size = env->boot->size;
    rd_tcp.ep = -1;
    rd_tcp.nlfd = 0;
    rd_list_init(&rd_tcp.conns);
    rd_list_init(&rd_tcp.dead);
    rd_list_init(&rd_tcp.ready);
    rd_list_init(&rd_tcp.hello_wait);
    rd_list_init(&rd_tcp.retry);
    /* The table bounds each value; what ties two together is settled here. */
    const rd_tunable_t *t = rd_tcp_tunables;
    long long eager, frag, sendq, co, lowat, lowat_big, gap;
    int trc;
    if ((trc = rd_tunable_int(&t[RD_TCP_T_EAGER_MAX], &eager)) != RD_OK ||
        (trc = rd_tunable_int(&t[RD_TCP_T_FRAG_MAX], &frag)) != RD_OK ||
        (trc = rd_tunable_int(&t[RD_TCP_T_SENDQ_MAX], &sendq)) != RD_OK ||
        (trc = rd_tunable_int(&t[RD_TCP_T_COALESCE_MAX], &co)) != RD_OK ||
        (trc = rd_tunable_int(&t[RD_TCP_T_ACK_LOWAT], &lowat)) != RD_OK ||
        (trc = rd_tunable_int(&t[RD_TCP_T_ACK_LOWAT_BIG], &lowat_big)) != RD_OK ||
        (trc = rd_tunable_int(&t[RD_TCP_T_READ_GAP_NS], &gap)) != RD_OK)
        return trc;
    rd_tcp_transport.msg.eager_max = (size_t)eager;
    rd_tcp_transport.msg.frag_max = (size_t)(frag < eager ? eager : frag);
    rd_tcp.sendq_max = (size_t)sendq;
    rd_tcp.coalesce_max = (size_t)co;
    rd_tcp.ack_lowat = lowat <= 1 ? 0 : (int)lowat;
    rd_tcp.ack_lowat_big = lowat_big < rd_tcp.ack_lowat ? rd_tcp.ack_lowat : (int)lowat_big;
    rd_tcp.small_run = 0;
    rd_tcp.gap_ns = gap;
    rd_tcp.lowat = NULL;
    rd_tcp.read_at = 0;
    rd_list_init(&rd_tcp.held);
    rd_tcp.gen = 1;
    if (rd_tcp.size < 2)
        return RD_OK;   /* no peers: nothing to listen for */

    int rc = choose_addrs(&rd_tcp.me);
    if (rc != RD_OK)
        return rc;
    rd_tcp.me.version = RD_TCP_WIRE_VERSION;
    /* The job key when the launcher gave one: nothing secret is published. */
    _Static_assert(RD_TCP_KEY_LEN == RD_BOOT_JOB_KEY_LEN, "the job key is the connection key");
    rd_tcp.job_key = rd_boot_job_key(rd_tcp.key);
    if (!rd_tcp.job_key &&
        getrandom(rd_tcp.key, sizeof(rd_tcp.key), 0) != (ssize_t)sizeof(rd_tcp.key)) {
        rd_err_detail_sys(errno, "tcp: getrandom() for the connection key");
        return RD_ESYS;
    }
    uint16_t port;
    int n = rd_tcp_listen(&rd_tcp.me, rd_tcp.lfd, &port);
    if (n < 0)
        return RD_ESYS;
    rd_tcp.nlfd = n;
    rd_tcp.me.port = port;
    rc = RD_ESYS;
    rd_tcp.ep = epoll_create1(EPOLL_CLOEXEC);
    if (rd_tcp.ep < 0) {
        rd_tcp_no_descriptor(errno, "epoll_create1()", -2);
        goto err;
    }
    for (int i = 0; i < rd_tcp.nlfd; i++) {
        struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.ptr = NULL };
        if (epoll_ctl(rd_tcp.ep, EPOLL_CTL_ADD, rd_tcp.lfd[i], &ev) != 0) {
            rd_err_detail_sys(errno, "tcp: epoll_ctl(ADD) of a listening socket");
            goto err;
        }
    }
    rc = RD_ENOMEM;
    rd_tcp.peers = calloc((size_t)rd_tcp.size, sizeof(*rd_tcp.peers));
    if (!rd_tcp.peers)
        goto err;
    for (int i = 0; i < rd_tcp.size; i++) {
        rd_list_init(&rd_tcp.peers[i].q);
        rd_list_init(&rd_tcp.peers[i].retry);
    }
    if ((rc = rd_boot_put(RD_TCP_BOOT_KEY, &rd_tcp.me, RD_TCP_ADDR_LEN(rd_tcp.me.count))) != RD_OK)
        goto err;
    if (!rd_tcp.job_key &&
        (rc = rd_boot_put(RD_TCP_BOOT_SECRET, rd_tcp.key, sizeof(rd_tcp.key))) != RD_OK)
        goto err;
    return RD_OK;
err:
    tcp_finalize();
    return rc;
}

/* Is anything still owed to or by peer p before its connection may close? */
static int pending(const tpeer_t *p)
{
    if (p->conn)
        return !rd_list_empty(&p->q) || !p->bye || p->conn->ctl_off < p->conn->ctl_len;
    return !rd_list_empty(&p->q);   /* waiting for the peer's own connection */
}

/* After MPI_Finalize's barrier: writes out every queue followed by a BYE,
 * reads until each connected peer's BYE (frames after the barrier are
 * dropped), then closes. A peer that is gone ends the wait early; a bound
 * keeps a stuck one from hanging us. */
static void tcp_finalize(void)
{
    if (rd_tcp.peers) {
        rd_tcp.finalizing = 1;
        for (int i = 0; i < rd_tcp.size; i++) {
            tpeer_t *p = &rd_tcp.peers[i];
            if (!p->conn && rd_list_empty(&p->q))
                continue;
            rd_tcp_frame_t f = { .type = RD_TCP_F_BYE, .version = RD_TCP_WIRE_VERSION };
            if (rd_tcp_enqueue(p, &f, NULL, 0, NULL, 0, 0) != RD_OK)
                continue;
            p->bye_queued = 1;
            if (p->conn && p->conn->state == C_UP)
                rd_tcp_conn_flush(p->conn);
        }
        long deadline = rd_clock_ms() + RD_TCP_FINALIZE_WAIT_MS;
        if (rd_tcp.lowat)   /* the wait below sleeps in epoll */
            rd_tcp_set_lowat(rd_tcp.lowat, 0);
        rd_list_init(&rd_tcp.held);   /* every queue is being written out */
        for (;;) {
            int busy = 0;
            for (int i = 0; i < rd_tcp.size && !busy; i++)
                busy = pending(&rd_tcp.peers[i]);
            long left = deadline - rd_clock_ms();
            if (!busy || left <= 0)
                break;
            rd_tcp_poll_once(left < 100 ? (int)left : 100);
        }
        while (!rd_list_empty(&rd_tcp.conns))
            rd_tcp_conn_close(rd_list_entry(rd_tcp.conns.next, conn_t, link));
        rd_tcp_free_dead();
        for (int i = 0; i < rd_tcp.size; i++)
            rd_tcp_queue_drop(&rd_tcp.peers[i]);
        free(rd_tcp.peers);
        rd_tcp.peers = NULL;
    }
    for (int i = 0; i < rd_tcp.nlfd; i++)
        close(rd_tcp.lfd[i]);
    rd_tcp.nlfd = 0;
    if (rd_tcp.ep >= 0)
        close(rd_tcp.ep);
    rd_tcp.ep = -1;
    rd_tcp.finalizing = 0;
    memset(rd_tcp.key, 0, sizeof(rd_tcp.key));
}

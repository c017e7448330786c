/*
 * TCP transport: moves p2p messages between ranks over TCP sockets, for
 * peers no faster transport reaches (other hosts without RDMA), or every
 * peer with RDMPI_TRANSPORTS=tcp. Wire format and connection set-up are
 * drawn in tcp_wire.h; the frame parser lives in tcp_parse.c.
 *
 * One connection per pair of ranks, opened on the first send with the
 * address the peer published through PMIx and authenticated by the key it
 * published next to it (another user's process cannot inject messages).
 *
 * Receive side (the O2G lesson): one edge-triggered epoll set over every
 * socket; each readable socket is drained into its own parser state, so no
 * socket waits behind another and a full socket never deadlocks. A message
 * whose payload is already in the read buffer goes to p2p straight from
 * there; one whose payload is still on its way is offered to p2p (claim) as
 * soon as its header is in, and when a posted receive matches, the payload
 * is read from the socket directly into the user buffer. With only one
 * connection, progress reads it without asking epoll first (one syscall per
 * arrival instead of two) and runs an epoll pass every few calls; that
 * connection's ACKs are kept off the round trip (RD_TCP_ACK_LOWAT_DEFAULT).
 *
 * Eager payloads are at most eager_max (64 KiB); a large message
 * is streamed by p2p as DATA fragments of up to frag_max (256 KiB), at most
 * 1 MiB per peer and progress pass, so it never holds up other peers for
 * long. Big payloads (RD_TCP_BIG) avoid copies on both sides, see there.
 */
#include "transport/tcp/tcp.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "transport/tcp/tcp_addr.h"
#include "transport/tcp/tcp_int.h"
#include "transport/tcp/tcp_parse.h"
#include "transport/tcp/tcp_wire.h"
#include "transport/transport.h"
#include "util/clock.h"
#include "util/env.h"
#include "util/list.h"
#include "util/status.h"

#define RD_TCP_EAGER_MAX_DEFAULT (64 * 1024)
#define RD_TCP_FRAG_MAX_DEFAULT (256 * 1024)
#define RD_TCP_SENDQ_MAX_DEFAULT (1024 * 1024)
#define RD_TCP_COALESCE_MAX_DEFAULT (16 * 1024)
/* Acknowledgements off the round trip (the direct connection only).
 * Linux acknowledges a message of more than one segment at once, from the
 * softirq that delivers it, only if the advertised window would not shrink
 * or fewer than SO_RCVLOWAT bytes are unread; otherwise the receiver's own
 * read sends the ACK, on the round trip before the reply (and a segment
 * that lands while the reader holds the socket goes to its backlog, whose
 * ACK is the reader's too). Which way the window goes depends on the
 * connection's history (after smaller messages it shrinks), so the direct
 * connection gets SO_RCVLOWAT = RDMPI_TCP_ACK_LOWAT: up to that many
 * unread bytes the kernel always acknowledges from the softirq. Big frames
 * (RD_TCP_BIG) raise it to RDMPI_TCP_ACK_LOWAT_BIG, until RD_TCP_SMALL_RUN
 * small frames in a row, because a stream of big payloads is bound by the
 * window, which prompt ACKs keep open, while a stream of small messages is
 * bound by CPU, which more ACKs cost. SO_RCVLOWAT also mutes epoll for
 * fewer bytes, so it is raised only on the direct connection, which every
 * progress call reads itself, and lowered again (the kernel then reports
 * what is unread) before a second connection or finalize relies on epoll.
 * And after a frame of more than one segment, an empty direct read waits
 * RDMPI_TCP_READ_GAP_NS before the next, so the next such frame is
 * unlikely to land while the reader holds the socket. */
#define RD_TCP_ACK_LOWAT_DEFAULT (24 * 1024)
#define RD_TCP_ACK_LOWAT_BIG_DEFAULT (1024 * 1024)
#define RD_TCP_SMALL_RUN 16
#define RD_TCP_READ_GAP_NS_DEFAULT 700
/* epoll events taken per progress call. */
#define RD_TCP_EVENTS 64
/* How long finalize waits for peers' BYEs (they are all finalizing after
 * MPI_Finalize's barrier, so this only bounds a failure). */
#define RD_TCP_FINALIZE_WAIT_MS 10000
/* With a single connection, progress reads it directly (one syscall that
 * also brings the data) instead of asking epoll first (two syscalls per
 * arrival); every this many calls it still runs one epoll pass, for the
 * listening socket and anything else epoll reports. */
#define RD_TCP_DIRECT_POLLS 16

struct rd_tcp_state rd_tcp;

static int tcp_init(const rd_tp_env_t *env);
static void tcp_finalize(void);
static int tcp_reachable(int peer);
static int tcp_progress(void);

rd_transport_t rd_tcp_transport = {
    .name = "tcp",
    .caps = RD_TP_CAP_FAILS,
    .hdr_max = RD_TCP_HDR_MAX,
    .eager_max = RD_TCP_EAGER_MAX_DEFAULT,
    .frag_max = RD_TCP_FRAG_MAX_DEFAULT,
    .fence_after_init = 1,
    .init = tcp_init,
    .finalize = tcp_finalize,
    .reachable = tcp_reachable,
    .send = rd_tcp_send,
    .flush = rd_tcp_flush,
    .progress = tcp_progress,
    .watch = rd_tcp_watch,
    .mem_key = NULL,
    .get = NULL,
    .put = NULL,
};

/* ---- choosing the address to publish ---- */

/* RDMPI_TCP_IF (tcp_addr.h says how it is read). */
static int choose_addrs(rd_tcp_addr_t *out)
{
    const char *want = rd_env_str("RDMPI_TCP_IF", NULL);
    struct ifaddrs *all = NULL;
    if (getifaddrs(&all) != 0)
        all = NULL;
    int n = rd_tcp_addrs_collect(all, want, out->ent, RD_TCP_ADDRS_MAX);
    if (all)
        freeifaddrs(all);
    if (n == 0) {
        fprintf(stderr, "rdmpi: RDMPI_TCP_IF=%s: no interface that is up has an address "
                "matching it\n", want);
        return RD_EINVAL;
    }
    out->count = (uint8_t)n;
    return RD_OK;
}

/* ---- connections ---- */

/* SO_RCVLOWAT of c to v, a direct level, or back to 1 (v = 0); lowering
 * makes the kernel report what is unread to epoll. */
void rd_tcp_set_lowat(conn_t *c, int v)
{
    if (setsockopt(c->fd, SOL_SOCKET, SO_RCVLOWAT, &(int){ v ? v : 1 }, sizeof(int)) != 0 && v) {
        rd_tcp.ack_lowat = 0;   /* not raised (and not tried again): epoll still sees everything */
        return;
    }
    rd_tcp.lowat = v ? c : NULL;
    rd_tcp.lowat_val = v;
}

static void on_writable(conn_t *c)
{
    if (c->state == C_CONNECTING) {
        int err = 0;
        socklen_t l = sizeof(err);
        if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &l) != 0)
            err = errno;
        if (err) {
            rd_tcp_peer_lost(c, strerror(err));
            return;
        }
        c->state = C_HELLO_SENT;
    }
    rd_tcp_conn_flush(c);
}

/* After a direct read of c that completed n frames: c's SO_RCVLOWAT for
 * the frames it now brings (RD_TCP_ACK_LOWAT_DEFAULT). */
static void lowat_follow(conn_t *c, int n)
{
    if (!rd_tcp.ack_lowat || c->state != C_UP)
        return;
    int want = rd_tcp.lowat == c ? rd_tcp.lowat_val : rd_tcp.ack_lowat;
    if (c->ps.len >= RD_TCP_BIG) {
        want = rd_tcp.ack_lowat_big;
        rd_tcp.small_run = 0;
    } else if (n && (rd_tcp.small_run += (unsigned)n) >= RD_TCP_SMALL_RUN) {
        want = rd_tcp.ack_lowat;
    }
    if (rd_tcp.lowat != c || rd_tcp.lowat_val != want)
        rd_tcp_set_lowat(c, want);
}

/* Reads c, which progress reads without epoll, and sets its SO_RCVLOWAT
 * for what it brought. Returns the frames completed. */
static int lowat_read(conn_t *c)
{
    int n = rd_tcp_conn_read(c);
    lowat_follow(c, n);
    return n;
}

/* Whether direct reads are still waiting out the gap after an empty one. */
static int in_gap(void)
{
    if (__builtin_expect(rd_tcp.read_at == 0, 1))
        return 0;
    if (rd_clock_ns() - rd_tcp.read_at < 0)
        return 1;
    rd_tcp.read_at = 0;
    return 0;
}

/* One pass over the ready sockets; timeout_ms as for epoll_wait. */
static int poll_once(int timeout_ms)
{
    struct epoll_event evs[RD_TCP_EVENTS];
    int events = 0;
    if (!rd_list_empty(&rd_tcp.ready)) {
        /* Sockets a previous pass left with data: take them first. */
        rd_list_t later;
        rd_list_init(&later);
        while (!rd_list_empty(&rd_tcp.ready)) {
            conn_t *c = rd_list_entry(rd_tcp.ready.next, conn_t, ready);
            rd_list_remove(&c->ready);
            rd_list_push_back(&later, &c->ready);
        }
        while (!rd_list_empty(&later)) {
            conn_t *c = rd_list_entry(later.next, conn_t, ready);
            rd_list_remove(&c->ready);
            rd_list_init(&c->ready);
            if (c->state != C_CLOSED)
                events += rd_tcp_conn_read(c);
        }
        timeout_ms = 0;
    }
    if (rd_tcp.lowat && !in_gap())   /* epoll does not report its small arrivals */
        events += lowat_read(rd_tcp.lowat);
    int n = epoll_wait(rd_tcp.ep, evs, RD_TCP_EVENTS, timeout_ms);
    if (n <= 0) {
        rd_tcp_free_dead();
        return events;
    }
    for (int i = 0; i < n; i++) {
        conn_t *c = evs[i].data.ptr;
        if (!c) {
            rd_tcp_accept_all();
            continue;
        }
        if (c->state == C_CLOSED)
            continue;
        if (evs[i].events & (EPOLLOUT | EPOLLERR) && c->state != C_WAIT_HELLO)
            on_writable(c);
        if (c->state != C_CLOSED && c->state != C_CONNECTING &&
            (evs[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)))
            events += rd_tcp_conn_read(c);
    }
    rd_tcp_free_dead();
    return events;
}

/* The connection progress may read without asking epoll: the only one,
 * up, with nothing waiting to be written (so no EPOLLOUT matters). NULL
 * if there is no such connection. */
static conn_t *direct_conn(void)
{
    if (rd_tcp.nconns != 1)
        return NULL;
    conn_t *c = rd_list_entry(rd_tcp.conns.next, conn_t, link);
    if (c->state != C_UP || rd_tcp.peers[c->peer].qbytes || c->ctl_off != c->ctl_len)
        return NULL;
    return c;
}

/* Whether c's last frame took more than one segment and no other has
 * begun since: its successor probably will too (RD_TCP_ACK_LOWAT_DEFAULT). */
static int after_multi_segment(conn_t *c)
{
    const rd_tcp_parser_t *ps = &c->ps;
    if (ps->state != RD_TCP_PS_DONE)
        return 0;
    if (!c->mss) {
        int mss = 0;
        socklen_t l = sizeof(mss);
        if (getsockopt(c->fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &l) != 0 || mss <= 0)
            mss = 1 << 30;
        c->mss = (unsigned)mss;
    }
    return RD_TCP_FRAME_LEN + ps->hdrlen + ps->len > c->mss;
}

/* Reads the direct connection c, keeping acknowledgements off the round
 * trip (RD_TCP_ACK_LOWAT_DEFAULT). */
static int direct_read(conn_t *c)
{
    int n = lowat_read(c);
    if (n == 0 && rd_tcp.gap_ns && c->state == C_UP && after_multi_segment(c))
        rd_tcp.read_at = rd_clock_ns() + rd_tcp.gap_ns;
    return n;
}

static int tcp_progress(void)
{
    if (rd_tcp.in_progress)
        return RD_EINTERN;   /* called from an upcall: forbidden by transport.h */
    rd_tcp.in_progress = 1;
    /* A new burst begins: what the last one held back goes now, and the
     * next send to each peer is written at once. */
    if (!rd_list_empty(&rd_tcp.held))
        rd_tcp_flush_held();
    rd_tcp.gen++;
    int n;
    conn_t *c;
    if (rd_tcp.direct_polls < RD_TCP_DIRECT_POLLS && (c = direct_conn()) != NULL) {
        /* Edge-triggered epoll keeps the event for what we read here; the
         * next epoll pass then finds the socket empty (one read). Calls
         * within a gap read nothing and do not count. */
        n = 0;
        if (!in_gap()) {
            rd_tcp.direct_polls++;
            n = direct_read(c);
            rd_tcp_free_dead();
        }
    } else {
        rd_tcp.direct_polls = 0;
        n = poll_once(0);
    }
    if (__builtin_expect(rd_tcp.npending || !rd_list_empty(&rd_tcp.retry), 0))
        rd_tcp_run_timers();
    if (__builtin_expect(rd_tcp.nfail_report, 0)) {
        n++;
        rd_tcp_report_failures();
    }
    /* Sends the upcalls made (acknowledgements, CTS) go before we return;
     * p2p's own sends after this call start a new burst. */
    if (!rd_list_empty(&rd_tcp.held))
        rd_tcp_flush_held();
    rd_tcp.gen++;
    rd_tcp.in_progress = 0;
    return n;
}

/* ---- the transport interface ---- */

static int tcp_reachable(int peer)
{
    return rd_tcp.peers && peer >= 0 && peer < rd_tcp.size && peer != rd_tcp.rank && rd_tcp_fetch_addr(peer);
}

static int tcp_init(const rd_tp_env_t *env)
{
    memset(&rd_tcp, 0, offsetof(struct rd_tcp_state, rx));
    rd_tcp.env = *env;
    rd_tcp.rank = env->boot->rank;
    rd_tcp.size = env->boot->size;
    rd_tcp.ep = rd_tcp.lfd = -1;
    rd_list_init(&rd_tcp.conns);
    rd_list_init(&rd_tcp.dead);
    rd_list_init(&rd_tcp.ready);
    rd_list_init(&rd_tcp.hello_wait);
    rd_list_init(&rd_tcp.retry);
    long long eager = rd_env_size("RDMPI_TCP_EAGER_MAX", RD_TCP_EAGER_MAX_DEFAULT);
    if (eager < 1)
        eager = 1;
    if (eager > RD_TCP_LEN_LIMIT)
        eager = RD_TCP_LEN_LIMIT;
    rd_tcp_transport.eager_max = (size_t)eager;
    long long frag = rd_env_size("RDMPI_TCP_FRAG_MAX", RD_TCP_FRAG_MAX_DEFAULT);
    if (frag < eager)
        frag = eager;
    if (frag > RD_TCP_LEN_LIMIT)
        frag = RD_TCP_LEN_LIMIT;
    rd_tcp_transport.frag_max = (size_t)frag;
    rd_tcp.sendq_max = (size_t)rd_env_size("RDMPI_TCP_SENDQ_MAX", RD_TCP_SENDQ_MAX_DEFAULT);
    long long co = rd_env_size("RDMPI_TCP_COALESCE_MAX", RD_TCP_COALESCE_MAX_DEFAULT);
    rd_tcp.coalesce_max = co < 0 ? 0 : (size_t)co;
    long long lowat = rd_env_size("RDMPI_TCP_ACK_LOWAT", RD_TCP_ACK_LOWAT_DEFAULT);
    rd_tcp.ack_lowat = lowat <= 1 ? 0 : lowat > (1 << 30) ? (1 << 30) : (int)lowat;
    lowat = rd_env_size("RDMPI_TCP_ACK_LOWAT_BIG", RD_TCP_ACK_LOWAT_BIG_DEFAULT);
    rd_tcp.ack_lowat_big = lowat < rd_tcp.ack_lowat ? rd_tcp.ack_lowat : lowat > (1 << 30) ? (1 << 30) : (int)lowat;
    rd_tcp.small_run = 0;
    long long gap = rd_env_size("RDMPI_TCP_READ_GAP_NS", RD_TCP_READ_GAP_NS_DEFAULT);
    rd_tcp.gap_ns = gap < 0 ? 0 : gap;
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
    if (getrandom(rd_tcp.me.key, sizeof(rd_tcp.me.key), 0) != (ssize_t)sizeof(rd_tcp.me.key))
        return RD_ESYS;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof(ss);
    rd_tcp.lfd = rd_tcp_listen(&rd_tcp.me);
    if (rd_tcp.lfd < 0)
        return RD_ESYS;
    rc = RD_ESYS;
    if (getsockname(rd_tcp.lfd, (struct sockaddr *)&ss, &sl) != 0)
        goto err;
    rd_tcp.me.port = ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
                                          : ((struct sockaddr_in6 *)&ss)->sin6_port;
    rd_tcp.ep = epoll_create1(EPOLL_CLOEXEC);
    if (rd_tcp.ep < 0)
        goto err;
    struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.ptr = NULL };
    if (epoll_ctl(rd_tcp.ep, EPOLL_CTL_ADD, rd_tcp.lfd, &ev) != 0)
        goto err;
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
            poll_once(left < 100 ? (int)left : 100);
        }
        while (!rd_list_empty(&rd_tcp.conns))
            rd_tcp_conn_close(rd_list_entry(rd_tcp.conns.next, conn_t, link));
        rd_tcp_free_dead();
        for (int i = 0; i < rd_tcp.size; i++)
            rd_tcp_queue_drop(&rd_tcp.peers[i]);
        free(rd_tcp.peers);
        rd_tcp.peers = NULL;
    }
    if (rd_tcp.lfd >= 0)
        close(rd_tcp.lfd);
    if (rd_tcp.ep >= 0)
        close(rd_tcp.ep);
    rd_tcp.lfd = rd_tcp.ep = -1;
    rd_tcp.finalizing = 0;
}

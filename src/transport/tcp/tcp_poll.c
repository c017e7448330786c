/*
 * TCP progress: which connections are read when, and the SO_RCVLOWAT
 * level and read gap of the one progress reads directly. One
 * edge-triggered epoll set covers every socket and the listening one;
 * with only one connection, progress reads it without asking epoll first
 * (one syscall per arrival instead of two) and runs an epoll pass every
 * RD_TCP_DIRECT_POLLS calls. Reading itself is tcp_recv.c's; this file
 * decides when, which is where the kernel's ACK timing is tuned.
 *
 * Acknowledgements off the round trip (the direct connection only).
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
 * unlikely to land while the reader holds the socket.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "transport/tcp/tcp_int.h"
#include "util/clock.h"
#include "util/list.h"
#include "util/status.h"

/* Small frames in a row after which the direct connection goes back
 * from RDMPI_TCP_ACK_LOWAT_BIG to RDMPI_TCP_ACK_LOWAT. */
#define RD_TCP_SMALL_RUN 16
/* epoll events taken per progress call. */
#define RD_TCP_EVENTS 64
/* With a single connection, progress reads it directly (one syscall that
 * also brings the data) instead of asking epoll first (two syscalls per
 * arrival); every this many calls it still runs one epoll pass, for the
 * listening socket and anything else epoll reports. */
#define RD_TCP_DIRECT_POLLS 16

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

/* After a direct read of c that completed n frames: c's SO_RCVLOWAT for
 * the frames it now brings. */
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

/* EPOLLOUT (or an error) on c: our connect() has finished, or the socket
 * has room again for what c has to write. */
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

/* One pass over the ready sockets; timeout_ms as for epoll_wait. */
int rd_tcp_poll_once(int timeout_ms)
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
 * begun since: its successor probably will too (the read gap). */
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
 * trip. */
static int direct_read(conn_t *c)
{
    int n = lowat_read(c);
    if (n == 0 && rd_tcp.gap_ns && c->state == C_UP && after_multi_segment(c))
        rd_tcp.read_at = rd_clock_ns() + rd_tcp.gap_ns;
    return n;
}

int rd_tcp_progress(void)
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
        n = rd_tcp_poll_once(0);
    }
    if (__builtin_expect(rd_tcp.npending || !rd_list_empty(&rd_tcp.retry) || rd_tcp.starved_at, 0))
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

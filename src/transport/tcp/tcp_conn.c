/*
 * TCP connections: the listening socket and accept, connecting, the HELLO
 * that authenticates a connection and the ACK or NACK that settles which
 * of a pair's two connections carries the traffic, retries and timers,
 * and what happens when a peer is gone. Sending and receiving only use
 * connections that are up; everything before and after that is here.
 *
 * Failures: a peer whose connection ends without a BYE, or whose listening
 * socket refuses us, is gone: its queue is dropped, send() to it fails and
 * p2p hears of it through env->peer_failed at the end of the progress call
 * (so operations needing it end with an error, never a hang). To notice a
 * peer that dies before it ever connected to us, p2p calls watch() when a
 * receive names a peer we have no connection with: we connect, and a dead
 * peer refuses. Timers (only polled while armed): an accepted connection
 * that sends no HELLO within RD_TCP_HELLO_TIMEOUT_MS is closed (at most
 * RD_TCP_PENDING_MAX wait at once), and a connection the peer answered with
 * NACK (or dropped before answering) is retried after RD_TCP_RETRY_MS if
 * the peer's own never came.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "transport/tcp/tcp_int.h"
#include "util/clock.h"
#include "util/errdetail.h"
#include "util/list.h"
#include "util/status.h"

/* An accepted connection has this long to present its HELLO (ours send it
 * at once): a foreign process that connects and stays silent is dropped. */
#define RD_TCP_HELLO_TIMEOUT_MS 3000
/* Accepted connections waiting for their HELLO at once; beyond it the
 * oldest goes (a flood of silent connections cannot exhaust descriptors). */
#define RD_TCP_PENDING_MAX 64
/* After a NACK the winner's connection normally arrives within a round
 * trip; if it has not after this long, we connect again (also after our
 * HELLO went unanswered because the peer dropped the connection). */
#define RD_TCP_RETRY_MS 1000
/* accept() without a descriptor for this long: the peers that could not
 * connect fail, with the limit named (a passing shortage is waited out). */
#define RD_TCP_STARVED_MS 3000
/* Out of descriptors, an unauthenticated connection silent this long gives
 * its descriptor to the next one (a peer's HELLO comes at once). */
#define RD_TCP_EVICT_MS 200

/* The socket address of entry e with port (network byte order); returns
 * its length. */
static socklen_t sockaddr_of(const rd_tcp_ent_t *e, uint16_t port, struct sockaddr_storage *ss)
{
    memset(ss, 0, sizeof(*ss));
    if (e->family == 4) {
        struct sockaddr_in *s = (struct sockaddr_in *)ss;
        s->sin_family = AF_INET;
        s->sin_port = port;
        memcpy(&s->sin_addr, e->addr, 4);
        return sizeof(*s);
    }
    struct sockaddr_in6 *s = (struct sockaddr_in6 *)ss;
    s->sin6_family = AF_INET6;
    s->sin6_port = port;
    memcpy(&s->sin6_addr, e->addr, 16);
    return sizeof(*s);
}

void rd_tcp_no_descriptor(int err, const char *call, int peer)
{
    char who[48];
    if (peer >= 0)
        snprintf(who, sizeof(who), "the connection with rank %d", peer);
    else if (peer == -1)
        snprintf(who, sizeof(who), "a connection from another rank");
    else
        snprintf(who, sizeof(who), "the connections of this rank");
    struct rlimit rl;
    if (err == EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0)
        rd_err_detail("tcp: %s for %s failed: %s: this process has all the descriptors its "
                      "open-files limit allows (RLIMIT_NOFILE, ulimit -n: %llu) in use; raise "
                      "the limit", call, who, strerror(err), (unsigned long long)rl.rlim_cur);
    else if (err == ENFILE)
        rd_err_detail("tcp: %s for %s failed: %s: the system-wide limit of open files "
                      "(fs.file-max) is reached", call, who, strerror(err));
    else
        rd_err_detail_sys(err, "tcp: %s for %s", call, who);
}

/* A listening socket on address e and port (network byte order; 0: the
 * kernel's choice); -1 with errno set on failure. */
static int listen_on(const rd_tcp_ent_t *e, uint16_t port)
{
    struct sockaddr_storage ss;
    socklen_t sl = sockaddr_of(e, port, &ss);
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int on = 1;
    if (ss.ss_family == AF_INET6)   /* this address only, never IPv4 ones mapped into it */
        (void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof(on));
    /* An IPv6 address still in duplicate address detection (a freshly
     * configured interface) is published already: bind it anyway. */
    (void)setsockopt(fd, IPPROTO_IP, IP_FREEBIND, &on, sizeof(on));
    if (bind(fd, (struct sockaddr *)&ss, sl) != 0 || listen(fd, SOMAXCONN) != 0) {
        int e2 = errno;
        close(fd);
        errno = e2;
        return -1;
    }
    return fd;
}

/* Tries of a common port before giving up: another process may hold the
 * first socket's port on one of our other addresses. */
#define RD_TCP_LISTEN_TRIES 16

int rd_tcp_listen(const rd_tcp_addr_t *me, int *fds, uint16_t *port)
{
    for (int attempt = 0; attempt < RD_TCP_LISTEN_TRIES; attempt++) {
        uint16_t p = 0;
        int n = 0, err = 0;
        for (; n < me->count; n++) {
            int fd = listen_on(&me->ent[n], p);
            if (fd < 0) {
                err = errno;
                break;
            }
            fds[n] = fd;
            if (n == 0) {
                struct sockaddr_storage ss;
                socklen_t sl = sizeof(ss);
                if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0) {
                    err = errno;
                    n++;
                    break;
                }
                p = ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
                                            : ((struct sockaddr_in6 *)&ss)->sin6_port;
            }
        }
        if (n == me->count && !err) {
            *port = p;
            return n;
        }
        while (n-- > 0)
            close(fds[n]);
        if (err == EADDRINUSE && p != 0)
            continue;   /* the port is taken on a later address: another one */
        if (err == EMFILE || err == ENFILE)
            rd_tcp_no_descriptor(err, "socket() to listen", -2);
        else
            rd_err_detail_sys(err, "tcp: socket(), bind() or listen() of a listening socket");
        return -1;
    }
    rd_err_detail("tcp: no port was free on all of this rank's %d addresses", me->count);
    return -1;
}

static void set_nodelay(int fd)
{
    int one = 1;
    (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static conn_t *conn_new(int fd, int state, int peer)
{
    /* A second connection: progress relies on epoll again (tcp_poll.c). */
    if (rd_tcp.lowat)
        rd_tcp_set_lowat(rd_tcp.lowat, 0);
    conn_t *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->fd = fd;
    c->state = state;
    c->peer = peer;
    rd_list_init(&c->ready);
    rd_list_init(&c->wait);
    rd_tcp_parser_init(&c->ps, RD_TCP_LEN_LIMIT);
    struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLET | EPOLLRDHUP, .data.ptr = c };
    if (epoll_ctl(rd_tcp.ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
        rd_err_detail_sys(errno, "tcp: epoll_ctl(ADD) of the connection with rank %d "
                          "(fs.epoll.max_user_watches?)", peer);
        free(c);
        return NULL;
    }
    rd_list_push_back(&rd_tcp.conns, &c->link);
    rd_tcp.nconns++;
    return c;
}

/* Closes c now; the memory goes at the end of progress (events of the
 * current batch may still point at it). */
void rd_tcp_conn_close(conn_t *c)
{
    if (c->state == C_CLOSED)
        return;
    if (rd_tcp.lowat == c)
        rd_tcp.lowat = NULL;
    if (c->claimed && rd_tcp.env.claimed)
        rd_tcp.env.claimed(c->token, RD_EPEER);
    c->claimed = 0;
    close(c->fd);   /* also leaves the epoll set */
    c->fd = -1;
    c->state = C_CLOSED;
    if (c->peer >= 0 && rd_tcp.peers[c->peer].conn == c) {
        tpeer_t *p = &rd_tcp.peers[c->peer];
        p->conn = NULL;
        if (p->bye || rd_tcp.finalizing) {
            /* Finalizing, or the peer is: nothing queued will be read. */
            p->bye = 1;
            rd_tcp_queue_drop(p);
        }
    }
    if (!rd_list_empty(&c->ready)) {
        rd_list_remove(&c->ready);
        rd_list_init(&c->ready);
    }
    if (!rd_list_empty(&c->wait)) {
        rd_list_remove(&c->wait);
        rd_tcp.npending--;
    }
    rd_list_remove(&c->link);
    rd_list_push_back(&rd_tcp.dead, &c->link);
    rd_tcp.nconns--;
}

/* Connects to p again after RD_TCP_RETRY_MS unless a connection comes first. */
static void arm_retry(tpeer_t *p)
{
    if (rd_list_empty(&p->retry) && !p->conn && !p->failed) {
        p->retry_at = rd_clock_ms() + RD_TCP_RETRY_MS;
        rd_list_push_back(&rd_tcp.retry, &p->retry);
    }
}

static void unretry(tpeer_t *p)
{
    if (!rd_list_empty(&p->retry)) {
        rd_list_remove(&p->retry);
        rd_list_init(&p->retry);
    }
}

/* peer is gone before finalizing (what says how), or cannot be reached
 * for want of a resource: nothing queued for it will leave, sends to it
 * fail, and p2p hears of it (with status) at the end of this progress call.
 * Without that upcall the job ends here, naming both ranks. */
static void fail_peer_status(int peer, const char *what, int status)
{
    tpeer_t *p = &rd_tcp.peers[peer];
    if (p->failed || p->bye || rd_tcp.finalizing)
        return;
    if (!rd_tcp.env.peer_failed) {
        char msg[256];
        snprintf(msg, sizeof(msg), "rdmpi: rank %d: TCP connection to rank %d lost (%s) "
                 "before rank %d finalized", rd_tcp.rank, peer, what, peer);
        rd_boot_abort(1, msg);
    }
    p->failed = 1;
    p->fail_report = 1;
    p->fail_status = status;
    rd_tcp.nfail_report++;
    unretry(p);
    if (p->conn)
        rd_tcp_conn_close(p->conn);
    rd_tcp_queue_drop(p);
}

static void fail_peer(int peer, const char *what)
{
    fail_peer_status(peer, what, RD_EPEER);
}

/* Tells p2p about the peers that failed since the last call (outside any
 * parse loop, so the upcall may send). */
void rd_tcp_report_failures(void)
{
    for (int i = 0; i < rd_tcp.size && rd_tcp.nfail_report; i++)
        if (rd_tcp.peers[i].fail_report) {
            rd_tcp.peers[i].fail_report = 0;
            rd_tcp.nfail_report--;
            rd_tcp.env.peer_failed(i, rd_tcp.peers[i].fail_status);
        }
}

/* The connection to peer ended (what says how). Before finalize that is a
 * dead rank, unless it ended before the peer answered our HELLO: then the
 * peer dropped it unread (we were too slow to send the HELLO, see
 * RD_TCP_HELLO_TIMEOUT_MS, or too many were waiting) and we connect again;
 * a dead peer then refuses. */
void rd_tcp_peer_lost(conn_t *c, const char *what)
{
    int peer = c->peer;
    /* Only the connection carrying the peer's traffic matters; a losing
     * duplicate or an unauthenticated one just goes. */
    int current = peer >= 0 && rd_tcp.peers[peer].conn == c;
    int dialing = c->state == C_HELLO_SENT;
    rd_tcp_conn_close(c);
    if (current && dialing)
        arm_retry(&rd_tcp.peers[peer]);
    else if (current)
        fail_peer(peer, what);
}

static void ctl_frame(conn_t *c, int type, const void *body, size_t bodylen)
{
    rd_tcp_frame_t f = { .type = (uint8_t)type, .version = RD_TCP_WIRE_VERSION,
                         .hdrlen = htole16((uint16_t)bodylen), .len = 0 };
    memcpy(c->ctl, &f, sizeof(f));
    if (bodylen)
        memcpy(c->ctl + sizeof(f), body, bodylen);
    c->ctl_len = sizeof(f) + bodylen;
    c->ctl_off = 0;
}

int rd_tcp_fetch_addr(int peer)
{
    tpeer_t *p = &rd_tcp.peers[peer];
    if (p->have_addr)
        return 1;
    size_t len = sizeof(p->addr);
    if (rd_boot_get(peer, RD_TCP_BOOT_KEY, &p->addr, &len) != RD_OK ||
        len < RD_TCP_ADDR_LEN(1) || p->addr.version != RD_TCP_WIRE_VERSION ||
        p->addr.count < 1 || p->addr.count > RD_TCP_ADDRS_MAX ||
        len != RD_TCP_ADDR_LEN(p->addr.count))
        return 0;
    for (int i = 0; i < p->addr.count; i++)
        if (p->addr.ent[i].family != 4 && p->addr.ent[i].family != 6)
            return 0;
    len = sizeof(p->key);
    if (!rd_tcp.job_key && (rd_boot_get(peer, RD_TCP_BOOT_SECRET, p->key, &len) != RD_OK ||
                            len != sizeof(p->key)))
        return 0;
    p->have_addr = 1;
    return 1;
}

/* Does peer run on our node? */
static int same_node(int peer)
{
    const rd_boot_info_t *b = rd_tcp.env.boot;
    for (int i = 0; i < b->local_size; i++)
        if (b->local_ranks[i] == peer)
            return 1;
    return 0;
}

/* Opens the connection to peer and queues its HELLO. */
int rd_tcp_connect(int peer)
{
    tpeer_t *p = &rd_tcp.peers[peer];
    if (!rd_tcp_fetch_addr(peer))
        return RD_EPEER;
    struct sockaddr_storage ss;
    int k = rd_tcp_addr_pick(rd_tcp.me.ent, rd_tcp.me.count, p->addr.ent, p->addr.count,
                             same_node(peer));
    socklen_t sl = sockaddr_of(&p->addr.ent[k], p->addr.port, &ss);
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        rd_tcp_no_descriptor(errno, "socket()", peer);
        return RD_ESYS;
    }
    set_nodelay(fd);
    int state = C_HELLO_SENT;
    if (connect(fd, (struct sockaddr *)&ss, sl) != 0) {
        if (errno != EINPROGRESS) {
            /* Refused: its listening socket is gone, so is it. */
            fail_peer(peer, strerror(errno));
            close(fd);
            return RD_EPEER;
        }
        state = C_CONNECTING;
    }
    conn_t *c = conn_new(fd, state, peer);
    if (!c) {
        close(fd);
        return RD_ESYS;
    }
    rd_tcp_hello_t h = { .magic = htole32(RD_TCP_HELLO_MAGIC),
                         .src = (int32_t)htole32((uint32_t)rd_tcp.rank),
                         .dst = (int32_t)htole32((uint32_t)peer), .reserved = 0 };
    memcpy(h.key, rd_tcp.key, sizeof(h.key));
    ctl_frame(c, RD_TCP_F_HELLO, &h, sizeof(h));
    p->conn = c;
    unretry(p);
    if (state == C_HELLO_SENT)
        rd_tcp_conn_flush(c);
    return RD_OK;
}

/* Connects to peer for a caller that cannot return an error (a receive
 * waiting for it, a retry): a connection that cannot be made for want of
 * a resource fails the peer with the reason recorded, so what waits for
 * it ends with that error instead of waiting forever. */
static void connect_or_fail(int peer)
{
    int rc = rd_tcp_connect(peer);
    if (rc != RD_OK && rc != RD_EPEER)
        fail_peer_status(peer, rd_err_detail_peek(), rc);
}

/* accept() found no descriptor (err: EMFILE, ENFILE). An unauthenticated
 * connection silent for RD_TCP_EVICT_MS gives its up (the oldest; one just
 * accepted has its HELLO read first): returns 1, try again. Without any,
 * our own connections hold every descriptor. The listening
 * socket reports a pending connection once (edge-triggered), so accept is
 * tried again at every progress call while starved (rd_tcp_run_timers): a
 * descriptor we close (a NACKed connection) lets it in. Starved for
 * RD_TCP_STARVED_MS, each peer we have no working connection with fails
 * with the reason recorded, rather than be waited for forever (its own
 * connection waits in our backlog, ours maybe in its); returns 0. */
static int accept_starved(int err)
{
    long now = rd_clock_ms();
    if (!rd_list_empty(&rd_tcp.hello_wait)) {
        conn_t *old = rd_list_entry(rd_tcp.hello_wait.next, conn_t, wait);
        if (now - (old->deadline - RD_TCP_HELLO_TIMEOUT_MS) >= RD_TCP_EVICT_MS) {
            rd_tcp_conn_close(old);
            return 1;
        }
    }
    if (!rd_tcp.starved_at)
        rd_tcp.starved_at = now;
    if (now - rd_tcp.starved_at < RD_TCP_STARVED_MS)
        return 0;
    rd_tcp_no_descriptor(err, "accept()", -1);
    for (int i = 0; i < rd_tcp.size; i++) {
        tpeer_t *p = &rd_tcp.peers[i];
        if (i != rd_tcp.rank && (!p->conn || p->conn->state != C_UP) && !p->failed && !p->bye)
            fail_peer_status(i, rd_err_detail_peek(), RD_ESYS);
    }
    return 0;
}

void rd_tcp_accept_all(void)
{
    int starved = 0;
    for (int lk = 0; lk < rd_tcp.nlfd && !starved; lk++) {
        for (;;) {
            int fd = accept4(rd_tcp.lfd[lk], NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd < 0) {
                if (errno == EINTR || errno == ECONNABORTED)
                    continue;
                if ((errno == EMFILE || errno == ENFILE) && !(starved = !accept_starved(errno)))
                    continue;
                break;   /* EAGAIN: this socket is drained; or starved */
            }
            set_nodelay(fd);
            if (rd_tcp.npending >= RD_TCP_PENDING_MAX)
                rd_tcp_conn_close(rd_list_entry(rd_tcp.hello_wait.next, conn_t, wait));
            conn_t *c = conn_new(fd, C_WAIT_HELLO, -1);
            if (!c) {
                close(fd);
                continue;
            }
            c->deadline = rd_clock_ms() + RD_TCP_HELLO_TIMEOUT_MS;
            rd_list_push_back(&rd_tcp.hello_wait, &c->wait);
            rd_tcp.npending++;
        }
    }
    if (!starved)
        rd_tcp.starved_at = 0;
}

/* Silent accepted connections past their deadline go; NACKed peers whose
 * connection never came are connected again; a starved accept is tried
 * again. */
void rd_tcp_run_timers(void)
{
    if (rd_tcp.starved_at)
        rd_tcp_accept_all();
    long now = rd_clock_ms();
    while (!rd_list_empty(&rd_tcp.hello_wait)) {
        conn_t *c = rd_list_entry(rd_tcp.hello_wait.next, conn_t, wait);
        if (c->deadline - now > 0)
            break;
        rd_tcp_conn_close(c);
    }
    rd_list_t *pos, *tmp;
    rd_list_for_each_safe(pos, tmp, &rd_tcp.retry) {
        tpeer_t *p = rd_list_entry(pos, tpeer_t, retry);
        if (p->retry_at - now > 0)
            continue;
        unretry(p);
        if (!p->conn && !p->failed && !p->bye && !rd_tcp.finalizing)
            connect_or_fail((int)(p - rd_tcp.peers));
    }
}

/* Closes c, the connection of its pair that lost (tcp_wire.h: the lower
 * rank's wins), or was refused by NACK. Unhooked from its peer first: its
 * peer's queue stays for the connection that carries on, and a close while
 * finalizing must not count as the peer's BYE (rd_tcp_conn_close takes it
 * so for the peer's own connection), which would drop the queue, BYE
 * included, and let finalize close the winner without a BYE. */
static void close_loser(conn_t *c)
{
    if (c->peer >= 0 && rd_tcp.peers[c->peer].conn == c)
        rd_tcp.peers[c->peer].conn = NULL;
    rd_tcp_conn_close(c);
}

/* Constant-time comparison: a wrong key takes as long however much matched. */
static int key_equal(const uint8_t *a, const uint8_t *b)
{
    unsigned d = 0;
    for (int i = 0; i < RD_TCP_KEY_LEN; i++)
        d |= (unsigned)(a[i] ^ b[i]);
    return d == 0;
}

/* HELLO on an incoming connection: authenticate, then settle which of the
 * pair's connections carries the traffic (tcp_wire.h). */
static void on_hello(conn_t *c)
{
    rd_tcp_hello_t h;
    memcpy(&h, rd_tcp_parser_hdr(&c->ps), sizeof(h));
    int src = (int32_t)le32toh((uint32_t)h.src);
    int dst = (int32_t)le32toh((uint32_t)h.dst);
    if (le32toh(h.magic) != RD_TCP_HELLO_MAGIC || dst != rd_tcp.rank || src < 0 ||
        src >= rd_tcp.size || src == rd_tcp.rank || !rd_tcp_fetch_addr(src) ||
        !key_equal(h.key, rd_tcp.job_key ? rd_tcp.key : rd_tcp.peers[src].key)) {
        rd_tcp_conn_close(c);   /* not one of ours: no answer */
        return;
    }
    tpeer_t *p = &rd_tcp.peers[src];
    if (!rd_list_empty(&c->wait)) {
        rd_list_remove(&c->wait);
        rd_list_init(&c->wait);
        rd_tcp.npending--;
    }
    if (p->failed) {
        rd_tcp_conn_close(c);   /* too late: p2p has failed what needed it */
        return;
    }
    conn_t *old = p->conn;
    if (old && (old->state == C_UP || src > rd_tcp.rank)) {
        /* Ours wins: tell the peer so it waits for ours instead. */
        ctl_frame(c, RD_TCP_F_NACK, NULL, 0);
        (void)send(c->fd, c->ctl, c->ctl_len, MSG_NOSIGNAL | MSG_DONTWAIT);
        rd_tcp_conn_close(c);
        return;
    }
    if (old)
        close_loser(old);   /* the lower rank's connection wins */
    c->peer = src;
    c->state = C_UP;
    p->conn = c;
    unretry(p);
    ctl_frame(c, RD_TCP_F_ACK, NULL, 0);
    if (rd_tcp.finalizing && !p->bye_queued) {
        rd_tcp_frame_t f = { .type = RD_TCP_F_BYE, .version = RD_TCP_WIRE_VERSION };
        if (rd_tcp_enqueue(p, &f, NULL, 0, NULL, 0, 0) != RD_OK) {
            rd_tcp_conn_close(c);
            return;
        }
        p->bye_queued = 1;
    }
    rd_tcp_conn_flush(c);
}

/* A whole frame on a connection that is not up yet: HELLO on an accepted
 * one, ACK or NACK on ours. Returns -1 if c was closed. */
int rd_tcp_on_handshake(conn_t *c)
{
    const rd_tcp_parser_t *ps = &c->ps;
    switch (c->state) {
    case C_WAIT_HELLO:
        if (ps->type != RD_TCP_F_HELLO) {
            rd_tcp_conn_close(c);
            return -1;
        }
        on_hello(c);
        return c->state == C_CLOSED ? -1 : 0;
    case C_HELLO_SENT:
        if (ps->type == RD_TCP_F_ACK) {
            c->state = C_UP;
            return rd_tcp_conn_flush(c);
        }
        if (ps->type == RD_TCP_F_NACK) {
            /* The peer's own connection is on its way and will carry the
             * queue; should it never come (the peer died first), connect
             * again later: a dead peer then refuses. */
            tpeer_t *p = &rd_tcp.peers[c->peer];
            close_loser(c);
            arm_retry(p);
            return -1;
        }
        break;
    default:
        break;
    }
    rd_tcp_peer_lost(c, "protocol error");
    return -1;
}

/* p2p waits for a message from peer: make sure a connection exists, so a
 * peer that died before connecting to us is noticed (it refuses). */
void rd_tcp_watch(int peer)
{
    if ((unsigned)peer >= (unsigned)rd_tcp.size || !rd_tcp.peers || peer == rd_tcp.rank)
        return;
    tpeer_t *p = &rd_tcp.peers[peer];
    if (p->conn || p->failed || p->bye || rd_tcp.finalizing || !rd_list_empty(&p->retry))
        return;
    connect_or_fail(peer);
}

/*
 * mpirun's single event loop, the same on the head and on a daemon. One
 * poll waits for everything: the signalfd (mpirun's signals, SIGCHLD),
 * the PMIx server's events, the connections between the head and its
 * daemons, the ranks' stdio, and the nearest deadline. Each turn hands
 * what arrived to the part of the job it belongs to, and the loop ends
 * when the job is over (see finished()).
 */
#include "loop.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "head.h"
#include "iof.h"
#include "ranks.h"
#include "uplink.h"
#include "boot/boot.h"
#include "util/clock.h"

/* What one pollfd entry stands for, beyond the fixed ones. */
typedef enum { NET_LISTEN, NET_PENDING, NET_REMOTE, NET_HEAD } net_kind_t;
typedef struct rd_mpirun_net_slot {
    net_kind_t kind;
    int index;
} net_slot_t;

int rd_mpirun_loop_init(rd_mpirun_loop_t *l, const rd_mpirun_job_t *j)
{
    /* signalfd, server; listener, pending, daemons, head; stdio (with stdin). */
    l->maxfds = 2 + 1 + RD_MPIRUN_PENDING_MAX + j->plan->nhosts + 1 + 2 * j->np + 2;
    l->pfd = calloc((size_t)l->maxfds, sizeof(*l->pfd));
    l->slot = calloc((size_t)l->maxfds, sizeof(*l->slot));
    return l->pfd && l->slot ? 0 : -1;
}

void rd_mpirun_loop_fini(rd_mpirun_loop_t *l)
{
    free(l->pfd);
    free(l->slot);
}

static void handle_signals(rd_mpirun_job_t *j)
{
    struct signalfd_siginfo si;
    char why[160];

    while (read(j->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
        int sig = (int)si.ssi_signo, to_ranks = rd_mpirun_job_signal_for_ranks(sig);
        if (sig == SIGCHLD)
            continue;           /* reaped below, whatever the count */
        if (rd_mpirun_job_signal_forwarded(sig)) {
            /* The ranks decide; whether they end is judged as usual. */
            rd_mpirun_procs_signal(j->procs, j->np, sig);
            if (!j->is_daemon)
                rd_mpirun_head_signal(j, sig);
            continue;
        }
        if (j->is_daemon) {
            snprintf(why, sizeof(why), "the daemon on host %s received signal %d (%s)",
                     rd_mpirun_job_host(j, j->plan->self), sig, strsignal(sig));
            if (j->state == RD_MPIRUN_JOB_RUNNING)
                rd_mpirun_uplink_report(j, 128 + sig, why);
            rd_mpirun_procs_signal(j->procs, j->np,
                                   j->state == RD_MPIRUN_JOB_RUNNING ? to_ranks : SIGKILL);
        } else if (j->state == RD_MPIRUN_JOB_RUNNING) {
            if (to_ranks == sig)
                snprintf(why, sizeof(why), "received signal %d (%s), forwarded to the ranks",
                         sig, strsignal(sig));
            else
                snprintf(why, sizeof(why), "received signal %d (%s)", sig, strsignal(sig));
            rd_mpirun_job_fail(j, 128 + sig, to_ranks, why);
        } else {
            /* Asked again: no more grace. */
            rd_mpirun_procs_signal(j->procs, j->np, SIGKILL);
            rd_mpirun_head_stop(j, SIGKILL);
        }
    }
    rd_mpirun_procs_reap(j->procs, j->np, rd_mpirun_ranks_exited, rd_mpirun_head_agent_exit, j);
}

static void handle_deadlines(rd_mpirun_job_t *j)
{
    long long now = rd_clock_ms();
    char why[512];
    int ping;

    if (j->timeout_at && now >= j->timeout_at) {
        j->timeout_at = 0;
        snprintf(why, sizeof(why), "the job timed out after %ld second%s",
                 j->opts->timeout, j->opts->timeout == 1 ? "" : "s");
        if (!j->where_asked && j->state == RD_MPIRUN_JOB_RUNNING) {
            /* First each rank says where it is blocked (src/api/crash.c),
             * then the job ends. */
            j->where_asked = 1;
            fprintf(stderr, "mpirun: %s; asking each rank where it is blocked\n", why);
            rd_mpirun_procs_signal(j->procs, j->np, RD_BOOT_WHERE_SIGNAL);
            rd_mpirun_head_signal(j, RD_BOOT_WHERE_SIGNAL);
            j->timeout_at = now + RD_MPIRUN_WHERE_WAIT_MS;
        } else {
            rd_mpirun_job_fail(j, RD_MPIRUN_EXIT_TIMEOUT, SIGTERM, why);
        }
    }
    if (j->kill_at && now >= j->kill_at) {
        j->kill_at = 0;
        rd_mpirun_procs_signal(j->procs, j->np, SIGKILL);
    }
    ping = now >= j->ping_at;
    if (ping)
        j->ping_at = now + RD_MPIRUN_PING_MS;
    if (j->is_daemon)
        rd_mpirun_uplink_deadlines(j, now, ping);
    else
        rd_mpirun_head_deadlines(j, now, ping);
}

/* Poll timeout until the nearest deadline. */
static int poll_timeout(const rd_mpirun_job_t *j)
{
    long long next = 0, now = rd_clock_ms();
    const long long d[] = { j->timeout_at, j->kill_at, j->drain_at, j->agents_kill_at,
                            j->nrem || j->is_daemon ? j->ping_at : 0 };

    for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
        if (d[i] && (!next || d[i] < next))
            next = d[i];
    if (!next)
        return -1;
    return next <= now ? 0 : (int)(next - now);
}

static int fill_net(rd_mpirun_job_t *j, struct pollfd *pfd, net_slot_t *slot)
{
    int n = 0;

    if (j->head && j->head->lfd >= 0) {
        pfd[n] = (struct pollfd){ .fd = j->head->lfd, .events = POLLIN };
        slot[n++] = (net_slot_t){ NET_LISTEN, 0 };
    }
    for (int i = 0; i < RD_MPIRUN_PENDING_MAX && j->head; i++) {
        if (j->pend[i].conn.fd < 0)
            continue;
        pfd[n] = (struct pollfd){ .fd = j->pend[i].conn.fd, .events = POLLIN };
        slot[n++] = (net_slot_t){ NET_PENDING, i };
    }
    for (int i = 0; i < j->nrem; i++) {
        if (j->rem[i].conn.fd < 0)
            continue;
        pfd[n] = (struct pollfd){ .fd = j->rem[i].conn.fd, .events = POLLIN };
        slot[n++] = (net_slot_t){ NET_REMOTE, i };
    }
    if (j->up && j->up->fd >= 0) {
        pfd[n] = (struct pollfd){ .fd = j->up->fd, .events = POLLIN };
        slot[n++] = (net_slot_t){ NET_HEAD, 0 };
    }
    return n;
}

static void read_conn(rd_mpirun_job_t *j, const net_slot_t *s)
{
    rd_mpirun_conn_t *c;
    rd_mpirun_wire_hdr_t h;
    const char *payload;
    int rc = 0, eof;

    switch (s->kind) {
    case NET_LISTEN:
        rd_mpirun_head_accept(j);
        return;
    case NET_PENDING: c = &j->pend[s->index].conn; break;
    case NET_REMOTE: c = &j->rem[s->index].conn; break;
    default: c = j->up; break;
    }
    eof = rd_mpirun_conn_read(c, rd_clock_ms()) != 0;
    /* Messages already received count even when the connection then broke. */
    while (c->fd >= 0 && (rc = rd_mpirun_conn_next(c, &h, &payload)) != 0) {
        if (rc < 0)
            break;
        if (s->kind == NET_PENDING) {
            if (h.type == RD_MPIRUN_MSG_HELLO)
                rd_mpirun_head_hello(j, &j->pend[s->index], &h, payload);
            else
                rd_mpirun_conn_close(c);
            return;
        } else if (s->kind == NET_REMOTE) {
            rd_mpirun_head_message(j, &j->rem[s->index], &h, payload);
        } else {
            rd_mpirun_uplink_message(j, &h, payload);
        }
    }
    if (c->fd < 0)
        return;
    if (!eof && rc == 0)
        return;
    const char *what = rc < 0 ? "malformed message" : errno ? strerror(errno) : "connection closed";
    if (s->kind == NET_PENDING)
        rd_mpirun_conn_close(c);
    else if (s->kind == NET_REMOTE)
        rd_mpirun_head_lose(j, &j->rem[s->index], what);
    else {
        char why[256];
        snprintf(why, sizeof(why), "lost the connection to mpirun (%s)", what);
        rd_mpirun_uplink_lose(j, why);
    }
}

/* Whether the loop is over; starts the last steps as they come due. */
static int finished(rd_mpirun_job_t *j)
{
    if (j->alive == 0 && !j->local_over) {
        if (!j->drain_at) {
            /* Whatever the ranks left running would outlive the job
             * and hold their output pipes open. */
            rd_mpirun_procs_signal(j->procs, j->np, SIGKILL);
            j->drain_at = rd_clock_ms() + RD_MPIRUN_DRAIN_MS;
        }
        if (rd_mpirun_iof_open_outputs() == 0 || rd_clock_ms() >= j->drain_at) {
            j->local_over = 1;
            j->drain_at = 0;
            if (j->is_daemon)
                rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_DONE, 0, NULL);
        }
    }
    if (!j->local_over)
        return 0;
    return rd_mpirun_head_daemons_over(j);
}

void rd_mpirun_loop_run(rd_mpirun_job_t *j, rd_mpirun_loop_t *l)
{
    struct pollfd *pfd = l->pfd;
    net_slot_t *slot = l->slot;
    int maxfds = l->maxfds;

    for (;;) {
        if (finished(j))
            break;
        pfd[0] = (struct pollfd){ .fd = j->sfd, .events = POLLIN };
        pfd[1] = (struct pollfd){ .fd = rd_mpirun_server_fd(), .events = POLLIN };
        int nnet = fill_net(j, pfd + 2, slot);
        int nio = rd_mpirun_iof_fill(pfd + 2 + nnet, maxfds - 2 - nnet);
        if (poll(pfd, (nfds_t)(2 + nnet + nio), poll_timeout(j)) < 0 && errno != EINTR) {
            perror("mpirun: poll");
            break;
        }
        /* Server events first: a rank's "finalized" is queued before the
         * rank can exit, so it is known when its exit is handled. */
        rd_mpirun_ranks_events(j);
        for (int i = 0; i < nnet; i++)
            if (pfd[2 + i].revents)
                read_conn(j, &slot[i]);
        handle_signals(j);
        rd_mpirun_iof_handle(pfd + 2 + nnet, nio);
        handle_deadlines(j);
    }
}

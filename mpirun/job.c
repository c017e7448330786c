/*
 * The job's life and mpirun's single event loop (see job.h).
 *
 * States: RUNNING until the first failure (a rank killed by a signal, a rank
 * that connected to PMIx and exited without finalizing, MPI_Abort, the
 * timeout, a signal to mpirun, a lost host daemon); then STOPPING: the
 * ranks' process groups got SIGTERM (or the signal mpirun received) and get
 * SIGKILL when the grace runs out; the head tells every daemon to do the
 * same with its ranks. Either way the loop ends once every rank is reaped,
 * their output is drained, and (on the head) every daemon is done or gone.
 * The first failure decides the exit status; without one it is the first
 * non-zero exit status of a rank.
 *
 * Fences: every host's PMIx server hands its local ranks' contribution to
 * its loop; daemons send theirs to the head, which concatenates all of
 * them in host order and sends the result back to every daemon; each
 * server then completes the fence for its ranks. Ranks only make global
 * fences, one at a time, so one fence is in flight at any moment.
 */
#include "job.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guard.h"
#include "iof.h"
#include "launch.h"
#include "procs.h"
#include "server.h"
#include "util/clock.h"
#include "util/env.h"

/* Connections accepted and not yet identified by their HELLO. */
#define RD_MPIRUN_PENDING_MAX 16
/* How long an accepted connection may take to say HELLO, in ms. */
#define RD_MPIRUN_HELLO_MS 5000

typedef enum job_state {
    RD_MPIRUN_JOB_RUNNING,
    RD_MPIRUN_JOB_STOPPING,
} job_state_t;

/* A host daemon, as the head sees it. */
typedef enum remote_state {
    RD_MPIRUN_REMOTE_LAUNCHED,        /* agent started, not connected yet */
    RD_MPIRUN_REMOTE_STARTING,        /* connected, job sent, starting its ranks */
    RD_MPIRUN_REMOTE_UP,              /* said READY: running its ranks */
    RD_MPIRUN_REMOTE_DONE,            /* said DONE: all its ranks ended */
    RD_MPIRUN_REMOTE_GONE,            /* failed or lost */
} remote_state_t;

typedef struct remote {
    int host;               /* index in the plan */
    pid_t agent;            /* launch agent, 0 once reaped */
    remote_state_t state;
    rd_mpirun_conn_t conn;
    long long launched_at;
} rd_mpirun_remote_t;

typedef struct pending {
    rd_mpirun_conn_t conn;
    long long since;
} rd_mpirun_pending_t;

typedef struct job {
    const rd_mpirun_opts_t *opts;
    const rd_mpirun_plan_t *plan;
    const char *path;
    int is_daemon;
    rd_mpirun_proc_t *procs;    /* np entries; ours are those of host plan->self */
    int np;
    int alive;              /* ranks started and not reaped */
    job_state_t state;
    int exit_status;        /* decided by the first failure */
    int first_nonzero;      /* first non-zero exit status of a rank */
    int sfd;                /* signalfd */
    long long timeout_at;   /* ms deadlines on CLOCK_MONOTONIC; 0 = none */
    long long kill_at;
    long long drain_at;
    long long ping_at;
    long long agents_kill_at;
    long long heartbeat_ms; /* silence after which a connection is lost */
    int local_over;         /* our ranks are reaped and their output drained */
    /* head */
    const rd_mpirun_head_cfg_t *head;
    rd_mpirun_remote_t *rem;
    int nrem;
    rd_mpirun_pending_t pend[RD_MPIRUN_PENDING_MAX];
    /* daemon */
    rd_mpirun_conn_t *up;   /* to the head; fd -1 once lost */
    /* the fence in flight */
    rd_mpirun_event_t *fence_ev;    /* our server's, waiting for the result */
    uint32_t fence_seq;
    char **fence_part;              /* head: each host's contribution */
    size_t *fence_len;
    int fence_have;
} rd_mpirun_job_t;

long long rd_mpirun_heartbeat_timeout_ms(void)
{
    long s = rd_env_long("RDMPI_HEARTBEAT_TIMEOUT", RD_MPIRUN_HEARTBEAT_TIMEOUT_S);

    if (s < RD_MPIRUN_HEARTBEAT_TIMEOUT_MIN_S || s > RD_MPIRUN_HEARTBEAT_TIMEOUT_MAX_S) {
        fprintf(stderr, "mpirun: RDMPI_HEARTBEAT_TIMEOUT=%ld is out of range (%d to %d seconds); "
                "using %d\n", s, RD_MPIRUN_HEARTBEAT_TIMEOUT_MIN_S,
                RD_MPIRUN_HEARTBEAT_TIMEOUT_MAX_S, RD_MPIRUN_HEARTBEAT_TIMEOUT_S);
        s = RD_MPIRUN_HEARTBEAT_TIMEOUT_S;
    }
    return (long long)s * 1000;
}

/* A daemon waits longer than the head before giving up on a silent
 * connection, so that when a link fails the head, which decides and
 * explains, is the one that notices. */
static long long daemon_silence_ms(long long heartbeat_ms)
{
    return heartbeat_ms + heartbeat_ms / 4 + 3 * RD_MPIRUN_PING_MS;
}

/* A daemon connected to the head (messages can be sent to it). */
static int rd_mpirun_remote_connected(const rd_mpirun_remote_t *r)
{
    return r->state == RD_MPIRUN_REMOTE_STARTING || r->state == RD_MPIRUN_REMOTE_UP;
}

/* The signals the loop reads from its signalfd, fixed at startup. */
static sigset_t handled;

int rd_mpirun_job_block_signals(void)
{
    static const int asks_to_stop[] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa;

    sigemptyset(&handled);
    sigaddset(&handled, SIGCHLD);
    /* A signal mpirun was started with ignored (nohup, or SIGINT for a
     * background job of a script) stays ignored, for the ranks too. */
    for (size_t i = 0; i < sizeof(asks_to_stop) / sizeof(asks_to_stop[0]); i++) {
        if (sigaction(asks_to_stop[i], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
            sigaddset(&handled, asks_to_stop[i]);
    }
    /* Writes to a rank that is gone must fail with EPIPE, not kill us. */
    signal(SIGPIPE, SIG_IGN);
    return sigprocmask(SIG_BLOCK, &handled, NULL);
}

static const char *rd_mpirun_job_host(const rd_mpirun_job_t *j, int h)
{
    return j->plan->hosts[h].name;
}

/* " on host NAME" in messages about ranks, when the job spans hosts. */
static void where(const rd_mpirun_job_t *j, int rank, char *buf, size_t len)
{
    if (j->nrem > 0)
        snprintf(buf, len, " on host %s", rd_mpirun_job_host(j, j->plan->host_of[rank]));
    else
        buf[0] = '\0';
}

/* Stops our own ranks: sig to their process groups, SIGKILL after the grace. */
static void rd_mpirun_job_stop_local(rd_mpirun_job_t *j, int sig)
{
    if (j->state != RD_MPIRUN_JOB_RUNNING)
        return;
    j->state = RD_MPIRUN_JOB_STOPPING;
    rd_mpirun_procs_signal(j->procs, j->np, sig);
    j->kill_at = rd_clock_ms() + RD_MPIRUN_KILL_GRACE_MS;
}

static void rd_mpirun_head_stop(rd_mpirun_job_t *j, int sig)
{
    uint32_t s = (uint32_t)sig;
    for (int i = 0; i < j->nrem; i++)
        if (rd_mpirun_remote_connected(&j->rem[i]))
            rd_mpirun_conn_send(&j->rem[i].conn, RD_MPIRUN_MSG_STOP, 0, &s, sizeof(s));
}

/* Ends the job after its first failure (head): says why once, sends sig
 * to every rank's process group, here and through the daemons. Later
 * failures are consequences of this one and are not reported. */
static void rd_mpirun_job_fail(rd_mpirun_job_t *j, int status, int sig, const char *why)
{
    if (j->state != RD_MPIRUN_JOB_RUNNING)
        return;
    fprintf(stderr, "mpirun: %s; stopping the job\n", why);
    j->exit_status = status;
    rd_mpirun_job_stop_local(j, sig);
    rd_mpirun_head_stop(j, sig);
}

/* ---- Messages to the head (daemon) ------------------------------------- */

static void rd_mpirun_uplink_lose(rd_mpirun_job_t *j, const char *why)
{
    if (j->up->fd < 0)
        return;
    rd_mpirun_conn_close(j->up);
    fprintf(stderr, "mpirun: host daemon on %s: %s; stopping its ranks\n",
            rd_mpirun_job_host(j, j->plan->self), why);
    rd_mpirun_job_stop_local(j, SIGTERM);
}

static void rd_mpirun_uplink_send(rd_mpirun_job_t *j, rd_mpirun_msg_t type, uint32_t arg, const rd_mpirun_pack_t *p)
{
    if (j->up->fd < 0)
        return;
    if (p && p->err) {
        rd_mpirun_uplink_lose(j, "out of memory");
        return;
    }
    if (rd_mpirun_conn_send(j->up, type, arg, p ? p->buf : NULL, p ? p->len : 0) != 0)
        rd_mpirun_uplink_lose(j, "the connection to mpirun broke");
}

/* Daemon: the head decides; tell it what went wrong here. */
static void rd_mpirun_uplink_report(rd_mpirun_job_t *j, int status, const char *why)
{
    rd_mpirun_pack_t p = { 0 };
    rd_mpirun_pack_u32(&p, (uint32_t)status);
    rd_mpirun_pack_str(&p, why);
    rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_ERROR, 0, &p);
    free(p.buf);
    rd_mpirun_job_stop_local(j, SIGTERM);
}

static void rd_mpirun_job_fail_or_report(rd_mpirun_job_t *j, int status, const char *why)
{
    if (j->is_daemon)
        rd_mpirun_uplink_report(j, status, why);
    else
        rd_mpirun_job_fail(j, status, SIGTERM, why);
}

static void rd_mpirun_uplink_output(int rank, int stream, const char *data, size_t len, void *arg)
{
    rd_mpirun_job_t *j = arg;
    rd_mpirun_pack_t p = { 0 };
    rd_mpirun_pack_u32(&p, (uint32_t)stream);
    rd_mpirun_pack_bytes(&p, data, len);
    rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_OUT, (uint32_t)rank, &p);
    free(p.buf);
}

/* Daemon of rank 0's host: the head may send n more bytes of stdin. */
static void rd_mpirun_uplink_stdin_credit(size_t n, int closed, void *arg)
{
    rd_mpirun_job_t *j = arg;
    rd_mpirun_pack_t p = { 0 };
    rd_mpirun_pack_u32(&p, (uint32_t)closed);
    rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_CREDIT, (uint32_t)n, &p);
    free(p.buf);
}

static void rd_mpirun_head_lose(rd_mpirun_job_t *j, rd_mpirun_remote_t *r, const char *what);

static rd_mpirun_remote_t *remote_of_host(rd_mpirun_job_t *j, int host)
{
    for (int i = 0; i < j->nrem; i++)
        if (j->rem[i].host == host)
            return &j->rem[i];
    return NULL;
}

/* Head: our stdin on its way to rank 0's host (within its credit). */
static void rd_mpirun_head_stdin(const char *data, size_t len, void *arg)
{
    rd_mpirun_job_t *j = arg;
    rd_mpirun_remote_t *r = remote_of_host(j, j->plan->host_of[0]);

    if (r && rd_mpirun_remote_connected(r) &&
        rd_mpirun_conn_send(&r->conn, RD_MPIRUN_MSG_STDIN, 0, data, len) != 0)
        rd_mpirun_head_lose(j, r, "sending failed");
}

/* ---- Rank ends and aborts ------------------------------------------------ */

/* Head: a rank's process ended (here or on another host): was it a failure? */
static void rd_mpirun_job_rank_ended(rd_mpirun_job_t *j, int rank, long pid, int st, int connected, int finalized)
{
    char why[512], on[RD_MPIRUN_HOST_MAX + 16];

    where(j, rank, on, sizeof(on));
    if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        snprintf(why, sizeof(why), "rank %d (pid %ld)%s was killed by signal %d (%s)",
                 rank, pid, on, sig, strsignal(sig));
        rd_mpirun_job_fail(j, 128 + sig, SIGTERM, why);
        return;
    }
    int code = WEXITSTATUS(st);
    /* A program that never connected to PMIx (mpirun -n 2 hostname) is not
     * an MPI program: exiting with 0 is its normal end. */
    if (!finalized && (connected || code != 0)) {
        snprintf(why, sizeof(why), "rank %d (pid %ld)%s exited with status %d%s",
                 rank, pid, on, code, connected ? " without calling MPI_Finalize" : "");
        rd_mpirun_job_fail(j, code ? code : 1, SIGTERM, why);
        return;
    }
    if (code != 0 && j->first_nonzero == 0)
        j->first_nonzero = code;
}

static void rd_mpirun_job_rank_aborted(rd_mpirun_job_t *j, int rank, long pid, int code, const char *msg)
{
    char why[1024], on[RD_MPIRUN_HOST_MAX + 16];
    /* The exit status is the code; 0 (or a multiple of 256, which the
     * shell would see as 0) still means the job failed. */
    int status = code & 0xff ? code & 0xff : 1;

    where(j, rank, on, sizeof(on));
    snprintf(why, sizeof(why), "rank %d (pid %ld)%s called MPI_Abort with code %d%s%s",
             rank, pid, on, code, msg[0] ? ": " : "", msg);
    rd_mpirun_job_fail(j, status, SIGTERM, why);
}

static void rd_mpirun_ranks_events(rd_mpirun_job_t *j);

/* PMIx reports "finalized" from its own thread, and a rank that finalized
 * and exited at once can be reaped before that event reaches this loop.
 * Give the event a moment before calling an exit a failure (a rank that
 * really exits without MPI_Finalize is reported this much later). */
static void wait_finalized(rd_mpirun_job_t *j, rd_mpirun_proc_t *p)
{
    long long until = rd_clock_ms() + RD_MPIRUN_FINALIZE_GRACE_MS;
    while (!p->finalized) {
        long long left = until - rd_clock_ms();
        if (left <= 0)
            break;
        struct pollfd pfd = { .fd = rd_mpirun_server_fd(), .events = POLLIN };
        if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR)
            break;
        rd_mpirun_ranks_events(j);
    }
}

static void rd_mpirun_ranks_exited(rd_mpirun_proc_t *p, void *arg)
{
    rd_mpirun_job_t *j = arg;
    int st = p->wstatus;

    j->alive--;
    rd_mpirun_server_rank_gone(p->rank);
    if (p->rank == 0)
        rd_mpirun_iof_stop_stdin();
    /* Any status: "exit(5) after MPI_Finalize" is the program's status
     * (first_nonzero), not a failure, and needs the event just as much. */
    if (WIFEXITED(st) && p->connected && !p->finalized)
        wait_finalized(j, p);
    if (!j->is_daemon) {
        rd_mpirun_job_rank_ended(j, p->rank, (long)p->pid, st, p->connected, p->finalized);
        return;
    }
    rd_mpirun_pack_t m = { 0 };
    rd_mpirun_pack_u32(&m, (uint32_t)p->pid);
    rd_mpirun_pack_u32(&m, (uint32_t)st);
    rd_mpirun_pack_u32(&m, (uint32_t)p->connected);
    rd_mpirun_pack_u32(&m, (uint32_t)p->finalized);
    rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_EXITED, (uint32_t)p->rank, &m);
    free(m.buf);
}

static void rd_mpirun_head_message(rd_mpirun_job_t *j, rd_mpirun_remote_t *r, const rd_mpirun_wire_hdr_t *h, const char *payload);

/* Handles what a daemon that has exited sent before it did: its last
 * messages (DONE among them) may still wait in the socket when its launch
 * agent's exit is reported. Never waits; the end of file is left to the
 * caller. */
static void drain_remote(rd_mpirun_job_t *j, rd_mpirun_remote_t *r)
{
    rd_mpirun_wire_hdr_t h;
    const char *payload;
    if (r->conn.fd < 0)
        return;
    (void)rd_mpirun_conn_read(&r->conn, rd_clock_ms());
    while (r->conn.fd >= 0 && r->state != RD_MPIRUN_REMOTE_GONE &&
           rd_mpirun_conn_next(&r->conn, &h, &payload) > 0)
        rd_mpirun_head_message(j, r, &h, payload);
}

/* A child that is not a rank: a launch agent (head). */
static void rd_mpirun_head_agent_exit(pid_t pid, int st, void *arg)
{
    rd_mpirun_job_t *j = arg;
    char why[512];

    for (int i = 0; i < j->nrem; i++) {
        rd_mpirun_remote_t *r = &j->rem[i];
        if (r->agent != pid)
            continue;
        r->agent = 0;
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
            drain_remote(j, r);
        if (r->state == RD_MPIRUN_REMOTE_DONE || r->state == RD_MPIRUN_REMOTE_GONE)
            return;
        if (WIFSIGNALED(st))
            snprintf(why, sizeof(why), "the daemon on host %s (launch agent pid %ld) was killed by signal %d (%s)",
                     rd_mpirun_job_host(j, r->host), (long)pid, WTERMSIG(st), strsignal(WTERMSIG(st)));
        else
            snprintf(why, sizeof(why), "the daemon on host %s (launch agent pid %ld) exited with status %d%s",
                     rd_mpirun_job_host(j, r->host), (long)pid, WEXITSTATUS(st),
                     r->state == RD_MPIRUN_REMOTE_LAUNCHED ? " before connecting to mpirun" : "");
        r->state = RD_MPIRUN_REMOTE_GONE;
        rd_mpirun_conn_close(&r->conn);
        rd_mpirun_job_fail(j, WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st) ? WEXITSTATUS(st) : 1,
                 SIGTERM, why);
        return;
    }
}

/* ---- Fences ---------------------------------------------------------------- */

/* Head: host h's contribution to the fence in flight (data now ours). */
static void rd_mpirun_fence_add(rd_mpirun_job_t *j, int h, char *data, size_t len)
{
    char *all;
    size_t total = 0;

    if (j->fence_part[h] || (j->fence_len[h] && !data)) {
        free(data);
        rd_mpirun_job_fail(j, 1, SIGTERM, "a host entered a second fence before the first ended (internal error)");
        return;
    }
    j->fence_part[h] = data ? data : malloc(1);
    j->fence_len[h] = len;
    if (!j->fence_part[h]) {
        rd_mpirun_job_fail(j, 1, SIGTERM, "out of memory in a fence");
        return;
    }
    if (++j->fence_have < j->plan->nhosts)
        return;
    for (int i = 0; i < j->plan->nhosts; i++)
        total += j->fence_len[i];
    all = malloc(total ? total : 1);
    if (!all) {
        rd_mpirun_job_fail(j, 1, SIGTERM, "out of memory in a fence");
        return;
    }
    total = 0;
    for (int i = 0; i < j->plan->nhosts; i++) {
        memcpy(all + total, j->fence_part[i], j->fence_len[i]);
        total += j->fence_len[i];
        free(j->fence_part[i]);
        j->fence_part[i] = NULL;
        j->fence_len[i] = 0;
    }
    j->fence_have = 0;
    for (int i = 0; i < j->nrem; i++)
        if (rd_mpirun_remote_connected(&j->rem[i]))
            rd_mpirun_conn_send(&j->rem[i].conn, RD_MPIRUN_MSG_FENCE, j->fence_seq, all, total);
    j->fence_seq++;
    if (j->fence_ev) {
        rd_mpirun_server_fence_result(j->fence_ev, all, total);
        j->fence_ev = NULL;
    } else {
        free(all);
    }
}

static void rd_mpirun_fence_local(rd_mpirun_job_t *j, rd_mpirun_event_t *ev)
{
    if (j->fence_ev) {
        /* One fence at a time: a second one cannot be matched. */
        rd_mpirun_server_complete(ev);
        rd_mpirun_job_fail_or_report(j, 1, "a second fence started before the first ended");
        return;
    }
    j->fence_ev = ev;
    if (!j->is_daemon) {
        char *data = ev->data;
        ev->data = NULL;
        rd_mpirun_fence_add(j, j->plan->self, data, ev->ndata);
        return;
    }
    rd_mpirun_pack_t p = { 0 };
    rd_mpirun_pack_bytes(&p, ev->data, ev->ndata);
    rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_FENCE, j->fence_seq++, &p);
    free(p.buf);
}

/* ---- PMIx server events ------------------------------------------------------ */

static rd_mpirun_proc_t *proc_of(rd_mpirun_job_t *j, int rank)
{
    return rank >= 0 && rank < j->np ? &j->procs[rank] : NULL;
}

static void rd_mpirun_ranks_events(rd_mpirun_job_t *j)
{
    rd_mpirun_event_t *ev;
    rd_mpirun_proc_t *p;

    while ((ev = rd_mpirun_server_next()) != NULL) {
        p = proc_of(j, ev->rank);
        switch (ev->type) {
        case RD_MPIRUN_EV_CONNECTED:
            if (p)
                p->connected = 1;
            break;
        case RD_MPIRUN_EV_FINALIZED:
            if (p)
                p->finalized = 1;
            break;
        case RD_MPIRUN_EV_ABORT:
            if (!j->is_daemon) {
                rd_mpirun_job_rank_aborted(j, ev->rank, p ? (long)p->pid : -1L, ev->status, ev->msg);
            } else {
                rd_mpirun_pack_t m = { 0 };
                rd_mpirun_pack_u32(&m, p ? (uint32_t)p->pid : 0);
                rd_mpirun_pack_u32(&m, (uint32_t)ev->status);
                rd_mpirun_pack_str(&m, ev->msg);
                rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_ABORT, (uint32_t)ev->rank, &m);
                free(m.buf);
            }
            break;
        case RD_MPIRUN_EV_FENCE:
            rd_mpirun_fence_local(j, ev);
            continue;       /* completed when every host contributed */
        }
        rd_mpirun_server_complete(ev);
    }
}

/* ---- Signals and deadlines ------------------------------------------------- */

static void handle_signals(rd_mpirun_job_t *j)
{
    struct signalfd_siginfo si;
    char why[128];

    while (read(j->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
        int sig = (int)si.ssi_signo;
        if (sig == SIGCHLD)
            continue;           /* reaped below, whatever the count */
        if (j->is_daemon) {
            snprintf(why, sizeof(why), "the daemon on host %s received signal %d (%s)",
                     rd_mpirun_job_host(j, j->plan->self), sig, strsignal(sig));
            if (j->state == RD_MPIRUN_JOB_RUNNING)
                rd_mpirun_uplink_report(j, 128 + sig, why);
            rd_mpirun_procs_signal(j->procs, j->np, j->state == RD_MPIRUN_JOB_RUNNING ? sig : SIGKILL);
        } else if (j->state == RD_MPIRUN_JOB_RUNNING) {
            snprintf(why, sizeof(why), "received signal %d (%s), forwarded to the ranks",
                     sig, strsignal(sig));
            rd_mpirun_job_fail(j, 128 + sig, sig, why);
        } else {
            /* Asked again: no more grace. */
            rd_mpirun_procs_signal(j->procs, j->np, SIGKILL);
            rd_mpirun_head_stop(j, SIGKILL);
        }
    }
    rd_mpirun_procs_reap(j->procs, j->np, rd_mpirun_ranks_exited, rd_mpirun_head_agent_exit, j);
}

static void rd_mpirun_head_lose(rd_mpirun_job_t *j, rd_mpirun_remote_t *r, const char *what)
{
    char why[512];

    if (r->state == RD_MPIRUN_REMOTE_GONE || r->state == RD_MPIRUN_REMOTE_DONE)
        return;
    snprintf(why, sizeof(why), "lost the connection to the daemon on host %s (%s)",
             rd_mpirun_job_host(j, r->host), what);
    r->state = RD_MPIRUN_REMOTE_GONE;
    rd_mpirun_conn_close(&r->conn);
    rd_mpirun_job_fail(j, 1, SIGTERM, why);
}

static void handle_deadlines(rd_mpirun_job_t *j)
{
    long long now = rd_clock_ms();
    char why[512];

    if (j->timeout_at && now >= j->timeout_at) {
        j->timeout_at = 0;
        snprintf(why, sizeof(why), "the job timed out after %ld second%s",
                 j->opts->timeout, j->opts->timeout == 1 ? "" : "s");
        rd_mpirun_job_fail(j, RD_MPIRUN_EXIT_TIMEOUT, SIGTERM, why);
    }
    if (j->kill_at && now >= j->kill_at) {
        j->kill_at = 0;
        rd_mpirun_procs_signal(j->procs, j->np, SIGKILL);
    }
    /* A host slow enough to need a longer heartbeat limit is slow to
     * launch too (emulated guests take over a minute under load). */
    long long launch_ms = j->heartbeat_ms > RD_MPIRUN_LAUNCH_TIMEOUT_MS
                              ? j->heartbeat_ms : RD_MPIRUN_LAUNCH_TIMEOUT_MS;
    for (int i = 0; i < j->nrem; i++) {
        rd_mpirun_remote_t *r = &j->rem[i];
        if ((r->state == RD_MPIRUN_REMOTE_LAUNCHED || r->state == RD_MPIRUN_REMOTE_STARTING) &&
            now - r->launched_at > launch_ms) {
            snprintf(why, sizeof(why), "the daemon on host %s did not %s within %lld s",
                     rd_mpirun_job_host(j, r->host),
                     r->state == RD_MPIRUN_REMOTE_LAUNCHED ? "connect back" : "start its ranks",
                     launch_ms / 1000);
            r->state = RD_MPIRUN_REMOTE_GONE;
            rd_mpirun_conn_close(&r->conn);
            rd_mpirun_job_fail(j, 1, SIGTERM, why);
        }
        /* Only a daemon whose loop runs answers in time; before, it may
         * sit in PMIx's start-up or in fork for seconds on a busy host. */
        if (r->state == RD_MPIRUN_REMOTE_UP && now - r->conn.last_rx > j->heartbeat_ms) {
            snprintf(why, sizeof(why), "no message for %lld s", j->heartbeat_ms / 1000);
            rd_mpirun_head_lose(j, r, why);
        }
    }
    for (int i = 0; i < RD_MPIRUN_PENDING_MAX; i++)
        if (j->pend[i].conn.fd >= 0 && now - j->pend[i].since > RD_MPIRUN_HELLO_MS)
            rd_mpirun_conn_close(&j->pend[i].conn);
    if (j->is_daemon && j->up->fd >= 0 && now - j->up->last_rx > daemon_silence_ms(j->heartbeat_ms)) {
        snprintf(why, sizeof(why), "no message from mpirun for %lld s",
                 daemon_silence_ms(j->heartbeat_ms) / 1000);
        rd_mpirun_uplink_lose(j, why);
    }
    if (now >= j->ping_at) {
        j->ping_at = now + RD_MPIRUN_PING_MS;
        if (j->is_daemon)
            rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_PING, 0, NULL);
        for (int i = 0; i < j->nrem; i++)
            if (rd_mpirun_remote_connected(&j->rem[i]) &&
                rd_mpirun_conn_send(&j->rem[i].conn, RD_MPIRUN_MSG_PING, 0, NULL, 0) != 0)
                rd_mpirun_head_lose(j, &j->rem[i], "sending failed");
    }
    if (j->agents_kill_at && now >= j->agents_kill_at) {
        j->agents_kill_at = 0;
        for (int i = 0; i < j->nrem; i++)
            if (j->rem[i].agent > 0)
                killpg(j->rem[i].agent, SIGKILL);
    }
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

/* ---- Head: the daemons' connections ------------------------------------- */

static int send_job(rd_mpirun_job_t *j, rd_mpirun_remote_t *r)
{
    const rd_mpirun_opts_t *o = j->opts;
    const rd_mpirun_plan_t *plan = j->plan;
    rd_mpirun_pack_t p = { 0 };
    char cwd[4096];
    int argc = 0, rc;

    if (!getcwd(cwd, sizeof(cwd)))
        strcpy(cwd, "/");
    rd_mpirun_pack_str(&p, j->head->nspace);
    rd_mpirun_pack_str(&p, cwd);
    rd_mpirun_pack_u32(&p, (uint32_t)o->bind);
    rd_mpirun_pack_u32(&p, (uint32_t)j->heartbeat_ms);
    rd_mpirun_pack_u32(&p, (uint32_t)plan->nhosts);
    for (int h = 0; h < plan->nhosts; h++)
        rd_mpirun_pack_str(&p, plan->hosts[h].name);
    rd_mpirun_pack_u32(&p, (uint32_t)plan->np);
    for (int r2 = 0; r2 < plan->np; r2++)
        rd_mpirun_pack_u32(&p, (uint32_t)plan->host_of[r2]);
    while (o->argv[argc])
        argc++;
    /* The program as found here, and as typed (for a PATH lookup there). */
    rd_mpirun_pack_str(&p, j->path);
    rd_mpirun_pack_u32(&p, (uint32_t)argc);
    for (int a = 0; a < argc; a++)
        rd_mpirun_pack_str(&p, o->argv[a]);
    rd_mpirun_pack_u32(&p, (uint32_t)o->nenv);
    for (int e = 0; e < o->nenv; e++)
        rd_mpirun_pack_str(&p, o->env[e]);
    rc = p.err ? -1 : rd_mpirun_conn_send(&r->conn, RD_MPIRUN_MSG_JOB, 0, p.buf, p.len);
    free(p.buf);
    return rc;
}

/* A pending connection said HELLO: which daemon is it? */
static void rd_mpirun_head_hello(rd_mpirun_job_t *j, rd_mpirun_pending_t *pc, const rd_mpirun_wire_hdr_t *h, const char *payload)
{
    rd_mpirun_unpack_t u = { payload, h->len, 0 };
    const char *secret = rd_mpirun_unpack_str(&u);
    rd_mpirun_remote_t *r = NULL;

    for (int i = 0; i < j->nrem; i++)
        if (j->rem[i].host == (int)h->arg)
            r = &j->rem[i];
    if (u.err || strcmp(secret, j->head->secret) != 0 || !r || r->state != RD_MPIRUN_REMOTE_LAUNCHED) {
        rd_mpirun_conn_close(&pc->conn);
        return;
    }
    r->conn = pc->conn;
    r->conn.last_rx = rd_clock_ms();
    pc->conn.fd = -1;
    pc->conn.buf = NULL;
    pc->conn.len = pc->conn.cap = pc->conn.used = 0;
    r->state = RD_MPIRUN_REMOTE_STARTING;
    if (send_job(j, r) != 0)
        rd_mpirun_head_lose(j, r, "sending the job failed");
    else if (j->state == RD_MPIRUN_JOB_STOPPING)
        rd_mpirun_head_stop(j, SIGTERM);
}

static void rd_mpirun_head_message(rd_mpirun_job_t *j, rd_mpirun_remote_t *r, const rd_mpirun_wire_hdr_t *h, const char *payload)
{
    rd_mpirun_unpack_t u = { payload, h->len, 0 };
    int rank = (int)h->arg;
    char why[1024];

    switch (h->type) {
    case RD_MPIRUN_MSG_PING:
        return;
    case RD_MPIRUN_MSG_READY:
        if (r->state != RD_MPIRUN_REMOTE_STARTING)
            break;
        r->state = RD_MPIRUN_REMOTE_UP;
        return;
    case RD_MPIRUN_MSG_OUT: {
        uint32_t stream = rd_mpirun_unpack_u32(&u);
        if (!u.err && rank >= 0 && rank < j->np)
            rd_mpirun_iof_emit(rank, (int)stream, u.p, u.left);
        return;
    }
    case RD_MPIRUN_MSG_EXITED: {
        long pid = (long)rd_mpirun_unpack_u32(&u);
        int st = (int)rd_mpirun_unpack_u32(&u);
        int conn = (int)rd_mpirun_unpack_u32(&u), fin = (int)rd_mpirun_unpack_u32(&u);
        if (u.err || rank < 0 || rank >= j->np || j->plan->host_of[rank] != r->host)
            break;
        if (rank == 0)
            rd_mpirun_iof_stop_stdin();
        rd_mpirun_job_rank_ended(j, rank, pid, st, conn, fin);
        return;
    }
    case RD_MPIRUN_MSG_CREDIT: {
        uint32_t closed = rd_mpirun_unpack_u32(&u);
        if (u.err || j->plan->host_of[0] != r->host || h->arg > RD_MPIRUN_IOF_LINE_MAX)
            break;
        rd_mpirun_iof_stdin_credit(h->arg, closed != 0);
        return;
    }
    case RD_MPIRUN_MSG_ABORT: {
        long pid = (long)rd_mpirun_unpack_u32(&u);
        int code = (int)rd_mpirun_unpack_u32(&u);
        const char *msg = rd_mpirun_unpack_str(&u);
        if (u.err || rank < 0 || rank >= j->np)
            break;
        rd_mpirun_job_rank_aborted(j, rank, pid, code, msg);
        return;
    }
    case RD_MPIRUN_MSG_ERROR: {
        int status = (int)rd_mpirun_unpack_u32(&u);
        const char *msg = rd_mpirun_unpack_str(&u);
        if (u.err)
            break;
        snprintf(why, sizeof(why), "%s", msg);
        rd_mpirun_job_fail(j, status ? status : 1, SIGTERM, why);
        return;
    }
    case RD_MPIRUN_MSG_FENCE: {
        char *data = h->len ? malloc(h->len) : NULL;
        if (h->arg != j->fence_seq || (h->len && !data)) {
            free(data);
            break;
        }
        if (h->len)
            memcpy(data, payload, h->len);
        rd_mpirun_fence_add(j, r->host, data, h->len);
        return;
    }
    case RD_MPIRUN_MSG_DONE:
        r->state = RD_MPIRUN_REMOTE_DONE;
        rd_mpirun_conn_close(&r->conn);
        return;
    default:
        break;
    }
    rd_mpirun_head_lose(j, r, "malformed message");
}

static void rd_mpirun_head_accept(rd_mpirun_job_t *j)
{
    int fd;

    while ((fd = accept4(j->head->lfd, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
        int i;
        for (i = 0; i < RD_MPIRUN_PENDING_MAX && j->pend[i].conn.fd >= 0; i++)
            ;
        if (i == RD_MPIRUN_PENDING_MAX) {
            close(fd);
            continue;
        }
        rd_mpirun_conn_init(&j->pend[i].conn, fd, rd_clock_ms(), j->heartbeat_ms);
        j->pend[i].since = rd_clock_ms();
    }
}

/* ---- Daemon: the head's messages --------------------------------------- */

static void rd_mpirun_uplink_message(rd_mpirun_job_t *j, const rd_mpirun_wire_hdr_t *h, const char *payload)
{
    rd_mpirun_unpack_t u = { payload, h->len, 0 };

    switch (h->type) {
    case RD_MPIRUN_MSG_PING:
        return;
    case RD_MPIRUN_MSG_STOP: {
        int sig = (int)rd_mpirun_unpack_u32(&u);
        if (u.err || sig <= 0 || sig >= NSIG)
            break;
        if (j->state == RD_MPIRUN_JOB_RUNNING)
            rd_mpirun_job_stop_local(j, sig);
        else if (sig == SIGKILL)
            rd_mpirun_procs_signal(j->procs, j->np, SIGKILL);
        return;
    }
    case RD_MPIRUN_MSG_STDIN:
        if (h->arg != 0 || j->plan->host_of[0] != j->plan->self ||
            rd_mpirun_iof_stdin_push(payload, h->len) != 0)
            break;
        return;
    case RD_MPIRUN_MSG_FENCE: {
        char *data = malloc(h->len ? h->len : 1);
        if (!j->fence_ev || !data) {
            free(data);
            break;
        }
        memcpy(data, payload, h->len);
        rd_mpirun_server_fence_result(j->fence_ev, data, h->len);
        j->fence_ev = NULL;
        return;
    }
    default:
        break;
    }
    rd_mpirun_uplink_lose(j, "malformed message from mpirun");
}

/* ---- The loop -------------------------------------------------------------- */

/* What one pollfd entry stands for, beyond the fixed ones. */
typedef enum { NET_LISTEN, NET_PENDING, NET_REMOTE, NET_HEAD } net_kind_t;
typedef struct net_slot {
    net_kind_t kind;
    int index;
} net_slot_t;

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
    int agents = 0;
    for (int i = 0; i < j->nrem; i++) {
        if (j->rem[i].state == RD_MPIRUN_REMOTE_LAUNCHED || rd_mpirun_remote_connected(&j->rem[i]))
            return 0;
        agents += j->rem[i].agent > 0;
    }
    if (agents && !j->agents_kill_at) {
        /* Daemons that are gone may still have their agent (ssh) running;
         * those that are done exit by themselves. */
        for (int i = 0; i < j->nrem; i++)
            if (j->rem[i].agent > 0 && j->rem[i].state == RD_MPIRUN_REMOTE_GONE)
                killpg(j->rem[i].agent, SIGTERM);
        j->agents_kill_at = rd_clock_ms() + RD_MPIRUN_AGENT_GRACE_MS;
    }
    return agents == 0;
}

static void rd_mpirun_loop_run(rd_mpirun_job_t *j, struct pollfd *pfd, net_slot_t *slot, int maxfds)
{
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

/* The rank's environment: mpirun's, then -x/-genv, then PMIx's. */
static char **rank_env(const rd_mpirun_opts_t *o)
{
    extern char **environ;
    size_t n = 0, k = 0;
    char **env;

    while (environ[n])
        n++;
    env = calloc(n + (size_t)o->nenv + 1, sizeof(*env));
    if (!env)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        /* Drop what -x/-genv override, so every name appears once. */
        const char *eq = strchr(environ[i], '=');
        size_t len = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
        int overridden = 0;
        for (int e = 0; e < o->nenv && !overridden; e++)
            overridden = !strncmp(o->env[e], environ[i], len) && o->env[e][len] == '=';
        if (!overridden && !(env[k++] = strdup(environ[i])))
            goto err;
    }
    for (int e = 0; e < o->nenv; e++) {
        /* A later -x/-genv of the same name wins. */
        size_t len = strcspn(o->env[e], "=");
        int later = 0;
        for (int f = e + 1; f < o->nenv && !later; f++)
            later = !strncmp(o->env[f], o->env[e], len) && o->env[f][len] == '=';
        if (!later && !(env[k++] = strdup(o->env[e])))
            goto err;
    }
    return env;
err:
    for (size_t i = 0; env[i]; i++)
        free(env[i]);
    free(env);
    return NULL;
}

static void free_env(char **env)
{
    for (size_t i = 0; env && env[i]; i++)
        free(env[i]);
    free(env);
}

static int start_rank(rd_mpirun_job_t *j, int rank)
{
    rd_mpirun_proc_t *p = &j->procs[rank];
    char **env = rank_env(j->opts);
    int fds[3], rc = -1;

    if (!env) {
        fprintf(stderr, "mpirun: out of memory\n");
        return -1;
    }
    /* PMIx_server_setup_fork appends to env with realloc. */
    if (rd_mpirun_server_setup_rank(rank, &env) == 0 &&
        rd_mpirun_iof_setup_rank(rank, fds) == 0) {
        rc = rd_mpirun_proc_spawn(p, j->path, j->opts->argv, env, fds);
        rd_mpirun_iof_forked(rank);
        if (rc == 0) {
            j->alive++;
            if (j->is_daemon)
                rd_mpirun_guard_pgroup(p->pid);
        }
    }
    free_env(env);
    return rc;
}

static int rd_mpirun_head_launch(rd_mpirun_job_t *j)
{
    const rd_mpirun_plan_t *plan = j->plan;

    j->rem = calloc((size_t)plan->nhosts, sizeof(*j->rem));
    if (!j->rem)
        return -1;
    for (int h = 0; h < plan->nhosts; h++) {
        rd_mpirun_remote_t *r;
        if (h == plan->self)
            continue;
        r = &j->rem[j->nrem++];
        r->host = h;
        r->conn.fd = -1;
        r->state = RD_MPIRUN_REMOTE_LAUNCHED;
        r->launched_at = rd_clock_ms();
        r->agent = rd_mpirun_spawn_agent(j->head->agent, plan->hosts[h].name, j->head->self_exe,
                                         j->head->port, j->head->addrs, h, j->head->secret);
        if (r->agent < 0) {
            r->agent = 0;
            r->state = RD_MPIRUN_REMOTE_GONE;
            return -1;
        }
    }
    return 0;
}

static int run(rd_mpirun_job_t *j)
{
    const rd_mpirun_plan_t *plan = j->plan;
    int maxfds = 2 + 1 + RD_MPIRUN_PENDING_MAX + plan->nhosts + 1 + 2 * j->np + 2;
    struct pollfd *pfd = calloc((size_t)maxfds, sizeof(*pfd));
    net_slot_t *slot = calloc((size_t)maxfds, sizeof(*slot));

    j->procs = calloc((size_t)j->np, sizeof(*j->procs));
    j->fence_part = calloc((size_t)plan->nhosts, sizeof(*j->fence_part));
    j->fence_len = calloc((size_t)plan->nhosts, sizeof(*j->fence_len));
    j->sfd = signalfd(-1, &handled, SFD_CLOEXEC | SFD_NONBLOCK);
    for (int i = 0; i < RD_MPIRUN_PENDING_MAX; i++)
        j->pend[i].conn.fd = -1;
    if (!j->procs || !pfd || !slot || !j->fence_part || !j->fence_len || j->sfd < 0) {
        fprintf(stderr, "mpirun: cannot set up the job: %s\n", strerror(errno));
        j->state = RD_MPIRUN_JOB_STOPPING;
        j->exit_status = 1;
        goto out;
    }
    if (j->opts->timeout)
        j->timeout_at = rd_clock_ms() + j->opts->timeout * 1000;
    j->ping_at = rd_clock_ms() + RD_MPIRUN_PING_MS;

    for (int r = 0; r < j->np; r++) {
        j->procs[r].rank = r;
        j->procs[r].local_rank = plan->local_rank[r];
    }
    if (j->head && rd_mpirun_head_launch(j) != 0)
        rd_mpirun_job_fail(j, 1, SIGKILL, "could not start the daemons on all hosts");
    for (int r = 0; r < j->np && j->state == RD_MPIRUN_JOB_RUNNING; r++) {
        if (plan->host_of[r] != plan->self)
            continue;
        if (start_rank(j, r) != 0)
            rd_mpirun_job_fail_or_report(j, 1, "could not start all ranks");
    }
    /* Our loop runs from here: the head may hold us to the heartbeat. */
    if (j->is_daemon)
        rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_READY, 0, NULL);
    rd_mpirun_loop_run(j, pfd, slot, maxfds);

out:
    /* The loop only ends early on a poll failure: make sure nothing is
     * left running, then wait for it. */
    if (j->procs && j->alive > 0) {
        rd_mpirun_procs_signal(j->procs, j->np, SIGKILL);
        for (int r = 0; r < j->np; r++)
            if (j->procs[r].alive)
                waitpid(j->procs[r].pid, NULL, 0);
    }
    for (int i = 0; i < j->nrem; i++) {
        if (j->rem[i].agent > 0) {
            killpg(j->rem[i].agent, SIGKILL);
            waitpid(j->rem[i].agent, NULL, 0);
        }
        rd_mpirun_conn_close(&j->rem[i].conn);
    }
    for (int i = 0; i < RD_MPIRUN_PENDING_MAX; i++)
        if (j->pend[i].conn.fd >= 0)
            rd_mpirun_conn_close(&j->pend[i].conn);
    if (j->fence_ev)
        rd_mpirun_server_complete(j->fence_ev);
    for (int h = 0; j->fence_part && h < plan->nhosts; h++)
        free(j->fence_part[h]);
    free(j->fence_part);
    free(j->fence_len);
    free(j->rem);
    if (j->sfd >= 0)
        close(j->sfd);
    free(pfd);
    free(slot);
    free(j->procs);
    return j->state == RD_MPIRUN_JOB_STOPPING ? j->exit_status : j->first_nonzero;
}

int rd_mpirun_job_run(const rd_mpirun_opts_t *o, const rd_mpirun_plan_t *plan, const char *path,
                      const rd_mpirun_head_cfg_t *head)
{
    rd_mpirun_job_t j = { .opts = o, .plan = plan, .path = path, .np = plan->np, .head = head,
                .state = RD_MPIRUN_JOB_RUNNING, .sfd = -1,
                .heartbeat_ms = head ? head->heartbeat_ms : 0 };
    rd_mpirun_iof_cfg_t io = { .nranks = plan->np, .tag_output = o->tag_output,
                               .stdin_send = rd_mpirun_head_stdin, .arg = &j };

    /* Our stdin goes to rank 0, here or through its host's daemon. */
    io.stdin_mode = plan->host_of[0] == plan->self ? RD_MPIRUN_STDIN_LOCAL : RD_MPIRUN_STDIN_REMOTE;
    if (rd_mpirun_iof_init(&io) != 0)
        return 1;
    return run(&j);
}

int rd_mpirun_job_run_daemon(const rd_mpirun_opts_t *o, const rd_mpirun_plan_t *plan,
                             const char *path, rd_mpirun_conn_t *conn, long long heartbeat_ms)
{
    rd_mpirun_job_t j = { .opts = o, .plan = plan, .path = path, .np = plan->np, .is_daemon = 1,
                .up = conn, .state = RD_MPIRUN_JOB_RUNNING, .sfd = -1, .heartbeat_ms = heartbeat_ms };
    int status;

    rd_mpirun_iof_cfg_t io = { .nranks = plan->np, .out_sink = rd_mpirun_uplink_output,
                               .stdin_credit = rd_mpirun_uplink_stdin_credit, .arg = &j };

    /* Output goes to the head; the head's stdin comes to rank 0 when it
     * runs here. */
    io.stdin_mode = plan->host_of[0] == plan->self ? RD_MPIRUN_STDIN_PUSHED : RD_MPIRUN_STDIN_NONE;
    if (rd_mpirun_iof_init(&io) != 0)
        return 1;
    status = run(&j);

    /* The head decides the job's status; ours only says whether we lost it. */
    return conn->fd >= 0 ? 0 : status ? status : 1;
}

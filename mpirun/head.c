/*
 * The head's side of the job: the host daemons it launches through the
 * launch agent and talks to. It accepts their connections, identifies
 * them by their HELLO, sends them the job, handles what they report
 * (output, rank exits, aborts, errors, fence parts, DONE), holds them to
 * the launch timeout and the heartbeat, and stops them with the job.
 */
#include "head.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fence.h"
#include "iof.h"
#include "launch.h"
#include "util/clock.h"

void rd_mpirun_head_send_all(rd_mpirun_job_t *j, rd_mpirun_msg_t type, uint32_t arg,
                             const void *data, size_t len)
{
    for (int i = 0; i < j->nrem; i++)
        if (rd_mpirun_remote_connected(&j->rem[i]))
            rd_mpirun_conn_send(&j->rem[i].conn, type, arg, data, len);
}

void rd_mpirun_head_stop(rd_mpirun_job_t *j, int sig)
{
    uint32_t s = (uint32_t)sig;
    rd_mpirun_head_send_all(j, RD_MPIRUN_MSG_STOP, 0, &s, sizeof(s));
}

void rd_mpirun_head_signal(rd_mpirun_job_t *j, int sig)
{
    uint32_t s = (uint32_t)sig;
    rd_mpirun_head_send_all(j, RD_MPIRUN_MSG_SIGNAL, 0, &s, sizeof(s));
}

static rd_mpirun_remote_t *remote_of_host(rd_mpirun_job_t *j, int host)
{
    for (int i = 0; i < j->nrem; i++)
        if (j->rem[i].host == host)
            return &j->rem[i];
    return NULL;
}

void rd_mpirun_head_stdin(const char *data, size_t len, void *arg)
{
    rd_mpirun_job_t *j = arg;
    rd_mpirun_remote_t *r = remote_of_host(j, j->plan->host_of[0]);

    if (r && rd_mpirun_remote_connected(r) &&
        rd_mpirun_conn_send(&r->conn, RD_MPIRUN_MSG_STDIN, 0, data, len) != 0)
        rd_mpirun_head_lose(j, r, "sending failed");
}

/* The daemon of r ended without saying DONE: its launch agent (pid)
 * exited with wait status st. A failure of the job. */
static void agent_failed(rd_mpirun_job_t *j, rd_mpirun_remote_t *r, pid_t pid, int st)
{
    char why[512];

    if (WIFSIGNALED(st))
        snprintf(why, sizeof(why),
                 "the daemon on host %s (launch agent pid %ld) was killed by signal %d (%s)",
                 rd_mpirun_job_host(j, r->host), (long)pid, WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        snprintf(why, sizeof(why),
                 "the daemon on host %s (launch agent pid %ld) exited with status %d%s",
                 rd_mpirun_job_host(j, r->host), (long)pid, WEXITSTATUS(st),
                 r->state == RD_MPIRUN_REMOTE_LAUNCHED ? " before connecting to mpirun" : "");
    r->state = RD_MPIRUN_REMOTE_GONE;
    r->exited_agent = 0;
    rd_mpirun_conn_close(&r->conn);
    rd_mpirun_job_fail(j,
                       WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st) ? WEXITSTATUS(st) : 1,
                       SIGTERM, why);
}

void rd_mpirun_head_lose(rd_mpirun_job_t *j, rd_mpirun_remote_t *r, const char *what)
{
    char why[512];

    if (r->state == RD_MPIRUN_REMOTE_GONE || r->state == RD_MPIRUN_REMOTE_DONE)
        return;
    /* The connection ended after the agent without DONE: the daemon's
     * exit explains more than the connection's end. */
    if (r->exited_agent) {
        agent_failed(j, r, r->exited_agent, 0);
        return;
    }
    snprintf(why, sizeof(why), "lost the connection to the daemon on host %s (%s)",
             rd_mpirun_job_host(j, r->host), what);
    r->state = RD_MPIRUN_REMOTE_GONE;
    rd_mpirun_conn_close(&r->conn);
    rd_mpirun_job_fail(j, 1, SIGTERM, why);
}

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
    /* Each program as found here, and as typed (for a PATH lookup there). */
    rd_mpirun_pack_u32(&p, (uint32_t)o->napps);
    for (int k = 0; k < o->napps; k++) {
        const rd_mpirun_app_t *app = &o->apps[k];
        for (argc = 0; app->argv[argc]; argc++)
            ;
        rd_mpirun_pack_u32(&p, (uint32_t)app->np);
        rd_mpirun_pack_str(&p, app->path);
        rd_mpirun_pack_u32(&p, (uint32_t)argc);
        for (int a = 0; a < argc; a++)
            rd_mpirun_pack_str(&p, app->argv[a]);
        rd_mpirun_pack_u32(&p, (uint32_t)app->nenv);
        for (int e = 0; e < app->nenv; e++)
            rd_mpirun_pack_str(&p, app->env[e]);
        rd_mpirun_pack_u32(&p, (uint32_t)app->env_mode);
        rd_mpirun_pack_str(&p, app->env_list ? app->env_list : "");
    }
    rd_mpirun_pack_u32(&p, (uint32_t)o->nenv);
    for (int e = 0; e < o->nenv; e++)
        rd_mpirun_pack_str(&p, o->env[e]);
    rd_mpirun_pack_u32(&p, (uint32_t)o->env_mode);
    rd_mpirun_pack_str(&p, o->env_list ? o->env_list : "");
    rd_mpirun_pack_u32(&p, (uint32_t)o->map_obj);
    rd_mpirun_pack_u32(&p, (uint32_t)o->map_given);
    rd_mpirun_pack_u32(&p, (uint32_t)o->ppr);
    rd_mpirun_pack_u32(&p, (uint32_t)o->report_bindings);
    rc = p.err ? -1 : rd_mpirun_conn_send(&r->conn, RD_MPIRUN_MSG_JOB, 0, p.buf, p.len);
    free(p.buf);
    return rc;
}

void rd_mpirun_head_hello(rd_mpirun_job_t *j, rd_mpirun_pending_t *pc,
                          const rd_mpirun_wire_hdr_t *h, const char *payload)
{
    rd_mpirun_unpack_t u = { payload, h->len, 0 };
    const char *secret = rd_mpirun_unpack_str(&u);
    rd_mpirun_remote_t *r = NULL;

    for (int i = 0; i < j->nrem; i++)
        if (j->rem[i].host == (int)h->arg)
            r = &j->rem[i];
    if (u.err || strcmp(secret, j->head->secret) != 0 || !r ||
        r->state != RD_MPIRUN_REMOTE_LAUNCHED) {
        rd_mpirun_conn_close(&pc->conn);
        return;
    }
    r->conn = pc->conn;
    r->conn.last_rx = rd_clock_ms();
    r->conn.limit = 0;
    pc->conn.fd = -1;
    pc->conn.buf = NULL;
    pc->conn.len = pc->conn.cap = pc->conn.used = 0;
    r->state = RD_MPIRUN_REMOTE_STARTING;
    if (send_job(j, r) != 0)
        rd_mpirun_head_lose(j, r, "sending the job failed");
    else if (j->state == RD_MPIRUN_JOB_STOPPING)
        rd_mpirun_head_stop(j, SIGTERM);
}

void rd_mpirun_head_message(rd_mpirun_job_t *j, rd_mpirun_remote_t *r,
                            const rd_mpirun_wire_hdr_t *h, const char *payload)
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
    case RD_MPIRUN_MSG_FENCE:
        if (rd_mpirun_fence_from_host(j, r->host, h->arg, payload, h->len) != 0)
            break;
        return;
    case RD_MPIRUN_MSG_DONE:
        r->state = RD_MPIRUN_REMOTE_DONE;
        rd_mpirun_conn_close(&r->conn);
        return;
    default:
        break;
    }
    rd_mpirun_head_lose(j, r, "malformed message");
}

void rd_mpirun_head_accept(rd_mpirun_job_t *j)
{
    int fd;

    while ((fd = accept4(j->head->lfd, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
        int i, oldest = 0;
        for (i = 0; i < RD_MPIRUN_PENDING_MAX && j->pend[i].conn.fd >= 0; i++)
            if (j->pend[i].since < j->pend[oldest].since)
                oldest = i;
        /* Connections that say nothing must not keep a daemon out: the
         * oldest goes (a daemon says HELLO as soon as it connects). */
        if (i == RD_MPIRUN_PENDING_MAX) {
            i = oldest;
            rd_mpirun_conn_close(&j->pend[i].conn);
        }
        rd_mpirun_conn_init(&j->pend[i].conn, fd, rd_clock_ms(), j->heartbeat_ms);
        j->pend[i].conn.limit = RD_MPIRUN_HELLO_BYTES;
        j->pend[i].since = rd_clock_ms();
    }
}

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

void rd_mpirun_head_agent_exit(pid_t pid, int st, void *arg)
{
    rd_mpirun_job_t *j = arg;

    for (int i = 0; i < j->nrem; i++) {
        rd_mpirun_remote_t *r = &j->rem[i];
        if (r->agent != pid)
            continue;
        r->agent = 0;
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
            drain_remote(j, r);
            /* Over a link with latency the rest is still on its way: the
             * loop reads the connection to its end (DONE, or the end of
             * file that judges the exit), within the heartbeat timeout. */
            if (rd_mpirun_remote_connected(r) && r->conn.fd >= 0) {
                r->exited_agent = pid;
                r->exited_at = rd_clock_ms();
                return;
            }
        }
        if (r->state == RD_MPIRUN_REMOTE_DONE || r->state == RD_MPIRUN_REMOTE_GONE)
            return;
        agent_failed(j, r, pid, st);
        return;
    }
}

int rd_mpirun_head_launch(rd_mpirun_job_t *j)
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

void rd_mpirun_head_deadlines(rd_mpirun_job_t *j, long long now, int ping)
{
    char why[512];

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
        if (r->exited_agent && rd_mpirun_remote_connected(r) && now - r->exited_at > j->heartbeat_ms)
            agent_failed(j, r, r->exited_agent, 0);
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
    if (ping) {
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

int rd_mpirun_head_daemons_over(rd_mpirun_job_t *j)
{
    int agents = 0;
    for (int i = 0; i < j->nrem; i++) {
        if (j->rem[i].state == RD_MPIRUN_REMOTE_LAUNCHED ||
            rd_mpirun_remote_connected(&j->rem[i]))
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

void rd_mpirun_head_fini(rd_mpirun_job_t *j)
{
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
    free(j->rem);
}

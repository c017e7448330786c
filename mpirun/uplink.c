/*
 * A host daemon's side of the job: its link up to the head. The daemon
 * runs its ranks but decides nothing: it sends the head their output,
 * exits, aborts, errors and fence contributions, and follows what the
 * head sends back (stop, signals to pass on, stdin for rank 0, fence results). Losing the
 * head stops the ranks here.
 */
#include "uplink.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "fence.h"
#include "iof.h"
#include "boot/boot.h"
#include "util/clock.h"

/* A daemon waits longer than the head before giving up on a silent
 * connection, so that when a link fails the head, which decides and
 * explains, is the one that notices. */
static long long daemon_silence_ms(long long heartbeat_ms)
{
    return heartbeat_ms + heartbeat_ms / 4 + 3 * RD_MPIRUN_PING_MS;
}

void rd_mpirun_uplink_lose(rd_mpirun_job_t *j, const char *why)
{
    if (j->up->fd < 0)
        return;
    rd_mpirun_conn_close(j->up);
    fprintf(stderr, "mpirun: host daemon on %s: %s; stopping its ranks\n",
            rd_mpirun_job_host(j, j->plan->self), why);
    rd_mpirun_job_stop_local(j, SIGTERM);
}

void rd_mpirun_uplink_send(rd_mpirun_job_t *j, rd_mpirun_msg_t type, uint32_t arg,
                           const rd_mpirun_pack_t *p)
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

void rd_mpirun_uplink_report(rd_mpirun_job_t *j, int status, const char *why)
{
    rd_mpirun_pack_t p = { 0 };
    rd_mpirun_pack_u32(&p, (uint32_t)status);
    rd_mpirun_pack_str(&p, why);
    rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_ERROR, 0, &p);
    free(p.buf);
    rd_mpirun_job_stop_local(j, SIGTERM);
}

void rd_mpirun_uplink_output(int rank, int stream, const char *data, size_t len, void *arg)
{
    rd_mpirun_job_t *j = arg;
    rd_mpirun_pack_t p = { 0 };
    rd_mpirun_pack_u32(&p, (uint32_t)stream);
    rd_mpirun_pack_bytes(&p, data, len);
    rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_OUT, (uint32_t)rank, &p);
    free(p.buf);
}

void rd_mpirun_uplink_stdin_credit(size_t n, int closed, void *arg)
{
    rd_mpirun_job_t *j = arg;
    rd_mpirun_pack_t p = { 0 };
    rd_mpirun_pack_u32(&p, (uint32_t)closed);
    rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_CREDIT, (uint32_t)n, &p);
    free(p.buf);
}

void rd_mpirun_uplink_message(rd_mpirun_job_t *j, const rd_mpirun_wire_hdr_t *h,
                              const char *payload)
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
    case RD_MPIRUN_MSG_SIGNAL: {
        int sig = (int)rd_mpirun_unpack_u32(&u);
        if (u.err || (!rd_mpirun_job_signal_forwarded(sig) && sig != RD_BOOT_WHERE_SIGNAL))
            break;
        rd_mpirun_procs_signal(j->procs, j->np, sig);
        return;
    }
    case RD_MPIRUN_MSG_STDIN:
        if (h->arg != 0 || j->plan->host_of[0] != j->plan->self ||
            rd_mpirun_iof_stdin_push(payload, h->len) != 0)
            break;
        return;
    case RD_MPIRUN_MSG_FENCE:
        if (rd_mpirun_fence_result(j, payload, h->len) != 0)
            break;
        return;
    default:
        break;
    }
    rd_mpirun_uplink_lose(j, "malformed message from mpirun");
}

void rd_mpirun_uplink_deadlines(rd_mpirun_job_t *j, long long now, int ping)
{
    char why[512];

    if (j->up->fd >= 0 && now - j->up->last_rx > daemon_silence_ms(j->heartbeat_ms)) {
        snprintf(why, sizeof(why), "no message from mpirun for %lld s",
                 daemon_silence_ms(j->heartbeat_ms) / 1000);
        rd_mpirun_uplink_lose(j, why);
    }
    if (ping)
        rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_PING, 0, NULL);
}

/*
 * The ranks of this host: starting them (environment, PMIx set-up, stdio,
 * fork/exec), what they tell their PMIx server (connected, finalized,
 * MPI_Abort, fences), and their exits. The head judges an exit or an
 * abort; a daemon reports it to the head.
 */
#include "ranks.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "binding.h"
#include "fence.h"
#include "guard.h"
#include "iof.h"
#include "uplink.h"
#include "util/clock.h"

/* Variables naming the rank in MPICH's (Hydra's) and Open MPI's terms,
 * which GPU- and NIC-selection wrapper scripts read. PMI_RANK and PMI_SIZE
 * alone (without PMI_FD or PMI_PORT) announce no PMI-1 server. */
#define RD_MPIRUN_RANK_IDS 8

/* Fills ids (RD_MPIRUN_RANK_IDS strings of "VAR=VALUE", malloc'ed) for
 * rank. Returns 0, or -1 when out of memory. */
static int rank_ids(const rd_mpirun_plan_t *plan, int rank, char **ids)
{
    int local = plan->local_rank[rank];
    int nlocal = plan->hosts[plan->host_of[rank]].nranks;
    int v[RD_MPIRUN_RANK_IDS] = { rank, plan->np, local, nlocal, rank, plan->np, local, nlocal };
    static const char *const names[RD_MPIRUN_RANK_IDS] = {
        "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "MPI_LOCALNRANKS",
        "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
        "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE",
    };

    for (int i = 0; i < RD_MPIRUN_RANK_IDS; i++)
        if (asprintf(&ids[i], "%s=%d", names[i], v[i]) < 0) {
            while (i-- > 0)
                free(ids[i]);
            return -1;
        }
    return 0;
}

/* The rank's environment: mpirun's (all of it, or what -envnone/-envlist
 * keep), then -x/-genv, then its program's
 * -env (and -x after ':'), then the rank's ids, then PMIx's. */
static char **rank_env(const rd_mpirun_opts_t *o, const rd_mpirun_app_t *app, char **ids)
{
    extern char **environ;
    size_t n = 0, k = 0;
    int nset = o->nenv + app->nenv + RD_MPIRUN_RANK_IDS;
    char **env, **set = calloc((size_t)nset + 1, sizeof(*set));

    if (!set)
        return NULL;
    for (int e = 0; e < o->nenv; e++)
        set[e] = o->env[e];
    for (int e = 0; e < app->nenv; e++)
        set[o->nenv + e] = app->env[e];
    for (int e = 0; e < RD_MPIRUN_RANK_IDS; e++)
        set[o->nenv + app->nenv + e] = ids[e];
    while (environ[n])
        n++;
    env = calloc(n + (size_t)nset + 1, sizeof(*env));
    if (!env) {
        free(set);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        /* Drop what the options override, so every name appears once. */
        const char *eq = strchr(environ[i], '=');
        size_t len = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
        int overridden = !rd_mpirun_env_inherited(o, app, environ[i]);
        for (int e = 0; e < nset && !overridden; e++)
            overridden = !strncmp(set[e], environ[i], len) && set[e][len] == '=';
        if (!overridden && !(env[k++] = strdup(environ[i])))
            goto err;
    }
    for (int e = 0; e < nset; e++) {
        /* A later setting of the same name wins. */
        size_t len = strcspn(set[e], "=");
        int later = 0;
        for (int f = e + 1; f < nset && !later; f++)
            later = !strncmp(set[f], set[e], len) && set[f][len] == '=';
        if (!later && !(env[k++] = strdup(set[e])))
            goto err;
    }
    free(set);
    return env;
err:
    for (size_t i = 0; env[i]; i++)
        free(env[i]);
    free(env);
    free(set);
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
    const rd_mpirun_app_t *app = &j->opts->apps[j->plan->app_of[rank]];
    char *ids[RD_MPIRUN_RANK_IDS], **env = NULL;
    int fds[3], rc = -1;

    if (rank_ids(j->plan, rank, ids) == 0) {
        env = rank_env(j->opts, app, ids);
        for (int i = 0; i < RD_MPIRUN_RANK_IDS; i++)
            free(ids[i]);
    }
    if (!env) {
        fprintf(stderr, "mpirun: out of memory\n");
        return -1;
    }
    /* PMIx_server_setup_fork appends to env with realloc. */
    if (rd_mpirun_server_setup_rank(rank, &env) == 0 &&
        rd_mpirun_iof_setup_rank(rank, fds) == 0) {
        rc = rd_mpirun_proc_spawn(p, app->path, app->argv, env, fds);
        rd_mpirun_iof_forked(rank);
        if (rc == 0 && j->opts->report_bindings)
            fprintf(stderr, "mpirun: rank %d (pid %ld) on host %s: %s\n", rank, (long)p->pid,
                    j->plan->hosts[j->plan->self].name,
                    rd_mpirun_binding_describe(p->local_rank));
        if (rc == 0) {
            j->alive++;
            rd_mpirun_guard_pgroup(p->pid);
        }
    }
    free_env(env);
    return rc;
}

void rd_mpirun_ranks_start(rd_mpirun_job_t *j)
{
    const rd_mpirun_plan_t *plan = j->plan;

    for (int r = 0; r < j->np && j->state == RD_MPIRUN_JOB_RUNNING; r++) {
        if (plan->host_of[r] != plan->self)
            continue;
        if (start_rank(j, r) != 0)
            rd_mpirun_job_fail_or_report(j, 1, "could not start all ranks");
    }
}

static rd_mpirun_proc_t *proc_of(rd_mpirun_job_t *j, int rank)
{
    return rank >= 0 && rank < j->np ? &j->procs[rank] : NULL;
}

void rd_mpirun_ranks_events(rd_mpirun_job_t *j)
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
                rd_mpirun_job_rank_aborted(j, ev->rank, p ? (long)p->pid : -1L, ev->status,
                                           ev->msg);
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

void rd_mpirun_ranks_exited(rd_mpirun_proc_t *p, void *arg)
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

void rd_mpirun_ranks_end(rd_mpirun_job_t *j)
{
    if (j->procs && j->alive > 0) {
        rd_mpirun_procs_signal(j->procs, j->np, SIGKILL);
        for (int r = 0; r < j->np; r++)
            if (j->procs[r].alive)
                waitpid(j->procs[r].pid, NULL, 0);
    }
}

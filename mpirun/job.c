/*
 * The job's life and mpirun's single event loop (see job.h).
 *
 * States: RUNNING until the first failure (a rank killed by a signal, a rank
 * that connected to PMIx and exited without finalizing, MPI_Abort, the
 * timeout, a signal to mpirun); then STOPPING: the ranks' process groups got
 * SIGTERM (or the signal mpirun received) and get SIGKILL when the grace
 * runs out. Either way the loop ends once every rank is reaped and their
 * output is drained. The first failure decides the exit status; without
 * one it is the first non-zero exit status of a rank.
 */
#include "job.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "iof.h"
#include "procs.h"
#include "server.h"

typedef enum job_state {
    JOB_RUNNING,
    JOB_STOPPING,
} job_state_t;

typedef struct job {
    const rd_mpirun_opts_t *opts;
    rd_mpirun_proc_t *procs;
    int np;
    int alive;              /* ranks started and not reaped */
    job_state_t state;
    int exit_status;        /* decided by the first failure */
    int first_nonzero;      /* first non-zero exit status of a rank */
    int sfd;                /* signalfd */
    long long timeout_at;   /* ms deadlines on CLOCK_MONOTONIC; 0 = none */
    long long kill_at;
    long long drain_at;
} job_t;

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
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

/* Ends the job after its first failure: says why once, sends sig to every
 * rank's process group and arms the SIGKILL deadline. Later failures are
 * consequences of this one and are not reported. */
static void job_fail(job_t *j, int status, int sig, const char *why)
{
    if (j->state != JOB_RUNNING)
        return;
    fprintf(stderr, "mpirun: %s; stopping the job\n", why);
    j->state = JOB_STOPPING;
    j->exit_status = status;
    rd_mpirun_procs_signal(j->procs, j->np, sig);
    j->kill_at = now_ms() + RD_MPIRUN_KILL_GRACE_MS;
}

/* A rank's process was reaped: was it a failure? */

static void handle_server_events(job_t *j);

/* PMIx reports "finalized" from its own thread, and a rank that finalized
 * and exited at once can be reaped before that event reaches this loop.
 * Give the event a moment before calling a clean exit a failure. */
static void wait_finalized(job_t *j, rd_mpirun_proc_t *p)
{
    long long until = now_ms() + RD_MPIRUN_FINALIZE_GRACE_MS;
    while (!p->finalized) {
        long long left = until - now_ms();
        if (left <= 0)
            break;
        struct pollfd pfd = { .fd = rd_mpirun_server_fd(), .events = POLLIN };
        if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR)
            break;
        handle_server_events(j);
    }
}

static void on_rank_exit(rd_mpirun_proc_t *p, void *arg)
{
    job_t *j = arg;
    int st = p->wstatus;
    char why[256];

    j->alive--;
    rd_mpirun_server_rank_gone(p->rank);
    if (p->rank == 0)
        rd_mpirun_iof_stop_stdin();

    if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        snprintf(why, sizeof(why), "rank %d (pid %ld) was killed by signal %d (%s)",
                 p->rank, (long)p->pid, sig, strsignal(sig));
        job_fail(j, 128 + sig, SIGTERM, why);
        return;
    }
    int code = WEXITSTATUS(st);
    if (code == 0 && p->connected && !p->finalized)
        wait_finalized(j, p);
    /* A program that never connected to PMIx (mpirun -n 2 hostname) is not
     * an MPI program: exiting with 0 is its normal end. */
    if (!p->finalized && (p->connected || code != 0)) {
        snprintf(why, sizeof(why), "rank %d (pid %ld) exited with status %d%s",
                 p->rank, (long)p->pid, code,
                 p->connected ? " without calling MPI_Finalize" : "");
        job_fail(j, code ? code : 1, SIGTERM, why);
        return;
    }
    if (code != 0 && j->first_nonzero == 0)
        j->first_nonzero = code;
}

static rd_mpirun_proc_t *proc_of(job_t *j, int rank)
{
    return rank >= 0 && rank < j->np ? &j->procs[rank] : NULL;
}

/* Events from the PMIx server's thread. */
static void handle_server_events(job_t *j)
{
    rd_mpirun_event_t *ev;
    rd_mpirun_proc_t *p;
    char why[512];

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
        case RD_MPIRUN_EV_ABORT: {
            /* The exit status is the code; 0 (or a multiple of 256, which
             * the shell would see as 0) still means the job failed. */
            int status = ev->status & 0xff ? ev->status & 0xff : 1;
            snprintf(why, sizeof(why), "rank %d (pid %ld) called MPI_Abort with code %d%s%s",
                     ev->rank, p ? (long)p->pid : -1L, ev->status,
                     ev->msg[0] ? ": " : "", ev->msg);
            job_fail(j, status, SIGTERM, why);
            break;
        }
        case RD_MPIRUN_EV_FENCE:
            break;
        }
        rd_mpirun_server_complete(ev);
    }
}

static void handle_signals(job_t *j)
{
    struct signalfd_siginfo si;
    char why[128];

    while (read(j->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
        int sig = (int)si.ssi_signo;
        if (sig == SIGCHLD)
            continue;           /* reaped below, whatever the count */
        if (j->state == JOB_RUNNING) {
            snprintf(why, sizeof(why), "received signal %d (%s), forwarded to the ranks",
                     sig, strsignal(sig));
            job_fail(j, 128 + sig, sig, why);
        } else {
            /* Asked again: no more grace. */
            rd_mpirun_procs_signal(j->procs, j->np, SIGKILL);
        }
    }
    rd_mpirun_procs_reap(j->procs, j->np, on_rank_exit, j);
}

static void handle_deadlines(job_t *j)
{
    long long now = now_ms();
    char why[128];

    if (j->timeout_at && now >= j->timeout_at) {
        j->timeout_at = 0;
        snprintf(why, sizeof(why), "the job timed out after %ld second%s",
                 j->opts->timeout, j->opts->timeout == 1 ? "" : "s");
        job_fail(j, RD_MPIRUN_EXIT_TIMEOUT, SIGTERM, why);
    }
    if (j->kill_at && now >= j->kill_at) {
        j->kill_at = 0;
        rd_mpirun_procs_signal(j->procs, j->np, SIGKILL);
    }
}

/* Poll timeout until the nearest deadline, -1 when there is none. */
static int poll_timeout(const job_t *j)
{
    long long next = 0, now = now_ms();
    const long long d[] = { j->timeout_at, j->kill_at, j->drain_at };

    for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
        if (d[i] && (!next || d[i] < next))
            next = d[i];
    if (!next)
        return -1;
    return next <= now ? 0 : (int)(next - now);
}

/* pfd has room for 2 + 2 * np + 2 entries: signals, PMIx events, the
 * ranks' outputs, stdin. */
static void event_loop(job_t *j, struct pollfd *pfd)
{
    int maxfds = 2 + 2 * j->np + 2;

    for (;;) {
        if (j->alive == 0) {
            if (!j->drain_at) {
                /* Whatever the ranks left running would outlive the job
                 * and hold their output pipes open. */
                rd_mpirun_procs_signal(j->procs, j->np, SIGKILL);
                j->drain_at = now_ms() + RD_MPIRUN_DRAIN_MS;
            }
            if (rd_mpirun_iof_open_outputs() == 0 || now_ms() >= j->drain_at)
                break;
        }
        pfd[0] = (struct pollfd){ .fd = j->sfd, .events = POLLIN };
        pfd[1] = (struct pollfd){ .fd = rd_mpirun_server_fd(), .events = POLLIN };
        int nio = rd_mpirun_iof_fill(pfd + 2, maxfds - 2);
        if (poll(pfd, (nfds_t)(2 + nio), poll_timeout(j)) < 0 && errno != EINTR) {
            perror("mpirun: poll");
            break;
        }
        /* Server events first: a rank's "finalized" is queued before the
         * rank can exit, so it is known when its exit is handled. */
        handle_server_events(j);
        handle_signals(j);
        rd_mpirun_iof_handle(pfd + 2, nio);
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

static int start_rank(job_t *j, const char *path, int rank)
{
    rd_mpirun_proc_t *p = &j->procs[rank];
    char **env = rank_env(j->opts);
    int fds[3], rc = -1;

    p->rank = rank;
    if (!env) {
        fprintf(stderr, "mpirun: out of memory\n");
        return -1;
    }
    /* PMIx_server_setup_fork appends to env with realloc. */
    if (rd_mpirun_server_setup_rank(rank, &env) == 0 &&
        rd_mpirun_iof_setup_rank(rank, fds) == 0) {
        rc = rd_mpirun_proc_spawn(p, path, j->opts->argv, env, fds);
        rd_mpirun_iof_forked(rank);
        if (rc == 0)
            j->alive++;
    }
    free_env(env);
    return rc;
}

int rd_mpirun_job_run(const rd_mpirun_opts_t *o, const char *path)
{
    job_t j = { .opts = o, .np = o->np, .state = JOB_RUNNING };
    struct pollfd *pfd;

    j.procs = calloc((size_t)o->np, sizeof(*j.procs));
    pfd = calloc(2 + 2 * (size_t)o->np + 2, sizeof(*pfd));
    j.sfd = signalfd(-1, &handled, SFD_CLOEXEC | SFD_NONBLOCK);
    if (!j.procs || !pfd || j.sfd < 0) {
        fprintf(stderr, "mpirun: cannot set up the job: %s\n", strerror(errno));
        free(j.procs);
        free(pfd);
        if (j.sfd >= 0)
            close(j.sfd);
        return 1;
    }
    if (o->timeout)
        j.timeout_at = now_ms() + o->timeout * 1000;

    for (int r = 0; r < o->np; r++) {
        if (start_rank(&j, path, r) != 0) {
            job_fail(&j, 1, SIGKILL, "could not start all ranks");
            break;
        }
    }
    event_loop(&j, pfd);

    /* The loop only ends early on a poll failure: make sure nothing is
     * left running, then wait for it. */
    if (j.alive > 0) {
        rd_mpirun_procs_signal(j.procs, j.np, SIGKILL);
        for (int r = 0; r < j.np; r++)
            if (j.procs[r].alive)
                waitpid(j.procs[r].pid, NULL, 0);
    }
    close(j.sfd);
    free(pfd);
    free(j.procs);
    return j.state == JOB_STOPPING ? j.exit_status : j.first_nonzero;
}

/*
 * One job from start to end (see job.h): sets up the job's state, starts
 * the daemons (head) and the ranks of this host, runs the event loop and
 * tears everything down. The parts live beside it: job_state.c (exit
 * policy), loop.c, ranks.c, fence.c, head.c and uplink.c.
 */
#include "job.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "fence.h"
#include "head.h"
#include "iof.h"
#include "job_state.h"
#include "loop.h"
#include "mpirun_tunables.h"
#include "options.h"
#include "ranks.h"
#include "uplink.h"
#include "util/clock.h"
#include "util/errdetail.h"
#include "util/status.h"
#include "util/tunable.h"

int rd_mpirun_heartbeat_timeout_ms(long long *ms)
{
    long long s;
    if (rd_tunable_int(&rd_mpirun_tunables[RD_MPIRUN_T_HEARTBEAT_TIMEOUT], &s) != RD_OK) {
        char detail[RD_ERR_DETAIL_MAX];
        rd_err_detail_take(detail, sizeof(detail));
        fprintf(stderr, "mpirun: %s\n", detail);
        return RD_MPIRUN_EXIT_USAGE;
    }
    *ms = s * 1000;
    return 0;
}

/* The signals the loop reads from its signalfd, fixed at startup. */
static sigset_t handled;

/* Passed on to the ranks, the job going on: what sbatch --signal and
 * timeout -s send to ask for a checkpoint or a clean exit, which the
 * ranks may catch (a rank killed by one ends the job as any other). */
static const int forwarded[] = { SIGUSR1, SIGUSR2, SIGALRM };
/* Stop the job, passed on as they are. */
static const int asks_to_stop[] = { SIGINT, SIGTERM, SIGHUP };
/* The other signals that would end mpirun and orphan its ranks: they
 * stop the job too, the ranks getting SIGTERM (SIGQUIT or SIGXCPU would
 * make every rank dump core). The real-time signals are added apart. */
static const int would_kill[] = { SIGQUIT, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGPWR,
                                  SIGSTKFLT, SIGIO };

static int in_list(int sig, const int *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == sig)
            return 1;
    return 0;
}

int rd_mpirun_job_signal_forwarded(int sig)
{
    return in_list(sig, forwarded, sizeof(forwarded) / sizeof(forwarded[0]));
}

int rd_mpirun_job_signal_for_ranks(int sig)
{
    return in_list(sig, asks_to_stop, sizeof(asks_to_stop) / sizeof(asks_to_stop[0])) ? sig
                                                                                       : SIGTERM;
}

/* Adds sig to the handled set unless mpirun was started with it ignored
 * (nohup, or SIGINT for a background job of a script): then it stays
 * ignored, for the ranks too. */
static void handle(int sig)
{
    struct sigaction sa;

    if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
        sigaddset(&handled, sig);
}

int rd_mpirun_job_block_signals(void)
{
    sigemptyset(&handled);
    sigaddset(&handled, SIGCHLD);
    for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
        handle(forwarded[i]);
    for (size_t i = 0; i < sizeof(asks_to_stop) / sizeof(asks_to_stop[0]); i++)
        handle(asks_to_stop[i]);
    for (size_t i = 0; i < sizeof(would_kill) / sizeof(would_kill[0]); i++)
        handle(would_kill[i]);
    for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
        handle(sig);
    /* Writes to a rank that is gone must fail with EPIPE, not kill us. */
    signal(SIGPIPE, SIG_IGN);
    return sigprocmask(SIG_BLOCK, &handled, NULL);
}

static int run(rd_mpirun_job_t *j)
{
    const rd_mpirun_plan_t *plan = j->plan;
    rd_mpirun_loop_t loop;
    int loop_rc, fence_rc;

    j->procs = calloc((size_t)j->np, sizeof(*j->procs));
    loop_rc = rd_mpirun_loop_init(&loop, j);
    fence_rc = rd_mpirun_fence_init(j);
    j->sfd = signalfd(-1, &handled, SFD_CLOEXEC | SFD_NONBLOCK);
    for (int i = 0; i < RD_MPIRUN_PENDING_MAX; i++)
        j->pend[i].conn.fd = -1;
    if (!j->procs || loop_rc != 0 || fence_rc != 0 || j->sfd < 0) {
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
    rd_mpirun_ranks_start(j);
    /* Our loop runs from here: the head may hold us to the heartbeat. */
    if (j->is_daemon)
        rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_READY, 0, NULL);
    rd_mpirun_loop_run(j, &loop);

out:
    /* The loop only ends early on a poll failure: make sure nothing is
     * left running, then wait for it. */
    rd_mpirun_ranks_end(j);
    rd_mpirun_head_fini(j);
    rd_mpirun_fence_fini(j);
    if (j->sfd >= 0)
        close(j->sfd);
    rd_mpirun_loop_fini(&loop);
    free(j->procs);
    return rd_mpirun_job_status(j);
}

int rd_mpirun_job_run(const rd_mpirun_opts_t *o, const rd_mpirun_plan_t *plan,
                      const rd_mpirun_head_cfg_t *head)
{
    rd_mpirun_job_t j = { .opts = o, .plan = plan, .np = plan->np, .head = head,
                          .state = RD_MPIRUN_JOB_RUNNING, .sfd = -1,
                          .heartbeat_ms = head ? head->heartbeat_ms : 0 };
    rd_mpirun_iof_cfg_t io = { .nranks = plan->np, .tag_output = o->tag_output,
                               .output_dir = o->output_dir, .stdin_send = rd_mpirun_head_stdin, .arg = &j };

    /* Our stdin goes to rank 0, here or through its host's daemon. */
    io.stdin_mode = plan->host_of[0] == plan->self ? RD_MPIRUN_STDIN_LOCAL : RD_MPIRUN_STDIN_REMOTE;
    if (rd_mpirun_iof_init(&io) != 0)
        return 1;
    return run(&j);
}

int rd_mpirun_job_run_daemon(const rd_mpirun_opts_t *o, const rd_mpirun_plan_t *plan,
                             rd_mpirun_conn_t *conn, long long heartbeat_ms)
{
    rd_mpirun_job_t j = { .opts = o, .plan = plan, .np = plan->np, .is_daemon = 1,
                          .up = conn, .state = RD_MPIRUN_JOB_RUNNING, .sfd = -1,
                          .heartbeat_ms = heartbeat_ms };
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

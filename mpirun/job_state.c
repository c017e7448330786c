/*
 * The job's exit policy (see job_state.h): the first failure stops the
 * job and decides its exit status; a rank's end or MPI_Abort is judged
 * here, whether the rank ran on this host or on a daemon's.
 */
#include "job_state.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "head.h"
#include "uplink.h"
#include "util/clock.h"

/* " on host NAME" in messages about ranks, when the job spans hosts. */
static void where(const rd_mpirun_job_t *j, int rank, char *buf, size_t len)
{
    if (j->nrem > 0)
        snprintf(buf, len, " on host %s", rd_mpirun_job_host(j, j->plan->host_of[rank]));
    else
        buf[0] = '\0';
}

void rd_mpirun_job_stop_local(rd_mpirun_job_t *j, int sig)
{
    if (j->state != RD_MPIRUN_JOB_RUNNING)
        return;
    j->state = RD_MPIRUN_JOB_STOPPING;
    rd_mpirun_procs_signal(j->procs, j->np, sig);
    j->kill_at = rd_clock_ms() + RD_MPIRUN_KILL_GRACE_MS;
}

void rd_mpirun_job_fail(rd_mpirun_job_t *j, int status, int sig, const char *why)
{
    if (j->state != RD_MPIRUN_JOB_RUNNING)
        return;
    fprintf(stderr, "mpirun: %s; stopping the job\n", why);
    j->exit_status = status;
    rd_mpirun_job_stop_local(j, sig);
    rd_mpirun_head_stop(j, sig);
}

void rd_mpirun_job_fail_or_report(rd_mpirun_job_t *j, int status, const char *why)
{
    if (j->is_daemon)
        rd_mpirun_uplink_report(j, status, why);
    else
        rd_mpirun_job_fail(j, status, SIGTERM, why);
}

void rd_mpirun_job_rank_ended(rd_mpirun_job_t *j, int rank, long pid, int st, int connected,
                              int finalized)
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

void rd_mpirun_job_rank_aborted(rd_mpirun_job_t *j, int rank, long pid, int code, const char *msg)
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

int rd_mpirun_job_status(const rd_mpirun_job_t *j)
{
    return j->state == RD_MPIRUN_JOB_STOPPING ? j->exit_status : j->first_nonzero;
}

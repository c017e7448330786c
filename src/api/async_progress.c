/*
 * The progress thread (see async_progress.h). It takes the library lock
 * around each rd_progress call, as any thread of an MPI_THREAD_MULTIPLE
 * program does, which is why starting it forces rd_api.multiple. When a
 * poll finds nothing it sleeps briefly, so that on a loaded core it does
 * not take the CPU from the application it is there to help; after a poll
 * that did something it only yields, so the application's own MPI calls
 * get the lock between polls.
 */
#include "api/async_progress.h"

#include <signal.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "api/api.h"
#include "api/api_tunables.h"
#include "p2p/p2p.h"
#include "util/errdetail.h"

/* Sleep after an idle poll: long enough to cost little CPU, short next to
 * a rendezvous handshake's natural latency over a network. */
#define RD_ASYNC_IDLE_SLEEP_NS 50000L

static struct {
    int running;
    atomic_int stop;
    pthread_t thread;
    unsigned long long polls, events;   /* written by the thread, read after join */
} async;

static void *progress_main(void *arg)
{
    (void)arg;
    /* Signals are the application's: they go to its threads, not this one. */
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    const struct timespec nap = { 0, RD_ASYNC_IDLE_SLEEP_NS };
    while (!atomic_load_explicit(&async.stop, memory_order_acquire)) {
        rd_api_lock();
        int n = rd_progress();
        rd_api_unlock();
        async.polls++;
        async.events += (unsigned long long)(n > 0 ? n : 0);
        if (n > 0)
            sched_yield();
        else
            nanosleep(&nap, NULL);
    }
    return NULL;
}

int rd_api_async_start(void)
{
    long long on = 0;
    int rc = rd_tunable_int(&rd_api_tunables[RD_API_T_ASYNC_PROGRESS], &on);
    if (rc != RD_OK || !on)
        return rc;
    rd_api_set_multiple();
    atomic_store(&async.stop, 0);
    int err = pthread_create(&async.thread, NULL, progress_main, NULL);
    if (err) {
        rd_err_detail_sys(err, "pthread_create of the progress thread (RDMPI_ASYNC_PROGRESS=1)");
        return RD_ESYS;
    }
    async.running = 1;
    return RD_OK;
}

void rd_api_async_stop(void)
{
    if (!async.running)
        return;
    atomic_store_explicit(&async.stop, 1, memory_order_release);
    pthread_join(async.thread, NULL);
    async.running = 0;
}

void rd_api_async_report(char *buf, size_t len)
{
    if (async.polls == 0) {
        if (len)
            buf[0] = '\0';
        return;
    }
    snprintf(buf, len, "rdmpi: rank %d: async progress thread: %llu polls, %llu events",
             rd_api.boot.rank, async.polls, async.events);
}

/*
 * The job's fences. Every host's PMIx server hands its local ranks'
 * contribution to its loop; daemons send theirs to the head, which
 * concatenates all of them in host order and sends the result back to
 * every daemon; each server then completes the fence for its ranks. Ranks
 * only make global fences, one at a time, so one fence is in flight at
 * any moment.
 */
#include "fence.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "head.h"
#include "uplink.h"

int rd_mpirun_fence_init(rd_mpirun_job_t *j)
{
    j->fence_part = calloc((size_t)j->plan->nhosts, sizeof(*j->fence_part));
    j->fence_len = calloc((size_t)j->plan->nhosts, sizeof(*j->fence_len));
    return j->fence_part && j->fence_len ? 0 : -1;
}

void rd_mpirun_fence_fini(rd_mpirun_job_t *j)
{
    if (j->fence_ev)
        rd_mpirun_server_complete(j->fence_ev);
    for (int h = 0; j->fence_part && h < j->plan->nhosts; h++)
        free(j->fence_part[h]);
    free(j->fence_part);
    free(j->fence_len);
}

/* Head: host h's contribution to the fence in flight (data now ours). */
static void fence_add(rd_mpirun_job_t *j, int h, char *data, size_t len)
{
    char *all;
    size_t total = 0;

    if (j->fence_part[h] || (j->fence_len[h] && !data)) {
        free(data);
        rd_mpirun_job_fail(j, 1, SIGTERM,
                           "a host entered a second fence before the first ended (internal error)");
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
    rd_mpirun_head_send_all(j, RD_MPIRUN_MSG_FENCE, j->fence_seq, all, total);
    j->fence_seq++;
    if (j->fence_ev) {
        rd_mpirun_server_fence_result(j->fence_ev, all, total);
        j->fence_ev = NULL;
    } else {
        free(all);
    }
}

void rd_mpirun_fence_local(rd_mpirun_job_t *j, rd_mpirun_event_t *ev)
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
        fence_add(j, j->plan->self, data, ev->ndata);
        return;
    }
    rd_mpirun_pack_t p = { 0 };
    rd_mpirun_pack_bytes(&p, ev->data, ev->ndata);
    rd_mpirun_uplink_send(j, RD_MPIRUN_MSG_FENCE, j->fence_seq++, &p);
    free(p.buf);
}

int rd_mpirun_fence_from_host(rd_mpirun_job_t *j, int host, uint32_t seq, const char *payload,
                              size_t len)
{
    char *data = len ? malloc(len) : NULL;

    if (seq != j->fence_seq || (len && !data)) {
        free(data);
        return -1;
    }
    if (len)
        memcpy(data, payload, len);
    fence_add(j, host, data, len);
    return 0;
}

int rd_mpirun_fence_result(rd_mpirun_job_t *j, const char *payload, size_t len)
{
    char *data = malloc(len ? len : 1);

    if (!j->fence_ev || !data) {
        free(data);
        return -1;
    }
    memcpy(data, payload, len);
    rd_mpirun_server_fence_result(j->fence_ev, data, len);
    j->fence_ev = NULL;
    return 0;
}

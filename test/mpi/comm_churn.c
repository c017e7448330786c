/*
 * Communicators created and freed without end: a long run must not grow,
 * and traffic on a new communicator must never meet an old one's, even
 * when the new one reuses the old one's context id.
 *
 * Default: cycles of MPI_Comm_dup, MPI_Comm_split, MPI_Comm_idup,
 * MPI_Comm_create_group and (on 2+ ranks) MPI_Intercomm_create plus
 * MPI_Intercomm_merge, each with checked point-to-point and collective
 * traffic on the new communicator before it is freed; some cycles free a
 * communicator while a receive on it is still posted (MPI lets it complete)
 * and complete it on the next one. The resident set (VmRSS) after a
 * warm-up and at the end may differ by at most 256 KiB (before context ids
 * were reused, every cycle kept several hundred bytes).
 *
 * arg=exhaust: duplicates MPI_COMM_WORLD without freeing, by MPI_Comm_dup
 * then by MPI_Comm_idup, until the library runs out of context ids: the
 * error must be MPI_ERR_INTERN or MPI_ERR_OTHER saying "out of context
 * ids", on every rank at the same call, and once the communicators are
 * freed a duplicate works again.
 *
 * arg=N (a number): the cycles of the default test (default 20000).
 */
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

#define WARMUP 3000   /* cycles before the first reading: the heap settles */
#define RSS_SLACK_KB 256
#define EXHAUST_MAX 100000

/* This process's resident set in KiB, or -1. */
static long rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kb = strtol(line + 6, NULL, 10);
    fclose(f);
    return kb;
}

/* Checked traffic on c in cycle k: a ring of eager messages that arrive
 * before their receives are posted (so they sit in the unexpected queue),
 * a ring of posted receives, and an allreduce. */
static void traffic(MPI_Comm c, int k)
{
    int rank, size;
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[2] = { k, rank }, in[2] = { -1, -1 };
    MPI_Request r;
    MT_OK(MPI_Send(out, 2, MPI_INT, right, k % 7, c));
    MT_OK(MPI_Barrier(c));
    MT_OK(MPI_Recv(in, 2, MPI_INT, left, k % 7, c, MPI_STATUS_IGNORE));
    MT_CHECK(in[0] == k && in[1] == left, "cycle %d: unexpected message (%d, %d), want (%d, %d)",
             k, in[0], in[1], k, left);
    MT_OK(MPI_Irecv(in, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, c, &r));
    MT_OK(MPI_Send(out, 2, MPI_INT, right, 3, c));
    MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MT_CHECK(in[0] == k && in[1] == left, "cycle %d: posted receive got (%d, %d), want (%d, %d)",
             k, in[0], in[1], k, left);
    int sum = 0, one = k;
    MT_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c));
    MT_CHECK(sum == k * size, "cycle %d: allreduce gave %d, want %d", k, sum, k * size);
}

/* A receive left posted on a communicator freed before it completes. */
typedef struct pending {
    MPI_Request req;
    int buf[2];
    int cycle, from;
} pending_t;

/* Pairs of ranks (2i, 2i + 1) of c: the odd one posts a receive and frees
 * c with it still posted; once it has (a barrier on MPI_COMM_WORLD), the
 * even one sends and frees c too. The receive completes later (p). */
static void free_pending(MPI_Comm *c, int k, pending_t *p)
{
    int rank, size;
    MPI_Comm_rank(*c, &rank);
    MPI_Comm_size(*c, &size);
    int out[2] = { k, rank }, odd = rank % 2, peer = odd ? rank - 1 : rank + 1;
    if (odd) {
        p->cycle = k;
        p->from = peer;
        p->buf[0] = p->buf[1] = -1;
        MT_OK(MPI_Irecv(p->buf, 2, MPI_INT, peer, 11, *c, &p->req));
        MT_OK(MPI_Comm_free(c));
    }
    MT_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (!odd) {
        if (peer < size)
            MT_OK(MPI_Send(out, 2, MPI_INT, peer, 11, *c));
        MT_OK(MPI_Comm_free(c));
    }
}

static void finish_pending(pending_t *p)
{
    if (p->req == MPI_REQUEST_NULL)
        return;
    MT_OK(MPI_Wait(&p->req, MPI_STATUS_IGNORE));
    MT_CHECK(p->buf[0] == p->cycle && p->buf[1] == p->from,
             "cycle %d: receive on a freed communicator got (%d, %d), want (%d, %d)", p->cycle,
             p->buf[0], p->buf[1], p->cycle, p->from);
}

/* One new communicator of kind k % 6 (or MPI_COMM_NULL for this rank). */
static MPI_Comm make(int k)
{
    MPI_Comm c = MPI_COMM_NULL, ic, g_local;
    MPI_Group wg, g;
    MPI_Request r;
    switch (k % 6) {
    case 0:
    case 1:
        MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        break;
    case 2:
        MT_OK(MPI_Comm_split(MPI_COMM_WORLD, MTest_rank % 2, -MTest_rank, &c));
        break;
    case 3:
        MT_OK(MPI_Comm_idup(MPI_COMM_WORLD, &c, &r));
        MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        break;
    case 4: {
        /* All ranks but the last (all of them on one rank). */
        int n = MTest_size > 1 ? MTest_size - 1 : 1, range[1][3] = { { 0, n - 1, 1 } };
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Group_range_incl(wg, 1, range, &g);
        if (MTest_rank < n)
            MT_OK(MPI_Comm_create_group(MPI_COMM_WORLD, g, k % 1000, &c));
        MPI_Group_free(&g);
        MPI_Group_free(&wg);
        break;
    }
    case 5:
        if (MTest_size < 2) {
            MT_OK(MPI_Comm_dup(MPI_COMM_SELF, &c));
            break;
        }
        /* Even and odd ranks, each a local communicator, joined and merged. */
        MT_OK(MPI_Comm_split(MPI_COMM_WORLD, MTest_rank % 2, MTest_rank, &g_local));
        MT_OK(MPI_Intercomm_create(g_local, 0, MPI_COMM_WORLD, MTest_rank % 2 ? 0 : 1, k % 100,
                                   &ic));
        MT_OK(MPI_Comm_free(&g_local));
        MT_OK(MPI_Intercomm_merge(ic, MTest_rank % 2, &c));
        MT_OK(MPI_Comm_free(&ic));
        break;
    }
    return c;
}

static void churn(int cycles)
{
    pending_t p = { .req = MPI_REQUEST_NULL };
    long before = 0;
    for (int k = 0; k < WARMUP + cycles; k++) {
        if (k == WARMUP)
            before = rss_kb();
        MPI_Comm c = make(k);
        if (c != MPI_COMM_NULL) {
            traffic(c, k);
            finish_pending(&p);
        }
        /* Every rank of MPI_COMM_WORLD is in kind 1 (a duplicate). */
        if (k % 6 == 1)
            free_pending(&c, k, &p);
        else if (c != MPI_COMM_NULL)
            MT_OK(MPI_Comm_free(&c));
    }
    finish_pending(&p);
    MT_OK(MPI_Barrier(MPI_COMM_WORLD));
    long after = rss_kb();
    MT_CHECK(before > 0 && after > 0, "VmRSS not readable");
    MT_CHECK(after - before <= RSS_SLACK_KB,
             "VmRSS grew from %ld to %ld KiB over %d communicators created and freed", before,
             after, cycles);
}

/* Duplicates MPI_COMM_WORLD (by MPI_Comm_idup if nonblocking) until the
 * context ids run out; checks the error and that freeing brings them back. */
static void exhaust(int nonblocking)
{
    MPI_Comm *held = malloc(EXHAUST_MAX * sizeof(MPI_Comm));
    int n = 0, err = MPI_SUCCESS;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    while (n < EXHAUST_MAX) {
        if (nonblocking) {
            MPI_Request r;
            err = MPI_Comm_idup(MPI_COMM_WORLD, &held[n], &r);
            if (err == MPI_SUCCESS)
                err = MPI_Wait(&r, MPI_STATUS_IGNORE);
        } else {
            err = MPI_Comm_dup(MPI_COMM_WORLD, &held[n]);
        }
        if (err != MPI_SUCCESS)
            break;
        n++;
    }
    MT_CHECK(n < EXHAUST_MAX, "%d communicators alive and no error", n);
    if (n < EXHAUST_MAX) {
        int cls = MTest_Errclass(err);
        const char *s = MTest_Errstr(err);
        MT_CHECK(cls == MPI_ERR_INTERN || cls == MPI_ERR_OTHER,
                 "error class %d after %d communicators, want MPI_ERR_INTERN or MPI_ERR_OTHER",
                 cls, n);
        MT_CHECK(strstr(s, "out of context ids") != NULL, "error string: %s", s);
    }
    /* Every rank failed at the same call. */
    int lo = n, hi = n;
    MT_OK(MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    MT_OK(MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    MT_CHECK(lo == hi, "ranks ran out after %d .. %d communicators", lo, hi);
    /* The last one still works; then all go, and the ids come back. */
    if (n > 0)
        traffic(held[n - 1], n);
    while (n > 0)
        MT_OK(MPI_Comm_free(&held[--n]));
    MPI_Comm c;
    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    traffic(c, 1);
    MT_OK(MPI_Comm_free(&c));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    free(held);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    if (argc > 1 && strcmp(argv[1], "exhaust") == 0) {
        exhaust(0);
        exhaust(1);
    }
    else
        churn(argc > 1 ? atoi(argv[1]) : 20000);
    return MTest_Finalize();
}

/* rdmpi-ramp: the RAMP transactional key-value store (RAMP-Fast, Bailis
 * et al.) as an MPI program, with the access methods of Murata, Kawashima
 * and Tatebe's RDMA study rebuilt on MPI: the first --servers ranks hold
 * the keys, the others run a YCSB-style workload against them; rank 0
 * prints one summary line. Only <mpi.h> and documented MPIX_ functions,
 * so it builds with other MPI libraries too. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

#include "../common/stats.h"
#include "check.h"
#include "client.h"
#include "history.h"
#include "mailbox.h"
#include "opts.h"
#include "rpc.h"
#include "server.h"
#include "star.h"
#include "workload.h"

static void fail(const char *what)
{
    fprintf(stderr, "rdmpi-ramp: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* The initial load as history: every key at timestamp 0. */
static void history_load(struct ramp_history *h, const struct ramp_opts *o)
{
    uint64_t *keys = malloc(o->keys * 8);
    uint32_t *crc = malloc(o->keys * 4);
    uint8_t *v = malloc((size_t)o->value_size);
    if (!keys || !crc || !v)
        fail("no memory for the initial load's history");
    for (uint64_t k = 0; k < o->keys; k++) {
        keys[k] = k;
        ramp_value_fill(v, o->value_size, k, 0);
        crc[k] = ramp_crc32(v, (size_t)o->value_size);
    }
    ramp_history_put(h, 0, (int)o->keys, keys, crc);
    free(keys);
    free(crc);
    free(v);
}

static void summary(const struct ramp_opts *o, int clients, const struct app_hist *lat,
                    double seconds)
{
    uint64_t txns = app_hist_total(lat);
    double tps = seconds > 0 ? (double)txns / seconds : 0;
    double p50 = app_hist_quantile(lat, 0.50), p99 = app_hist_quantile(lat, 0.99);
    printf("ramp: method=%s reads=%d txn_size=%d servers=%d clients=%d txns=%" PRIu64
           " seconds=%.3f txn_per_s=%.0f p50_us=%.1f p99_us=%.1f\n", ramp_method_name(o->method),
           o->reads, o->txn_size, o->servers, clients, txns, seconds, tps, p50, p99);
    fflush(stdout);
    if (!o->csv)
        return;
    char v[10][64];
    snprintf(v[0], 64, "%s", ramp_method_name(o->method));
    snprintf(v[1], 64, "%d", o->reads);
    snprintf(v[2], 64, "%d", o->txn_size);
    snprintf(v[3], 64, "%d", o->servers);
    snprintf(v[4], 64, "%d", clients);
    snprintf(v[5], 64, "%" PRIu64, txns);
    snprintf(v[6], 64, "%.3f", seconds);
    snprintf(v[7], 64, "%.0f", tps);
    snprintf(v[8], 64, "%.1f", p50);
    snprintf(v[9], 64, "%.1f", p99);
    const char *names[] = { "method", "reads", "txn_size", "servers", "clients", "txns",
                            "seconds", "txn_per_s", "p50_us", "p99_us", NULL };
    const char *vals[] = { v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], NULL };
    if (app_csv_append(o->csv, names, vals))
        perror("rdmpi-ramp: --csv");
}

static int check_only(const struct ramp_opts *o, int rank)
{
    int bad = 0;
    if (rank == 0)
        bad = ramp_check(o->history) != 0;
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, size;
    struct ramp_opts o;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rc = ramp_opts_parse(&o, argc, argv, size, rank == 0);
    if (rc) {
        MPI_Finalize();
        return rc > 0 ? 0 : 2;
    }
    if (o.check_only) {
        rc = check_only(&o, rank);
        MPI_Finalize();
        return rc;
    }

    int server = rank < o.servers;
    int clients = size - o.servers;
    MPI_Comm role;
    MPI_Comm_split(MPI_COMM_WORLD, server, rank, &role);

    struct ramp_net net;
    memset(&net, 0, sizeof(net));
    rc = o.method == RAMP_RPC || o.method == RAMP_S2PL ? ramp_rpc_init(&net, &o, MPI_COMM_WORLD)
                                                       : ramp_mailbox_init(&net, &o,
                                                                           MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS)
        fail("cannot set up the method's communication");

    struct ramp_server sv;
    struct ramp_client cl;
    struct ramp_history hist, *h = NULL;
    struct ramp_star *star = NULL;
    if (server && ramp_server_init(&sv, &o, &net))
        fail("no memory for the store");
    if (o.method == RAMP_STAR) {
        star = ramp_star_new(&o, MPI_COMM_WORLD, o.servers, server ? &sv.store : NULL);
        if (!star)
            MPI_Abort(MPI_COMM_WORLD, 1);
        if (server)
            ramp_server_set_star(&sv, star);
    }
    if (!server && o.history) {
        if (ramp_history_open(&hist, o.history, rank))
            MPI_Abort(MPI_COMM_WORLD, 1);
        h = &hist;
        if (rank == o.servers)
            history_load(h, &o);
    }
    if (!server && ramp_client_init(&cl, &o, &net, star, h))
        fail("no memory for the client");

    MPI_Barrier(MPI_COMM_WORLD);
    double elapsed = 0;
    if (server) {
        if (ramp_server_run(&sv))
            MPI_Abort(MPI_COMM_WORLD, 1);
    } else {
        double t0 = app_now();
        if (ramp_client_run(&cl))
            MPI_Abort(MPI_COMM_WORLD, 1);
        elapsed = app_now() - t0;
        /* the final read sees every client's writes */
        MPI_Barrier(role);
        if (rank == o.servers && ramp_client_final_read(&cl))
            MPI_Abort(MPI_COMM_WORLD, 1);
        if (ramp_client_done(&cl))
            MPI_Abort(MPI_COMM_WORLD, 1);
    }

    struct app_hist *lat = calloc(1, sizeof(*lat)), *all = calloc(1, sizeof(*all));
    if (!lat || !all)
        fail("no memory for the statistics");
    if (!server)
        *lat = cl.lat;
    app_hist_reduce(lat, all, 0, MPI_COMM_WORLD);
    double seconds;
    MPI_Reduce(&elapsed, &seconds, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    if (o.verbose && server)
        fprintf(stderr, "rdmpi-ramp: rank %d: server: %lu requests, %" PRIu64 " keys, %" PRIu64
                " versions held (at most %" PRIu64 "), %" PRIu64 " freed\n", rank, sv.requests,
                sv.store.nkeys, sv.store.live, sv.store.max_live, sv.store.freed);
    if (o.verbose && !server && star)
        ramp_star_report(star, rank);

    int bad = 0;
    if (h && ramp_history_close(h))
        bad = 1;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
        summary(&o, clients, all, seconds);
        if (o.check && !bad)
            bad = ramp_check(o.history) != 0;
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);

    if (!server)
        ramp_client_free(&cl);
    if (star)
        ramp_star_free(star);
    net.ops->free(&net);
    if (server)
        ramp_server_free(&sv);
    free(lat);
    free(all);
    MPI_Comm_free(&role);
    MPI_Finalize();
    return bad;
}

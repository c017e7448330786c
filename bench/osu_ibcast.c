/*
 * osu_ibcast: latency of MPI_Ibcast and how much of it a program can hide
 * behind computation, in the manner of the OSU nonblocking-collective tests.
 * Per size, three measurements (each call timed on its own, an untimed
 * MPI_Barrier between calls, mean per rank, largest over the ranks):
 *
 *   pure      MPI_Ibcast from rank 0 + MPI_Wait
 *   compute   the compute loop alone, sized to take about `pure`
 *   overlap   MPI_Ibcast + the same compute loop, calling MPI_Test on the
 *             request every TEST_PERIOD_US of compute, + MPI_Wait
 *
 * pure has its own loop first (it sizes the computation); compute and
 * overlap alternate within a second loop. overlap % = max(0, 1 - (overlap -
 * compute) / pure) * 100, at most 100: 100 when the broadcast costs nothing
 * beyond the computation, 0 when none of it is hidden. The compute loop is
 * timed without the MPI_Test calls, so their cost counts against the
 * overlap. The loop's speed is calibrated on every rank at start-up; all
 * ranks compute for the largest pure latency.
 */
#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>

/* Multiply-adds per work unit: one unit is a fraction of a microsecond. */
#define WORK_INNER          64
/* Computation between two MPI_Test calls in the overlap loop. */
#define TEST_PERIOD_US      5.0
/* Each calibration run lasts at least this long, in seconds. */
#define CALIBRATE_MIN_S     2e-3
#define CALIBRATE_RUNS      5

static char columns[128];

static const bench_info_t info = {
    .name = "osu_ibcast",
    .what = "MPI_Ibcast from rank 0: pure latency (Ibcast + Wait), the same "
            "with a compute loop in between, the compute loop alone, all "
            "microseconds, largest over the ranks; overlap = max(0, 1 - "
            "(overlap - compute) / pure) in percent",
    .column = columns,
    .csv_column = "pure_us,overlap_us,compute_us,overlap_pct",
    BENCH_COLL_DEFAULTS,
};

/* The computation: a dependent chain of multiply-adds that stays near 1.0
 * (no denormals) and is stored, so the compiler can neither drop it nor
 * vectorize it away. */
static double work_state = 1.0;

static void work(long units)
{
    double x = work_state;
    long u;
    int j;

    for (u = 0; u < units; u++)
        for (j = 0; j < WORK_INNER; j++)
            x = x * 0.9999999 + 1e-7;
    work_state = x;
}

/* Work units per microsecond on this rank: the fastest of a few runs long
 * enough for MPI_Wtime, so a preempted run does not skew it. */
static double calibrate(void)
{
    long units = 64;
    double t, best = 0.0;
    int k;

    for (;;) {
        t = MPI_Wtime();
        work(units);
        t = MPI_Wtime() - t;
        if (t >= CALIBRATE_MIN_S)
            break;
        units *= 2;
    }
    for (k = 0; k < CALIBRATE_RUNS; k++) {
        double rate;

        t = MPI_Wtime();
        work(units);
        t = MPI_Wtime() - t;
        rate = (double)units / (t * 1e6);
        if (rate > best)
            best = rate;
    }
    return best;
}

/* Computes for about us microseconds; with req, calls MPI_Test on it every
 * TEST_PERIOD_US until it completes. */
static void compute(double us, double rate, MPI_Request *req)
{
    long left = (long)(us * rate + 0.5);
    long period = (long)(TEST_PERIOD_US * rate);
    int done = req == NULL;

    if (period < 1)
        period = 1;
    while (left > 0) {
        long u = left < period ? left : period;

        work(u);
        left -= u;
        if (!done)
            MPI_Test(req, &done, MPI_STATUS_IGNORE);
    }
}

/* One untimed broadcast of a known pattern, poisoned buffers elsewhere. */
static int check_round(void *buf, size_t size, int rank)
{
    unsigned seed = bench_seed(size, 0, 0);
    MPI_Request req;

    bench_fill(buf, size, rank == 0 ? seed : ~seed);
    MPI_Ibcast(buf, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    return bench_verify(&info, buf, size, seed);
}

/* Mean microseconds per call of MPI_Ibcast + MPI_Wait, over n calls after
 * w untimed ones. */
static double pure_loop(void *buf, size_t size, int n, int w)
{
    MPI_Request req;
    double sum = 0.0;

    BENCH_TIME_EACH_CALL(sum, w, n,
                         MPI_Ibcast(buf, (int)size, MPI_BYTE, 0,
                                    MPI_COMM_WORLD, &req);
                         MPI_Wait(&req, MPI_STATUS_IGNORE));
    return sum * 1e6 / n;
}

/* Means in microseconds of the compute loop alone (*comp) and of Ibcast +
 * compute loop + Wait (*overlap), us of computation each. The two
 * alternate within one loop, so a burst of noise from the machine falls on
 * both alike. */
static void overlap_loop(void *buf, size_t size, int n, int w, double us,
                         double rate, double *comp, double *overlap)
{
    double sum_c = 0.0, sum_o = 0.0;
    int it;

    MPI_Barrier(MPI_COMM_WORLD);
    for (it = 0; it < w + n; it++) {
        MPI_Request req;
        double t0 = MPI_Wtime(), t1, t2;

        compute(us, rate, NULL);
        t1 = MPI_Wtime();
        MPI_Barrier(MPI_COMM_WORLD);
        t2 = MPI_Wtime();
        MPI_Ibcast(buf, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD, &req);
        compute(us, rate, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (it >= w) {
            sum_c += t1 - t0;
            sum_o += MPI_Wtime() - t2;
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    *comp = sum_c * 1e6 / n;
    *overlap = sum_o * 1e6 / n;
}

static void print_row(const bench_opts_t *o, size_t size, double pure,
                      double overlap, double comp, double pct)
{
    if (o->csv)
        printf("%zu,%.2f,%.2f,%.2f,%.2f\n", size, pure, overlap, comp, pct);
    else
        printf("%-12zu%18.2f%18.2f%18.2f%18.2f\n", size, pure, overlap, comp,
               pct);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    char *buf;
    size_t size;
    double rate;
    int rank, errors = 0;

    snprintf(columns, sizeof(columns), "%18s%18s%18s%18s", "pure(us)",
             "overlap(us)", "compute(us)", "overlap(%)");
    rank = bench_begin(&argc, &argv, &info, &o);

    buf = bench_alloc(o.max_size);
    rate = calibrate();
    if (rank == 0)
        bench_print_header(&info, &o);

    for (size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
        int n = bench_iters(&o, size), w = bench_warmup(&o, size);
        double local[3], worst[3] = { 0.0, 0.0, 0.0 }, pure, pct = 0.0;

        if (o.check)
            errors += check_round(buf, size, rank);
        local[0] = pure_loop(buf, size, n, w);
        /* Every rank computes for the same time: the slowest rank's latency. */
        MPI_Allreduce(&local[0], &pure, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        overlap_loop(buf, size, n, w, pure, rate, &local[2], &local[1]);
        MPI_Reduce(local, worst, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            if (worst[0] > 0.0)
                pct = (1.0 - (worst[1] - worst[2]) / worst[0]) * 100.0;
            /* Noise can make the overlap loop faster than the compute
             * loop alone; more than all of it cannot be hidden. */
            pct = pct < 0.0 ? 0.0 : pct > 100.0 ? 100.0 : pct;
            print_row(&o, size, worst[0], worst[1], worst[2], pct);
        }
    }

    if (rank == 0 && !o.csv)
        printf("# compute loop: %.1f work units per us on rank 0; MPI_Test "
               "every %.0f us of compute\n", rate, TEST_PERIOD_US);
    free(buf);
    return bench_end(&o, errors);
}

/* stats: latency histograms (log-linear buckets, mergeable across ranks
 * with one reduction), a monotonic clock and CSV rows for the apps'
 * summaries. Only <mpi.h> and libc: the apps build with any MPI. */
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

double app_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void app_sleep_us(double us)
{
    double until = app_now() + us * 1e-6;
    while (app_now() < until)
        sched_yield();
}

/* Bucket of a latency: values below APP_HIST_SUB us are exact to 1 us;
 * above, each power of two is split into APP_HIST_SUB equal parts. */
static int bucket_of(double us)
{
    uint64_t v = us < 0 ? 0 : (uint64_t)us;
    if (v < APP_HIST_SUB)
        return (int)v;
    int p = 63 - __builtin_clzll(v); /* v in [2^p, 2^(p+1)) with p >= 6 */
    int sub = (int)((v >> (p - 6)) & (APP_HIST_SUB - 1));
    int b = (p - 5) * APP_HIST_SUB + sub;
    return b < APP_HIST_BUCKETS ? b : APP_HIST_BUCKETS - 1;
}

/* The lower bound in us of bucket b (inverse of bucket_of). */
static double bucket_low(int b)
{
    if (b < APP_HIST_SUB)
        return b;
    int p = b / APP_HIST_SUB + 5;
    int sub = b % APP_HIST_SUB;
    return ldexp((double)(APP_HIST_SUB + sub), p - 6);
}

void app_hist_add(struct app_hist *h, double us)
{
    h->count[bucket_of(us)]++;
}

void app_hist_reduce(const struct app_hist *h, struct app_hist *out, int root, MPI_Comm comm)
{
    MPI_Reduce(h->count, out->count, APP_HIST_BUCKETS, MPI_UINT64_T, MPI_SUM, root, comm);
}

uint64_t app_hist_total(const struct app_hist *h)
{
    uint64_t n = 0;
    for (int b = 0; b < APP_HIST_BUCKETS; b++)
        n += h->count[b];
    return n;
}

double app_hist_quantile(const struct app_hist *h, double q)
{
    uint64_t n = app_hist_total(h);
    if (n == 0)
        return 0;
    uint64_t want = (uint64_t)ceil(q * (double)n);
    if (want == 0)
        want = 1;
    uint64_t seen = 0;
    for (int b = 0; b < APP_HIST_BUCKETS; b++) {
        seen += h->count[b];
        if (seen >= want)
            return bucket_low(b);
    }
    return bucket_low(APP_HIST_BUCKETS - 1);
}

int app_csv_append(const char *path, const char *const *names, const char *const *values)
{
    struct stat st;
    int fresh = stat(path, &st) != 0 || st.st_size == 0;
    FILE *f = fopen(path, "a");
    if (!f)
        return -1;
    if (fresh) {
        for (int i = 0; names[i]; i++)
            fprintf(f, "%s%s", i ? "," : "", names[i]);
        fputc('\n', f);
    }
    for (int i = 0; values[i]; i++)
        fprintf(f, "%s%s", i ? "," : "", values[i]);
    fputc('\n', f);
    if (fclose(f) != 0)
        return -1;
    return 0;
}

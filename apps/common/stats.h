/* stats: latency histograms and run summaries shared by the apps. A
 * histogram has fixed log-linear buckets, so the ranks' histograms add up
 * with one MPI_Reduce and percentiles come from the sum. */
#ifndef APP_STATS_H
#define APP_STATS_H

#include <stdint.h>
#include <stdio.h>
#include <mpi.h>

/* 64 linear sub-buckets per power of two of microseconds: about 1.5 %
 * resolution from 1 us to 2^40 us. */
#define APP_HIST_SUB 64
#define APP_HIST_POW 40
#define APP_HIST_BUCKETS (APP_HIST_SUB * APP_HIST_POW)

struct app_hist {
    uint64_t count[APP_HIST_BUCKETS];
};

/* Seconds since an arbitrary point, monotonic. */
double app_now(void);
/* Busy-waits (yielding the CPU) for us microseconds. */
void app_sleep_us(double us);

void app_hist_add(struct app_hist *h, double us);
/* Sums every rank's histogram of comm into *out at root. */
void app_hist_reduce(const struct app_hist *h, struct app_hist *out, int root, MPI_Comm comm);
/* The q-quantile (0..1) in microseconds, 0 for an empty histogram. */
double app_hist_quantile(const struct app_hist *h, double q);
uint64_t app_hist_total(const struct app_hist *h);

/* Appends one CSV row to path, writing the header line first when the
 * file is new or empty. names and values are NULL-terminated lists of the
 * same length. Returns 0, or -1 with errno. */
int app_csv_append(const char *path, const char *const *names, const char *const *values);

#endif

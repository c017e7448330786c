/*
 * Shared plumbing of the benchmarks in bench/: command-line options (with
 * the one-sided ones: synchronization and window kind), the list of message
 * sizes, iteration counts per size, page-aligned pre-touched buffers, the
 * payload pattern used by -c, and the output format.
 *
 * Plain C99 + MPI-3 so the same sources build with any MPI (rdmpi, MPICH,
 * Open MPI); bench/compare.sh relies on that.
 */
#ifndef RD_BENCH_UTIL_H
#define RD_BENCH_UTIL_H

#include <stddef.h>
#include <mpi.h>

/* Sizes up to this many bytes are "small": they get the -i/-x counts. */
#define BENCH_SMALL_MAX     8192
/* Above this size the large counts halve with every doubling of the size. */
#define BENCH_TAPER_FROM    (1024 * 1024)
/* Largest size accepted by -m (1 GiB); the defaults stay far below. */
#define BENCH_SIZE_LIMIT    ((size_t)1 << 30)

/* Exit status of a benchmark whose MPI library reports
 * MPI_ERR_UNSUPPORTED_OPERATION for a call it needs (bench_rma.c). */
#define BENCH_EXIT_UNSUPPORTED 3

/* Synchronization of the one-sided benchmarks (-s). */
enum bench_sync {
    BENCH_SYNC_FLUSH,        /* passive target: MPI_Win_lock_all epoch,
                              * MPI_Win_flush completes the operations */
    BENCH_SYNC_FENCE,        /* active target: MPI_Win_fence */
    BENCH_SYNC_LOCK,         /* passive target: MPI_Win_lock (exclusive) and
                              * MPI_Win_unlock around each operation (or
                              * each window of them) */
    BENCH_SYNC_PSCW          /* active target: MPI_Win_post, MPI_Win_start,
                              * MPI_Win_complete, MPI_Win_wait */
};

/* How the one-sided benchmarks make their window (-w). */
enum bench_win_kind {
    BENCH_WIN_ALLOCATE,      /* MPI_Win_allocate: the library's own memory */
    BENCH_WIN_CREATE,        /* MPI_Win_create on the program's memory */
    BENCH_WIN_DYNAMIC        /* MPI_Win_create_dynamic + MPI_Win_attach */
};

/* What a program measures and its defaults; fixed per program. */
typedef struct bench_info {
    const char *name;        /* program name, e.g. "osu_latency" */
    const char *what;        /* one line: what is measured */
    const char *column;      /* value column header, e.g. "latency(us)" */
    const char *csv_column;  /* CSV value column name, e.g. "latency_us" */
    int multi_pair;          /* 0: exactly 2 ranks; 1: any even number of
                              * ranks, rank r < np/2 paired with r + np/2 */
    int uses_window;         /* 1 if a window count applies: -w, or -W in
                              * the one-sided programs */
    int rma;                 /* 1: one-sided; -s and -w (window kind) apply */
    int fixed_size;          /* 1: min_size is the only size; -m only
                              * has to include it */
    int decimals;            /* digits after the point in a row; 0: 2
                              * (one-sided latencies take 3: a put can cost
                              * a few hundredths of a microsecond) */
    size_t min_size, max_size;
    int iters, iters_large, warmup, warmup_large, window;
    size_t elem_size;        /* 0, or the element size the sizes must reach
                              * (the sweep then starts at one element) */
    const char *elem_name;   /* its name in the error, e.g. "float" */
} bench_info_t;

/* The value columns of a latency and of a bandwidth benchmark. */
#define BENCH_LATENCY_COLUMNS                                               \
    .column = "latency(us)", .csv_column = "latency_us"
#define BENCH_BW_COLUMNS                                                    \
    .column = "bandwidth(MB/s)", .csv_column = "bw_MBps"

/* The counts of the two-rank latency benchmarks (osu_latency and the
 * one-sided ones): 10000/1000 timed and 1000/10 warm-up rounds. */
#define BENCH_PINGPONG_COUNTS                                               \
    .iters = 10000, .iters_large = 1000,                                    \
    .warmup = 1000, .warmup_large = 10,                                     \
    .window = 1

/* The defaults every collective latency benchmark shares (designated
 * initializers for the rest of a bench_info_t): any even number of ranks,
 * no window, 8 B to 1 MiB, 1000/100 timed and 200/10 warm-up calls. */
#define BENCH_COLL_DEFAULTS                                                 \
    .multi_pair = 1, .uses_window = 0,                                      \
    .min_size = 8, .max_size = 1u << 20,                                    \
    .iters = 1000, .iters_large = 100,                                      \
    .warmup = 200, .warmup_large = 10,                                      \
    .window = 1

/* The same for the windowed point-to-point bandwidth benchmarks: 1 B to
 * 16 MiB, 500/50 timed and 50/5 warm-up windows of 64 messages. */
#define BENCH_WINDOW_BW_DEFAULTS                                            \
    .uses_window = 1,                                                       \
    .min_size = 1, .max_size = 16u << 20,                                   \
    .iters = 500, .iters_large = 50,                                        \
    .warmup = 50, .warmup_large = 5,                                        \
    .window = 64

/* Options after parsing the command line. */
typedef struct bench_opts {
    size_t min_size, max_size;
    int iters, iters_large, warmup, warmup_large, window;
    int check;               /* -c: verify the payload once per size */
    int csv;                 /* --csv: print size,value lines */
    int decimals;            /* of the values printed */
    enum bench_sync sync;          /* -s (one-sided programs) */
    enum bench_win_kind win_kind;  /* -w (one-sided programs) */
} bench_opts_t;

/* Result of bench_init. */
enum bench_start { BENCH_RUN, BENCH_EXIT_OK, BENCH_EXIT_USAGE };

/*
 * Parses argv into *o (every rank parses the same arguments) and checks the
 * communicator size. Rank 0 prints help or the reason for an error. The
 * caller finalizes MPI and exits 0 on BENCH_EXIT_OK, 2 on BENCH_EXIT_USAGE.
 */
enum bench_start bench_init(int argc, char **argv, const bench_info_t *info,
                            bench_opts_t *o);

/*
 * The start of every benchmark's main: MPI_Init, then bench_init. Returns
 * the rank in MPI_COMM_WORLD when the benchmark is to run; on -h or a usage
 * error it finalizes MPI and exits (status 0 or 2).
 */
int bench_begin(int *argc, char ***argv, const bench_info_t *info,
                bench_opts_t *o);

/*
 * The end of every benchmark's main: totals the -c errors over all ranks
 * (collective), rank 0 reports them when -c was given, then MPI_Finalize.
 * Returns the exit status: 1 if a check failed, else 0.
 */
int bench_end(const bench_opts_t *o, int errors);

/* malloc that prints "<name>: out of memory" and calls MPI_Abort on failure. */
void *bench_malloc(const bench_info_t *info, size_t len);

/* Next size in the sweep: 0 -> 1, then doubling. */
size_t bench_next_size(size_t size);

/* Timed iterations and warm-up iterations for one message size. */
int bench_iters(const bench_opts_t *o, size_t size);
int bench_warmup(const bench_opts_t *o, size_t size);

/* Distance between window slots in a buffer of several messages. */
size_t bench_slot_stride(size_t size);

/* Page-aligned, written once so no page fault lands in a timed loop.
 * Calls MPI_Abort on failure; never returns NULL. Free with free(). */
void *bench_alloc(size_t len);

/* The payload pattern of -c: a function of (seed, byte index). */
void bench_fill(void *buf, size_t len, unsigned seed);
/* Checks buf against bench_fill(seed); returns 0, or 1 after printing the
 * first wrong byte with rank, size and the benchmark name. */
int bench_verify(const bench_info_t *info, const void *buf, size_t len,
                 unsigned seed);
/* Seed for the message of (size, sender, slot); distinct per message. */
unsigned bench_seed(size_t size, int sender, int slot);

/* Output: header (comment lines + column line) and one row per size.
 * Only rank 0 calls these. */
void bench_print_header(const bench_info_t *info, const bench_opts_t *o);
void bench_print_row(const bench_opts_t *o, size_t size, double value);

/* Combines every rank's check-error count; returns the total (collective). */
int bench_check_total(int local_errors);

/*
 * Collective latency the OSU way: after a barrier, runs the statement(s)
 * given as the last argument w + n times, each call timed on its own with
 * an untimed MPI_Barrier after it, and adds the time of the last n calls
 * (seconds) to sum. A macro, not a function taking a callback, so the timed
 * region holds the MPI call alone, as it did when each benchmark spelled
 * the loop out.
 */
#define BENCH_TIME_EACH_CALL(sum, w, n, ...)                                \
    do {                                                                    \
        int bench_it_;                                                      \
        MPI_Barrier(MPI_COMM_WORLD);                                        \
        for (bench_it_ = 0; bench_it_ < (w) + (n); bench_it_++) {           \
            double bench_t0_ = MPI_Wtime();                                 \
            __VA_ARGS__;                                                    \
            if (bench_it_ >= (w))                                           \
                (sum) += MPI_Wtime() - bench_t0_;                           \
            MPI_Barrier(MPI_COMM_WORLD);                                    \
        }                                                                   \
    } while (0)

/* Mean microseconds per call (sum seconds over n calls), largest over the
 * ranks: the reported value, valid at rank 0 (collective). */
double bench_worst_mean_us(double sum, int n);

/*
 * The untimed -c round of the windowed benchmarks. The receiving side posts
 * `window` receives into consecutive slots of buf (bench_window_irecv), the
 * sending side sends `window` messages, each with its own pattern, in order
 * (bench_window_send_pattern), and the receiver then checks length and
 * payload of every slot (bench_window_verify), which also catches messages
 * matched out of order. reqs holds `window` requests.
 */
void bench_window_irecv(void *buf, size_t size, int window, int peer,
                        MPI_Request *reqs);
void bench_window_send_pattern(void *buf, size_t size, int window, int peer);
int bench_window_verify(const bench_info_t *info, void *buf, size_t size,
                        int window, int peer, MPI_Request *reqs);

/*
 * One-way windows from a sender to its peer (osu_bw, osu_mr). The sender
 * needs one message of buffer (every send of a window reuses it), the
 * receiver one slot per message of the window: bench_oneway_buffer
 * allocates either. bench_oneway_check is the untimed -c round and returns
 * the receiver's error count; bench_oneway_window is one timed iteration:
 * a window of MPI_Isend or MPI_Irecv, MPI_Waitall, then a zero-byte ack
 * from the receiver so the next window does not start before this one has
 * arrived. reqs and stats hold `window` entries.
 */
void *bench_oneway_buffer(const bench_opts_t *o, int sender);
int bench_oneway_check(const bench_info_t *info, void *buf, size_t size,
                       int window, int sender, int peer, MPI_Request *reqs);
void bench_oneway_window(void *buf, size_t size, int window, int sender,
                         int peer, MPI_Request *reqs, MPI_Status *stats);

/*
 * The size loop of osu_bw and osu_mr between sender and peer: the buffers
 * above, the header, then per size the -c round, a barrier, the warm-up
 * and timed windows, and a row with value(o, size, n, t, sender), where t
 * is this rank's time of the n timed windows in seconds; value is called
 * on every rank (it may be collective) and its result printed by rank 0.
 * Returns the -c error count of this rank, for bench_end.
 */
typedef double (*bench_oneway_value_fn)(const bench_opts_t *o, size_t size,
                                        int n, double t, int sender);
int bench_oneway_sweep(const bench_info_t *info, const bench_opts_t *o,
                       int sender, int peer, bench_oneway_value_fn value);

/* Tags used by every benchmark. */
#define BENCH_TAG_DATA  1
#define BENCH_TAG_ACK   2

#endif

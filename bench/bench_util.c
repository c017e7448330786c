/*
 * Shared plumbing of the benchmarks (see bench_util.h). Everything here
 * runs outside the timed loops except bench_oneway_window, which is one
 * whole timed iteration (a window of messages) of osu_bw and osu_mr.
 */
#include "bench_util.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OPT_CSV = 256, OPT_WINDOW };

/* --window is the count of messages in flight everywhere; its short form is
 * -w, except in the one-sided programs, where -w is the window kind (as in
 * the OSU programs) and the count is -W. */
static const struct option long_opts[] = {
    { "sizes",        required_argument, NULL, 'm' },
    { "iters",        required_argument, NULL, 'i' },
    { "iters-large",  required_argument, NULL, 'I' },
    { "warmup",       required_argument, NULL, 'x' },
    { "warmup-large", required_argument, NULL, 'X' },
    { "window",       required_argument, NULL, OPT_WINDOW },
    { "sync",         required_argument, NULL, 's' },
    { "win",          required_argument, NULL, 'w' },
    { "check",        no_argument,       NULL, 'c' },
    { "csv",          no_argument,       NULL, OPT_CSV },
    { "help",         no_argument,       NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

static const char *const sync_names[] = { "flush", "fence", "lock", "pscw" };
static const char *const sync_texts[] = {
    "flush: MPI_Win_flush in an MPI_Win_lock_all epoch (passive target)",
    "fence: MPI_Win_fence (active target)",
    "lock: MPI_Win_lock (exclusive) and MPI_Win_unlock (passive target)",
    "pscw: MPI_Win_post/start/complete/wait (active target)",
};
static const char *const win_names[] = { "allocate", "create", "dynamic" };
static const char *const win_texts[] = {
    "allocate: MPI_Win_allocate",
    "create: MPI_Win_create on page-aligned malloc'd memory",
    "dynamic: MPI_Win_create_dynamic + MPI_Win_attach",
};

static int world_rank(void)
{
    int rank;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

static void usage(const bench_info_t *info, FILE *f)
{
    fprintf(f,
        "Usage: mpirun -np %s %s [options]\n"
        "%s.\n\n",
        info->multi_pair ? "2 (or any even N)" : "2", info->name, info->what);
    if (info->fixed_size)
        fprintf(f,
        "  -m, --sizes [MIN:]MAX   accepted if the range holds %zu, the only size\n",
        info->min_size);
    else
        fprintf(f,
        "  -m, --sizes [MIN:]MAX   message sizes in bytes, powers of two from MIN\n"
        "                          to MAX; suffixes K, M, G (default %zu:%zu)\n",
        info->min_size, info->max_size);
    fprintf(f,
        "  -i, --iters N           timed iterations for sizes <= %d B (default %d)\n"
        "  -I, --iters-large N     timed iterations above %d B (default %d); halved\n"
        "                          for every doubling above 1 MiB, not below 5\n"
        "  -x, --warmup N          untimed iterations first, small sizes (default %d)\n"
        "  -X, --warmup-large N    the same above %d B (default %d)\n",
        BENCH_SMALL_MAX, info->iters, BENCH_SMALL_MAX, info->iters_large,
        info->warmup, BENCH_SMALL_MAX, info->warmup_large);
    if (info->rma)
        fprintf(f,
        "  -s, --sync MODE         synchronization (default flush):\n"
        "                            %s\n"
        "                            %s\n"
        "                            %s\n"
        "                            %s\n"
        "  -w, --win KIND          the window (default allocate):\n"
        "                            %s\n"
        "                            %s\n"
        "                            %s\n",
        sync_texts[0], sync_texts[1], sync_texts[2], sync_texts[3],
        win_texts[0], win_texts[1], win_texts[2]);
    if (info->uses_window)
        fprintf(f, info->rma ?
        "  -W, --window N          operations per synchronization (default %d)\n" :
        "  -w, --window N          messages in flight per iteration (default %d)\n",
        info->window);
    fprintf(f,
        "  -c, --check             before timing each size, send one round with a\n"
        "                          known pattern and verify every byte received\n"
        "      --csv               print \"size,%s\" lines instead of the table\n"
        "  -h, --help              this text\n",
        info->csv_column);
}

/* Parses "123", "8K", "4M", "1G". Returns 0 on success. */
static int parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno != 0 || end == s)
        return -1;
    switch (*end) {
    case 'k': case 'K': v <<= 10; end++; break;
    case 'm': case 'M': v <<= 20; end++; break;
    case 'g': case 'G': v <<= 30; end++; break;
    default: break;
    }
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end != '\0' || v > BENCH_SIZE_LIMIT)
        return -1;
    *out = (size_t)v;
    return 0;
}

static int parse_sizes(const char *s, bench_opts_t *o)
{
    char buf[64];
    char *colon;

    if (strlen(s) >= sizeof(buf))
        return -1;
    strcpy(buf, s);
    colon = strchr(buf, ':');
    if (colon) {
        *colon = '\0';
        if (parse_size(buf, &o->min_size) != 0)
            return -1;
        return parse_size(colon + 1, &o->max_size);
    }
    return parse_size(buf, &o->max_size);
}

static int parse_count(const char *s, int min, int *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < min || v > 100000000L)
        return -1;
    *out = (int)v;
    return 0;
}

/* Index of s in names[0..n-1], stored in *out. Returns 0 if found. */
static int parse_name(const char *s, const char *const *names, int n,
                      int *out)
{
    int i;

    for (i = 0; i < n; i++) {
        if (strcmp(s, names[i]) == 0) {
            *out = i;
            return 0;
        }
    }
    return -1;
}

enum bench_start bench_init(int argc, char **argv, const bench_info_t *info,
                            bench_opts_t *o)
{
    int rank = world_rank(), nprocs, c, bad = 0, pick = 0;

    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    o->min_size = info->min_size;
    o->max_size = info->max_size;
    o->iters = info->iters;
    o->iters_large = info->iters_large;
    o->warmup = info->warmup;
    o->warmup_large = info->warmup_large;
    o->window = info->window;
    o->check = 0;
    o->csv = 0;
    o->decimals = info->decimals > 0 ? info->decimals : 2;
    o->sync = BENCH_SYNC_FLUSH;
    o->win_kind = BENCH_WIN_ALLOCATE;

    opterr = 0;
    while (!bad && (c = getopt_long(argc, argv, "m:i:I:x:X:w:W:s:ch",
                                    long_opts, NULL)) != -1) {
        switch (c) {
        case 'm': bad = parse_sizes(optarg, o); break;
        case 'i': bad = parse_count(optarg, 1, &o->iters); break;
        case 'I': bad = parse_count(optarg, 1, &o->iters_large); break;
        case 'x': bad = parse_count(optarg, 0, &o->warmup); break;
        case 'X': bad = parse_count(optarg, 0, &o->warmup_large); break;
        case 'w':
            if (info->rma) {
                bad = parse_name(optarg, win_names, 3, &pick);
                if (!bad)
                    o->win_kind = (enum bench_win_kind)pick;
                break;
            }
            bad = !info->uses_window || parse_count(optarg, 1, &o->window);
            break;
        case 'W':
            bad = !info->rma || !info->uses_window ||
                  parse_count(optarg, 1, &o->window);
            break;
        case OPT_WINDOW:
            bad = !info->uses_window || parse_count(optarg, 1, &o->window);
            break;
        case 's':
            bad = !info->rma || parse_name(optarg, sync_names, 4, &pick);
            if (!bad)
                o->sync = (enum bench_sync)pick;
            break;
        case 'c': o->check = 1; break;
        case OPT_CSV: o->csv = 1; break;
        case 'h':
            if (rank == 0)
                usage(info, stdout);
            return BENCH_EXIT_OK;
        default: bad = 1; break;
        }
        if (bad && rank == 0)
            fprintf(stderr, "%s: bad option or value: %s\n", info->name,
                    argv[optind - 1 > 0 ? optind - 1 : 0]);
    }
    if (!bad && optind < argc) {
        bad = 1;
        if (rank == 0)
            fprintf(stderr, "%s: unexpected argument: %s\n", info->name,
                    argv[optind]);
    }
    if (!bad && o->min_size > o->max_size) {
        bad = 1;
        if (rank == 0)
            fprintf(stderr, "%s: minimum size %zu is above maximum %zu\n",
                    info->name, o->min_size, o->max_size);
    }
    if (!bad && (info->multi_pair ? (nprocs < 2 || nprocs % 2 != 0)
                                  : nprocs != 2)) {
        bad = 1;
        if (rank == 0)
            fprintf(stderr, "%s: needs %s MPI processes, got %d\n", info->name,
                    info->multi_pair ? "an even number of" : "exactly 2",
                    nprocs);
    }
    if (bad) {
        if (rank == 0)
            usage(info, stderr);
        return BENCH_EXIT_USAGE;
    }
    /* A range that holds the one size runs it, so a common -m (compare.sh
     * --args) does not stop these programs. */
    if (info->fixed_size) {
        if (o->min_size > info->min_size || o->max_size < info->min_size) {
            if (rank == 0)
                fprintf(stderr, "%s: the size is fixed at %zu bytes; -m "
                        "must include it\n", info->name, info->min_size);
            return BENCH_EXIT_USAGE;
        }
        o->min_size = o->max_size = info->min_size;
    }
    if (o->max_size < info->elem_size) {
        if (rank == 0)
            fprintf(stderr, "%s: sizes must reach %zu bytes (one %s)\n",
                    info->name, info->elem_size, info->elem_name);
        return BENCH_EXIT_USAGE;
    }
    if (o->min_size < info->elem_size)
        o->min_size = info->elem_size;
    return BENCH_RUN;
}

int bench_begin(int *argc, char ***argv, const bench_info_t *info,
                bench_opts_t *o)
{
    enum bench_start start;

    MPI_Init(argc, argv);
    start = bench_init(*argc, *argv, info, o);
    if (start != BENCH_RUN) {
        MPI_Finalize();
        exit(start == BENCH_EXIT_OK ? 0 : 2);
    }
    return world_rank();
}

int bench_end(const bench_opts_t *o, int errors)
{
    errors = bench_check_total(errors);
    if (world_rank() == 0 && o->check)
        fprintf(errors ? stderr : stdout, "# check: %s (%d errors)\n",
                errors ? "FAILED" : "passed", errors);
    MPI_Finalize();
    return errors ? 1 : 0;
}

void *bench_malloc(const bench_info_t *info, size_t len)
{
    void *p = malloc(len);

    if (!p) {
        fprintf(stderr, "%s: out of memory\n", info->name);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

size_t bench_next_size(size_t size)
{
    return size == 0 ? 1 : size * 2;
}

/* Halves n for every doubling of size above BENCH_TAPER_FROM, keeping at
 * least `floor` (or n itself when n is already below floor). */
static int taper(int n, size_t size, int floor)
{
    int keep = n < floor ? n : floor;
    size_t s;

    for (s = BENCH_TAPER_FROM; s < size; s *= 2)
        n /= 2;
    return n > keep ? n : keep;
}

int bench_iters(const bench_opts_t *o, size_t size)
{
    if (size <= BENCH_SMALL_MAX)
        return o->iters;
    return taper(o->iters_large, size, 5);
}

int bench_warmup(const bench_opts_t *o, size_t size)
{
    if (size <= BENCH_SMALL_MAX)
        return o->warmup;
    return taper(o->warmup_large, size, 1);
}

size_t bench_slot_stride(size_t size)
{
    size_t align = size >= 4096 ? 4096 : 64;

    if (size == 0)
        return align;
    return (size + align - 1) / align * align;
}

void *bench_alloc(size_t len)
{
    long page = sysconf(_SC_PAGESIZE);
    void *p = NULL;
    int rc;

    if (page <= 0)
        page = 4096;
    if (len == 0)
        len = 1;
    rc = posix_memalign(&p, (size_t)page, len);
    if (rc != 0) {
        fprintf(stderr, "rank %d: cannot allocate %zu bytes: %s\n",
                world_rank(), len, strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(p, 0xa5, len);
    return p;
}

static inline unsigned char pattern_byte(unsigned seed, size_t i)
{
    uint32_t v = (uint32_t)i * 2654435761u + seed * 40503u;

    return (unsigned char)((v >> 24) ^ (uint32_t)i);
}

void bench_fill(void *buf, size_t len, unsigned seed)
{
    unsigned char *p = buf;
    size_t i;

    for (i = 0; i < len; i++)
        p[i] = pattern_byte(seed, i);
}

int bench_verify(const bench_info_t *info, const void *buf, size_t len,
                 unsigned seed)
{
    const unsigned char *p = buf;
    size_t i;

    for (i = 0; i < len; i++) {
        if (p[i] != pattern_byte(seed, i)) {
            fprintf(stderr, "%s: rank %d: size %zu: byte %zu is 0x%02x, "
                    "expected 0x%02x\n", info->name, world_rank(), len, i,
                    p[i], pattern_byte(seed, i));
            return 1;
        }
    }
    return 0;
}

unsigned bench_seed(size_t size, int sender, int slot)
{
    return (unsigned)size * 7919u + (unsigned)sender * 104729u +
           (unsigned)slot * 31u + 1u;
}

void bench_print_header(const bench_info_t *info, const bench_opts_t *o)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len, nprocs;

    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (o->csv) {
        printf("size,%s\n", info->csv_column);
        fflush(stdout);
        return;
    }
    MPI_Get_library_version(version, &len);
    version[strcspn(version, "\r\n")] = '\0';
    printf("# %s: %s\n", info->name, info->what);
    printf("# library: %s\n", version);
    printf("# processes: %d; iterations: %d (above %d B: %d, tapered above "
           "1 MiB); warm-up: %d/%d", nprocs, o->iters, BENCH_SMALL_MAX,
           o->iters_large, o->warmup, o->warmup_large);
    if (info->uses_window)
        printf("; %s: %d", info->rma ? "operations per synchronization"
                                     : "window", o->window);
    printf("; check: %s\n", o->check ? "on" : "off");
    if (info->rma)
        printf("# sync %s\n# window %s\n", sync_texts[o->sync],
               win_texts[o->win_kind]);
    printf("%-12s%18s\n", "size(B)", info->column);
    fflush(stdout);
}

void bench_print_row(const bench_opts_t *o, size_t size, double value)
{
    if (o->csv)
        printf("%zu,%.*f\n", size, o->decimals, value);
    else
        printf("%-12zu%18.*f\n", size, o->decimals, value);
    fflush(stdout);
}

int bench_check_total(int local_errors)
{
    int total = 0;

    MPI_Allreduce(&local_errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return total;
}

double bench_worst_mean_us(double sum, int n)
{
    double mean = sum * 1e6 / n, worst = 0.0;

    MPI_Reduce(&mean, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return worst;
}

void bench_window_irecv(void *buf, size_t size, int window, int peer,
                        MPI_Request *reqs)
{
    size_t stride = bench_slot_stride(size);
    int j;

    for (j = 0; j < window; j++) {
        char *slot = (char *)buf + (size_t)j * stride;

        bench_fill(slot, size, ~bench_seed(size, peer, j));
        MPI_Irecv(slot, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA,
                  MPI_COMM_WORLD, &reqs[j]);
    }
}

void bench_window_send_pattern(void *buf, size_t size, int window, int peer)
{
    int me = world_rank(), j;

    for (j = 0; j < window; j++) {
        bench_fill(buf, size, bench_seed(size, me, j));
        MPI_Send(buf, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA,
                 MPI_COMM_WORLD);
    }
}

int bench_window_verify(const bench_info_t *info, void *buf, size_t size,
                        int window, int peer, MPI_Request *reqs)
{
    size_t stride = bench_slot_stride(size);
    int errors = 0, j;

    for (j = 0; j < window; j++) {
        MPI_Status st;
        int count;

        MPI_Wait(&reqs[j], &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        if ((size_t)count != size || st.MPI_SOURCE != peer) {
            fprintf(stderr, "%s: rank %d: size %zu: slot %d received %d bytes "
                    "from rank %d\n", info->name, world_rank(), size, j, count,
                    st.MPI_SOURCE);
            errors++;
            continue;
        }
        errors += bench_verify(info, (char *)buf + (size_t)j * stride, size,
                               bench_seed(size, peer, j));
    }
    return errors;
}

void *bench_oneway_buffer(const bench_opts_t *o, int sender)
{
    if (sender)
        return bench_alloc(o->max_size);
    return bench_alloc(bench_slot_stride(o->max_size) * (size_t)o->window);
}

int bench_oneway_check(const bench_info_t *info, void *buf, size_t size,
                       int window, int sender, int peer, MPI_Request *reqs)
{
    int errors = 0;

    if (sender) {
        bench_window_send_pattern(buf, size, window, peer);
        MPI_Recv(NULL, 0, MPI_BYTE, peer, BENCH_TAG_ACK, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    } else {
        bench_window_irecv(buf, size, window, peer, reqs);
        errors = bench_window_verify(info, buf, size, window, peer, reqs);
        MPI_Send(NULL, 0, MPI_BYTE, peer, BENCH_TAG_ACK, MPI_COMM_WORLD);
    }
    return errors;
}

void bench_oneway_window(void *buf, size_t size, int window, int sender,
                         int peer, MPI_Request *reqs, MPI_Status *stats)
{
    size_t stride = bench_slot_stride(size);
    int j;

    if (sender) {
        for (j = 0; j < window; j++)
            MPI_Isend(buf, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA,
                      MPI_COMM_WORLD, &reqs[j]);
        MPI_Waitall(window, reqs, stats);
        MPI_Recv(NULL, 0, MPI_BYTE, peer, BENCH_TAG_ACK, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    } else {
        for (j = 0; j < window; j++)
            MPI_Irecv((char *)buf + (size_t)j * stride, (int)size, MPI_BYTE,
                      peer, BENCH_TAG_DATA, MPI_COMM_WORLD, &reqs[j]);
        MPI_Waitall(window, reqs, stats);
        MPI_Send(NULL, 0, MPI_BYTE, peer, BENCH_TAG_ACK, MPI_COMM_WORLD);
    }
}

int bench_oneway_sweep(const bench_info_t *info, const bench_opts_t *o,
                       int sender, int peer, bench_oneway_value_fn value)
{
    MPI_Request *reqs;
    MPI_Status *stats;
    void *buf;
    size_t size;
    int rank = world_rank(), errors = 0;

    buf = bench_oneway_buffer(o, sender);
    reqs = bench_malloc(info, sizeof(*reqs) * (size_t)o->window);
    stats = bench_malloc(info, sizeof(*stats) * (size_t)o->window);
    if (rank == 0)
        bench_print_header(info, o);

    for (size = o->min_size; size <= o->max_size;
         size = bench_next_size(size)) {
        int n = bench_iters(o, size), w = bench_warmup(o, size), i;
        double t0 = 0.0, v;

        if (o->check)
            errors += bench_oneway_check(info, buf, size, o->window, sender,
                                         peer, reqs);
        MPI_Barrier(MPI_COMM_WORLD);
        for (i = 0; i < w + n; i++) {
            if (i == w)
                t0 = MPI_Wtime();
            bench_oneway_window(buf, size, o->window, sender, peer, reqs,
                                stats);
        }
        v = value(o, size, n, MPI_Wtime() - t0, sender);
        if (rank == 0)
            bench_print_row(o, size, v);
    }

    free(reqs);
    free(stats);
    free(buf);
    return errors;
}

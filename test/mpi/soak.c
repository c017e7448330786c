/*
 * soak: mixed traffic for a given time (argv[1] seconds, default 10), every
 * byte checked, to find what only shows over many rounds: corruption under
 * load, lost or misdirected messages, leaks (test/mpi/soak.sh samples the
 * ranks' memory while this runs). Each round, with tags that carry the
 * round so that no message can match another round's receive:
 *   - a ring both ways (MPI_Irecv/MPI_Isend) overlapped with an
 *     MPI_Iallreduce, sizes from 0 B through the eager and rendezvous
 *     thresholds to 256 KiB, and 1 MiB every 16th round;
 *   - a message from every rank to every other one, received with
 *     MPI_ANY_SOURCE (the sender told by the status);
 *   - an MPI_Ssend / MPI_Recv pair exchange and an MPI_Sendrecv;
 *   - MPI_Bcast from a rotating root, MPI_Allreduce and MPI_Reduce of
 *     64-bit integers whose sums are known, MPI_Allgather, MPI_Alltoallv
 *     with counts that differ per pair;
 *   - every 32nd round, a duplicated and a split communicator, and a
 *     vector datatype, made, used and freed.
 * Payloads are a pseudo-random stream seeded by (kind, round, sender,
 * receiver): a receiver regenerates it and compares every byte, and the
 * length too. Rank 0 decides when to stop and tells the others each round.
 * Rank i prints "soak: rank i pid P" once initialized, and rank 0 a summary
 * at the end.
 */
#include "mtest.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXLEN (1024 * 1024)
#define A2A_MAX 65537
#define ERRS_SHOWN 10

/* Traffic kinds: part of each payload's seed and of its tag. */
enum { K_RING = 1, K_ANY, K_SSEND, K_SENDRECV, K_BCAST, K_A2A, K_DUP, K_VEC };

static const size_t sizes[] = { 0, 1, 3, 8, 100, 1024, 4000, 16383, 16384, 16385,
                                65536, 65537, 100000, 262144 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

static int rank, np;
static unsigned long long checked;  /* payload bytes compared on this rank */

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t seed_of(int kind, long round, int src, int dst)
{
    return mix(((uint64_t)kind << 56) ^ ((uint64_t)round << 20) ^ ((uint64_t)src << 10) ^
               (uint64_t)dst);
}

/* The length of a message: from the table, 1 MiB now and then on the ring. */
static size_t len_of(int kind, long round, int src, int dst, size_t max)
{
    size_t n;
    if (kind == K_RING && round % 16 == 0 && max >= MAXLEN)
        return MAXLEN;
    n = sizes[mix(seed_of(kind, round, src, dst) + 1) % NSIZES];
    return n < max ? n : max;
}

static void fill(unsigned char *buf, size_t len, uint64_t seed)
{
    for (size_t i = 0; i < len; i += 8) {
        uint64_t w = mix(seed + i);
        memcpy(buf + i, &w, len - i < 8 ? len - i : 8);
    }
}

/* Compares buf (got bytes) with the payload expected; reports the first
 * difference. */
static void check(const unsigned char *buf, size_t got, size_t len, uint64_t seed,
                  const char *what, long round, int src)
{
    checked += got;
    if (got != len) {
        if (MTest_errs < ERRS_SHOWN)
            MT_FAIL("round %ld: %s from rank %d: %zu bytes, expected %zu", round, what, src, got,
                    len);
        else
            MTest_errs++;
        return;
    }
    for (size_t i = 0; i < len; i += 8) {
        uint64_t w = mix(seed + i);
        size_t n = len - i < 8 ? len - i : 8;
        if (memcmp(buf + i, &w, n) != 0) {
            size_t k = i;
            while (k < i + n && buf[k] == ((unsigned char *)&w)[k - i])
                k++;
            if (MTest_errs < ERRS_SHOWN)
                MT_FAIL("round %ld: %s from rank %d (%zu bytes): byte %zu is 0x%02x, expected "
                        "0x%02x", round, what, src, len, k, buf[k],
                        ((unsigned char *)&w)[k - i]);
            else
                MTest_errs++;
            return;
        }
    }
}

static int tag_of(int kind, long round)
{
    return kind * 4096 + (int)(round % 4096);
}

static int count_of(MPI_Status *st)
{
    int n = -1;
    MPI_Get_count(st, MPI_BYTE, &n);
    return n;
}

/* Contribution of rank r to element i of round's reductions. */
static int64_t contrib(long round, int r, int i)
{
    return (int64_t)(mix(seed_of(0, round, r, i)) & 0xffffff) - 0x800000;
}

typedef struct bufs {
    unsigned char *s[2], *r[2];         /* ring: to/from left and right */
    unsigned char *any_s, *any_r;       /* one message to each peer, one received */
    unsigned char *a2a_s, *a2a_r;
    int *sc, *sd, *rc, *rd;
    int64_t *red, *res;
} bufs_t;

#define RED_MAX 20000

static void ring(bufs_t *b, long round)
{
    int peer[2] = { (rank + np - 1) % np, (rank + 1) % np };
    MPI_Request req[5];
    MPI_Status st[5];
    int64_t in = contrib(round, rank, 0), sum = 0, want = 0;

    for (int d = 0; d < 2; d++)
        MPI_Irecv(b->r[d], MAXLEN, MPI_BYTE, peer[d], tag_of(K_RING, round), MPI_COMM_WORLD,
                  &req[d]);
    MPI_Iallreduce(&in, &sum, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD, &req[4]);
    for (int d = 0; d < 2; d++) {
        size_t len = len_of(K_RING, round, rank, peer[d], MAXLEN);
        fill(b->s[d], len, seed_of(K_RING, round, rank, peer[d]));
        MPI_Isend(b->s[d], (int)len, MPI_BYTE, peer[d], tag_of(K_RING, round), MPI_COMM_WORLD,
                  &req[2 + d]);
    }
    MT_OK(MPI_Waitall(5, req, st));
    for (int d = 0; d < 2; d++)
        check(b->r[d], (size_t)count_of(&st[d]), len_of(K_RING, round, peer[d], rank, MAXLEN),
              seed_of(K_RING, round, peer[d], rank), "ring message", round, peer[d]);
    for (int r = 0; r < np; r++)
        want += contrib(round, r, 0);
    MT_CHECK(sum == want, "round %ld: MPI_Iallreduce gave %lld, expected %lld", round,
             (long long)sum, (long long)want);
}

static void any_source(bufs_t *b, long round)
{
    MPI_Request *req = MTest_Malloc((size_t)np * sizeof(*req));
    int n = 0;

    for (int dst = 0; dst < np; dst++) {
        size_t len;
        if (dst == rank)
            continue;
        len = len_of(K_ANY, round, rank, dst, 4096);
        fill(b->any_s + (size_t)dst * 4096, len, seed_of(K_ANY, round, rank, dst));
        MPI_Isend(b->any_s + (size_t)dst * 4096, (int)len, MPI_BYTE, dst, tag_of(K_ANY, round),
                  MPI_COMM_WORLD, &req[n++]);
    }
    for (int k = 0; k < np - 1; k++) {
        MPI_Status st;
        MT_OK(MPI_Recv(b->any_r, 4096, MPI_BYTE, MPI_ANY_SOURCE, tag_of(K_ANY, round),
                       MPI_COMM_WORLD, &st));
        check(b->any_r, (size_t)count_of(&st), len_of(K_ANY, round, st.MPI_SOURCE, rank, 4096),
              seed_of(K_ANY, round, st.MPI_SOURCE, rank), "MPI_ANY_SOURCE message", round,
              st.MPI_SOURCE);
    }
    MT_OK(MPI_Waitall(n, req, MPI_STATUSES_IGNORE));
    free(req);
}

/* Ranks paired (0,1), (2,3), ...: MPI_Ssend one way then the other, and
 * an MPI_Sendrecv with the neighbour on the right. */
static void pairs(bufs_t *b, long round)
{
    int mate = rank ^ 1, right = (rank + 1) % np, left = (rank + np - 1) % np;
    MPI_Status st;

    if (mate < np) {
        size_t out = len_of(K_SSEND, round, rank, mate, MAXLEN);
        fill(b->s[0], out, seed_of(K_SSEND, round, rank, mate));
        for (int turn = 0; turn < 2; turn++) {
            if ((rank & 1) == turn) {
                MT_OK(MPI_Ssend(b->s[0], (int)out, MPI_BYTE, mate, tag_of(K_SSEND, round),
                                MPI_COMM_WORLD));
            } else {
                MT_OK(MPI_Recv(b->r[0], MAXLEN, MPI_BYTE, mate, tag_of(K_SSEND, round),
                               MPI_COMM_WORLD, &st));
                check(b->r[0], (size_t)count_of(&st), len_of(K_SSEND, round, mate, rank, MAXLEN),
                      seed_of(K_SSEND, round, mate, rank), "MPI_Ssend message", round, mate);
            }
        }
    }
    size_t out = len_of(K_SENDRECV, round, rank, right, MAXLEN);
    fill(b->s[1], out, seed_of(K_SENDRECV, round, rank, right));
    MT_OK(MPI_Sendrecv(b->s[1], (int)out, MPI_BYTE, right, tag_of(K_SENDRECV, round), b->r[1],
                       MAXLEN, MPI_BYTE, left, tag_of(K_SENDRECV, round), MPI_COMM_WORLD, &st));
    check(b->r[1], (size_t)count_of(&st), len_of(K_SENDRECV, round, left, rank, MAXLEN),
          seed_of(K_SENDRECV, round, left, rank), "MPI_Sendrecv message", round, left);
}

static void collectives(bufs_t *b, long round, MPI_Comm comm, int crank, int csize)
{
    static const int counts[] = { 1, 17, 1000, RED_MAX };
    int root = (int)(round % csize), n = counts[round % 4];
    size_t len = len_of(K_BCAST, round, root, -1, MAXLEN);
    int gathered[64];

    /* MPI_Bcast of a payload from a rotating root. */
    if (crank == root)
        fill(b->r[0], len, seed_of(K_BCAST, round, root, 0));
    MT_OK(MPI_Bcast(b->r[0], (int)len, MPI_BYTE, root, comm));
    check(b->r[0], len, len, seed_of(K_BCAST, round, root, 0), "MPI_Bcast", round, root);

    /* MPI_Allreduce and MPI_Reduce: every sum is known. */
    for (int i = 0; i < n; i++)
        b->red[i] = contrib(round, crank, i);
    MT_OK(MPI_Allreduce(b->red, b->res, n, MPI_INT64_T, MPI_SUM, comm));
    for (int i = 0; i < n; i++) {
        int64_t want = 0;
        for (int r = 0; r < csize; r++)
            want += contrib(round, r, i);
        if (b->res[i] != want) {
            MT_FAIL("round %ld: MPI_Allreduce element %d of %d is %lld, expected %lld", round, i, n,
                    (long long)b->res[i], (long long)want);
            break;
        }
    }
    MT_OK(MPI_Reduce(b->red, b->res, n, MPI_INT64_T, MPI_MAX, root, comm));
    for (int i = 0; i < n && crank == root; i++) {
        int64_t want = contrib(round, 0, i);
        for (int r = 1; r < csize; r++)
            want = contrib(round, r, i) > want ? contrib(round, r, i) : want;
        if (b->res[i] != want) {
            MT_FAIL("round %ld: MPI_Reduce(MAX) element %d is %lld, expected %lld", round, i,
                    (long long)b->res[i], (long long)want);
            break;
        }
    }

    /* MPI_Allgather of each rank's (round, rank). */
    int mine = (int)(round * 64 + crank);
    MT_OK(MPI_Allgather(&mine, 1, MPI_INT, gathered, 1, MPI_INT, comm));
    for (int r = 0; r < csize; r++)
        MT_CHECK(gathered[r] == (int)(round * 64 + r),
                 "round %ld: MPI_Allgather from rank %d: %d", round, r, gathered[r]);

    /* MPI_Alltoallv: a different length for each pair. */
    int soff = 0, roff = 0;
    for (int r = 0; r < csize; r++) {
        b->sc[r] = (int)len_of(K_A2A, round, crank, r, A2A_MAX);
        b->sd[r] = soff;
        fill(b->a2a_s + soff, (size_t)b->sc[r], seed_of(K_A2A, round, crank, r));
        soff += b->sc[r];
        b->rc[r] = (int)len_of(K_A2A, round, r, crank, A2A_MAX);
        b->rd[r] = roff;
        roff += b->rc[r];
    }
    MT_OK(MPI_Alltoallv(b->a2a_s, b->sc, b->sd, MPI_BYTE, b->a2a_r, b->rc, b->rd, MPI_BYTE, comm));
    for (int r = 0; r < csize; r++)
        check(b->a2a_r + b->rd[r], (size_t)b->rc[r], (size_t)b->rc[r],
              seed_of(K_A2A, round, r, crank), "MPI_Alltoallv block", round, r);
}

/* Objects made and freed: a duplicate of MPI_COMM_WORLD and halves of it
 * carry the collectives, and a vector type carries a ring message. */
static void churn(bufs_t *b, long round)
{
    MPI_Comm dup, half;
    MPI_Datatype vec;
    MPI_Status st;
    int hrank, hsize, right = (rank + 1) % np, left = (rank + np - 1) % np;

    MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    collectives(b, round, dup, rank, np);
    MT_OK(MPI_Comm_free(&dup));
    MT_OK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, np - rank, &half));
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &hsize);
    collectives(b, round, half, hrank, hsize);
    MT_OK(MPI_Comm_free(&half));

    /* 1000 blocks of 16 bytes, 32 apart: the receiver gets them packed. */
    MT_OK(MPI_Type_vector(1000, 16, 32, MPI_BYTE, &vec));
    MT_OK(MPI_Type_commit(&vec));
    fill(b->r[0], 32000, seed_of(K_VEC, round, rank, right));
    MT_OK(MPI_Sendrecv(b->r[0], 1, vec, right, tag_of(K_VEC, round), b->r[1], 16000, MPI_BYTE,
                       left, tag_of(K_VEC, round), MPI_COMM_WORLD, &st));
    MT_OK(MPI_Type_free(&vec));
    fill(b->s[1], 32000, seed_of(K_VEC, round, left, rank));
    for (int i = 0; i < 1000; i++)
        memcpy(b->s[0] + 16 * i, b->s[1] + 32 * i, 16);
    MT_CHECK(count_of(&st) == 16000 && memcmp(b->r[1], b->s[0], 16000) == 0,
             "round %ld: vector type message from rank %d differs", round, left);
    checked += 16000;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 10.0, t0;
    bufs_t b;
    long round = 0;
    int stop = 0;
    unsigned long long total = 0;

    MTest_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MTest_Need_ranks(2);
    if (np > 64) {
        if (rank == 0)
            printf("soak: at most 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    printf("soak: rank %d pid %ld\n", rank, (long)getpid());
    fflush(stdout);

    /* Every buffer once, so that the program's own memory stays flat. */
    for (int d = 0; d < 2; d++) {
        b.s[d] = MTest_Malloc(MAXLEN);
        b.r[d] = MTest_Malloc(MAXLEN);
    }
    b.any_s = MTest_Malloc((size_t)np * 4096);
    b.any_r = MTest_Malloc(4096);
    b.a2a_s = MTest_Malloc((size_t)np * A2A_MAX);
    b.a2a_r = MTest_Malloc((size_t)np * A2A_MAX);
    b.sc = MTest_Malloc((size_t)np * sizeof(int));
    b.sd = MTest_Malloc((size_t)np * sizeof(int));
    b.rc = MTest_Malloc((size_t)np * sizeof(int));
    b.rd = MTest_Malloc((size_t)np * sizeof(int));
    b.red = MTest_Malloc(RED_MAX * sizeof(int64_t));
    b.res = MTest_Malloc(RED_MAX * sizeof(int64_t));

    t0 = MPI_Wtime();
    while (!stop) {
        ring(&b, round);
        any_source(&b, round);
        pairs(&b, round);
        collectives(&b, round, MPI_COMM_WORLD, rank, np);
        if (round % 32 == 31)
            churn(&b, round);
        round++;
        if (rank == 0)
            stop = MPI_Wtime() - t0 >= seconds;
        MT_OK(MPI_Bcast(&stop, 1, MPI_INT, 0, MPI_COMM_WORLD));
    }
    MT_OK(MPI_Reduce(&checked, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
    if (rank == 0)
        printf("soak: %ld rounds in %.1f s at np %d, %.1f MB of payload checked\n", round,
               MPI_Wtime() - t0, np, (double)total / 1e6);
    for (int d = 0; d < 2; d++) {
        free(b.s[d]);
        free(b.r[d]);
    }
    free(b.any_s);
    free(b.any_r);
    free(b.a2a_s);
    free(b.a2a_r);
    free(b.sc);
    free(b.sd);
    free(b.rc);
    free(b.rd);
    free(b.red);
    free(b.res);
    return MTest_Finalize();
}

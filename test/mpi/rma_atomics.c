/*
 * rma_atomics: the fetching operations. MPI_Get_accumulate with MPI_SUM
 * (each rank adds 1 << rank to one word: every fetched value lacks the
 * fetcher's bit and the final value has them all), with MPI_REPLACE (a swap
 * chain: the fetched values plus the final one are the initial value and
 * every rank's exactly once), with MPI_NO_OP (a read that leaves the target
 * alone), and on a block of several elements. MPI_Fetch_and_op with SUM,
 * MAX, BXOR, REPLACE and NO_OP on int, long long and double.
 * MPI_Compare_and_swap that matches and that does not (then nothing is
 * written), on int and uint64. Target words next to the used ones stay.
 */
#include "mtest.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NW 16
static int rank, size;
static MPI_Win win;
static long long *wbuf;     /* NW words */

static void reset(long long v0)
{
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    for (int i = 0; i < NW; i++)
        wbuf[i] = -1000 - i;
    wbuf[1] = v0;
    MT_OK(MPI_Win_unlock(rank, win));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Word 1 of rank 0 after every rank's operation; the others unchanged. */
static long long word1_at_root(const char *what)
{
    long long w[NW];
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        memcpy(w, wbuf, sizeof w);
        MT_OK(MPI_Win_unlock(0, win));
    }
    MPI_Bcast(w, NW, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    for (int i = 0; i < NW; i++)
        if (i != 1 && i != 2)
            MT_CHECK(w[i] == -1000 - i, "%s: word %d changed to %lld", what, i, w[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    return w[1];
}

static void get_accumulate(void)
{
    long long add = 1LL << rank, old = -1, final;

    reset(0);
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    MT_OK(MPI_Get_accumulate(&add, 1, MPI_LONG_LONG, &old, 1, MPI_LONG_LONG, 0, 1, 1,
                             MPI_LONG_LONG, MPI_SUM, win));
    MT_OK(MPI_Win_unlock(0, win));
    MT_CHECK(!(old & add) && old >= 0 && old < (1LL << size), "Get_accumulate SUM: fetched "
             "%llx holds my bit %llx or is out of range", (unsigned long long)old,
             (unsigned long long)add);
    final = word1_at_root("Get_accumulate SUM");
    MT_CHECK(final == (1LL << size) - 1, "Get_accumulate SUM: final %lld, expected %lld", final,
             (1LL << size) - 1);

    /* Swap chain: values 0 (initial), 1..size. */
    long long mine = rank + 1, got = -1;
    reset(0);
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    MT_OK(MPI_Get_accumulate(&mine, 1, MPI_LONG_LONG, &got, 1, MPI_LONG_LONG, 0, 1, 1,
                             MPI_LONG_LONG, MPI_REPLACE, win));
    MT_OK(MPI_Win_unlock(0, win));
    final = word1_at_root("Get_accumulate REPLACE");
    long long *seen = MTest_Malloc(sizeof(long long) * (size_t)size);
    MPI_Allgather(&got, 1, MPI_LONG_LONG, seen, 1, MPI_LONG_LONG, MPI_COMM_WORLD);
    int *count = calloc((size_t)size + 1, sizeof(int));
    for (int r = 0; r < size; r++)
        if (seen[r] >= 0 && seen[r] <= size)
            count[seen[r]]++;
    if (final >= 0 && final <= size)
        count[final]++;
    for (int v = 0; v <= size; v++)
        MT_CHECK(count[v] == 1, "Get_accumulate REPLACE chain: value %d seen %d times "
                 "(fetched and final together)", v, count[v]);
    free(count);
    free(seen);

    /* NO_OP: a read; the word stays. Several elements at once: SUM on 2. */
    long long dummy = 99, rd = -1, two[2] = { 5, 7 }, two_old[2];
    reset(42);
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    MT_OK(MPI_Get_accumulate(&dummy, 1, MPI_LONG_LONG, &rd, 1, MPI_LONG_LONG, 0, 1, 1,
                             MPI_LONG_LONG, MPI_NO_OP, win));
    MT_OK(MPI_Win_unlock(0, win));
    MT_CHECK(rd == 42, "Get_accumulate NO_OP fetched %lld, expected 42", rd);
    MPI_Barrier(MPI_COMM_WORLD);
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    MT_OK(MPI_Get_accumulate(two, 2, MPI_LONG_LONG, two_old, 2, MPI_LONG_LONG, 0, 1, 2,
                             MPI_LONG_LONG, MPI_SUM, win));
    MT_OK(MPI_Win_unlock(0, win));
    final = word1_at_root("Get_accumulate NO_OP + 2-element SUM");
    MT_CHECK(final == 42 + 5LL * size, "Get_accumulate 2-element SUM: word 1 is %lld, expected "
             "%lld", final, 42 + 5LL * size);
    /* Atomic per element only: each fetched element is some state of its own. */
    MT_CHECK((two_old[0] - 42) % 5 == 0 && two_old[0] >= 42 && two_old[0] < 42 + 5LL * size &&
             (two_old[1] + 1002) % 7 == 0 && two_old[1] >= -1002 &&
             two_old[1] < -1002 + 7LL * size,
             "Get_accumulate 2-element SUM: fetched (%lld, %lld) is no state of the words",
             two_old[0], two_old[1]);
    if (rank == 0) {
        MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        MT_CHECK(wbuf[2] == -1002 + 7LL * size, "word 2 is %lld, expected %lld", wbuf[2],
                 -1002 + 7LL * size);
        MT_OK(MPI_Win_unlock(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void fetch_and_op(void)
{
    long long one = 1, old;
    double dv = 0.5, dold;
    int iv, iold;

    /* Rank r does a sequence on the right neighbour's words under an
     * exclusive lock, so the values fetched are exact. */
    int t = (rank + 1) % size;
    reset(10);
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
    MT_OK(MPI_Fetch_and_op(&one, &old, MPI_LONG_LONG, t, 1, MPI_SUM, win));
    MT_OK(MPI_Win_flush(t, win));
    MT_CHECK(old == 10, "Fetch_and_op SUM fetched %lld, expected 10", old);
    long long big = 50;
    MT_OK(MPI_Fetch_and_op(&big, &old, MPI_LONG_LONG, t, 1, MPI_MAX, win));
    MT_OK(MPI_Win_flush(t, win));
    MT_CHECK(old == 11, "Fetch_and_op MAX fetched %lld, expected 11", old);
    long long x = 0x0f;
    MT_OK(MPI_Fetch_and_op(&x, &old, MPI_LONG_LONG, t, 1, MPI_BXOR, win));
    MT_OK(MPI_Win_flush(t, win));
    MT_CHECK(old == 50, "Fetch_and_op BXOR fetched %lld, expected 50", old);
    long long rep = -5;
    MT_OK(MPI_Fetch_and_op(&rep, &old, MPI_LONG_LONG, t, 1, MPI_REPLACE, win));
    MT_OK(MPI_Win_flush(t, win));
    MT_CHECK(old == (50 ^ 0x0f), "Fetch_and_op REPLACE fetched %lld, expected %d", old, 50 ^ 0x0f);
    MT_OK(MPI_Fetch_and_op(NULL, &old, MPI_LONG_LONG, t, 1, MPI_NO_OP, win));
    MT_OK(MPI_Win_flush(t, win));
    MT_CHECK(old == -5, "Fetch_and_op NO_OP fetched %lld, expected -5", old);
    /* An int in the first bytes of word 2. */
    iv = 3;
    MT_OK(MPI_Fetch_and_op(&iv, &iold, MPI_INT, t, 2, MPI_SUM, win));
    MT_OK(MPI_Win_unlock(t, win));
    MT_CHECK(iold == -1002 || iold == -1, "Fetch_and_op on int fetched %d, expected the low "
             "(-1002) or high (-1) half of word 2", iold);
    MPI_Barrier(MPI_COMM_WORLD);
    reset(0);
    if (rank == 0) {
        MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        memcpy(&wbuf[3], &(double){ 1.25 }, sizeof(double));
        MT_OK(MPI_Win_unlock(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    MT_OK(MPI_Fetch_and_op(&dv, &dold, MPI_DOUBLE, 0, 3, MPI_SUM, win));
    MT_OK(MPI_Win_unlock(0, win));
    MT_CHECK(dold >= 1.25 && dold <= 1.25 + 0.5 * (size - 1) && (int)((dold - 1.25) * 2) ==
             (dold - 1.25) * 2, "Fetch_and_op on double fetched %g", dold);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        double d;
        MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        memcpy(&d, &wbuf[3], sizeof d);
        wbuf[3] = -1003;
        MT_OK(MPI_Win_unlock(0, win));
        MT_CHECK(d == 1.25 + 0.5 * size, "Fetch_and_op on double: final %g, expected %g", d,
                 1.25 + 0.5 * size);
    }
    (void)word1_at_root("Fetch_and_op");
}

static void compare_and_swap(void)
{
    long long cmp, val, old;
    uint64_t ucmp = 7, uval = UINT64_MAX - 1, uold = 0;

    /* Only the rank whose compare value matches writes: rank r compares
     * with r and writes r + 1, taking turns; after all, the word is size. */
    reset(0);
    for (int turn = 0; turn < size; turn++) {
        cmp = turn;
        val = turn + 1;
        int matched = 0, matches;
        MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        if (rank == turn || rank == (turn + 1) % size) {
            MT_OK(MPI_Compare_and_swap(&val, &cmp, &old, MPI_LONG_LONG, 0, 1, win));
            MT_OK(MPI_Win_flush(0, win));
            MT_CHECK(old == turn || old == turn + 1, "CAS turn %d by rank %d: fetched %lld, "
                     "expected %d or %d", turn, rank, old, turn, turn + 1);
            matched = old == turn;
        }
        MT_OK(MPI_Win_unlock(0, win));
        MPI_Allreduce(&matched, &matches, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MT_CHECK(matches == 1, "CAS turn %d: %d ranks matched, expected 1", turn, matches);
    }
    long long final = word1_at_root("Compare_and_swap");
    MT_CHECK(final == size, "CAS: final %lld, expected %d", final, size);
    /* A compare value that cannot match: nothing is written. */
    cmp = -77;
    val = 12345;
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
    MT_OK(MPI_Compare_and_swap(&val, &cmp, &old, MPI_LONG_LONG, 0, 1, win));
    MT_OK(MPI_Win_unlock(0, win));
    MT_CHECK(old == size, "CAS without match: fetched %lld, expected %d", old, size);
    final = word1_at_root("Compare_and_swap without match");
    MT_CHECK(final == size, "CAS without match wrote: word is %lld, expected %d", final, size);
    /* uint64 at word 1 (rank 0 sets 7 first). */
    if (rank == 0) {
        MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        wbuf[1] = 7;
        MT_OK(MPI_Win_unlock(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MT_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
    MT_OK(MPI_Compare_and_swap(&uval, &ucmp, &uold, MPI_UINT64_T, 0, 1, win));
    MT_OK(MPI_Win_unlock(0, win));
    int won = uold == 7, wins;
    MT_CHECK(uold == 7 || uold == UINT64_MAX - 1, "CAS uint64 fetched %llu",
             (unsigned long long)uold);
    MPI_Allreduce(&won, &wins, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK(wins == 1, "CAS uint64: %d ranks saw the match, expected 1", wins);
    final = word1_at_root("Compare_and_swap uint64");
    MT_CHECK((uint64_t)final == UINT64_MAX - 1, "CAS uint64: final %llu",
             (unsigned long long)final);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    rank = MTest_rank;
    size = MTest_size;
    if (size > 60) {
        MT_FAIL("at most 60 ranks");
        return MTest_Finalize();
    }
    MT_OK(MPI_Win_allocate(NW * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                           MPI_COMM_WORLD, &wbuf, &win));
    get_accumulate();
    fetch_and_op();
    compare_and_swap();
    MT_OK(MPI_Win_free(&win));
    return MTest_Finalize();
}

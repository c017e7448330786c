/*
 * rma_fence: active-target synchronization with MPI_Win_fence on every
 * window flavor, with the MPI_MODE_* asserts a correct program may give.
 * Epoch 1 (NOPRECEDE): each rank puts a block into its right neighbour's
 * window and gets an untouched block of its left neighbour's. Epoch 2
 * (NOSTORE | NOPUT): each rank gets back what it put. Then local stores
 * into the own window, published by a fence without NOSTORE, read by the
 * left neighbour in epoch 3, closed with NOSUCCEED. Every element outside
 * the written ranges must keep its initial value.
 */
#include "rma_common.h"

#define N 64
#define LO(r) (3 + (r) % 3)
#define LEN 11

static int put_value(int i, void *arg)
{
    int origin = *(int *)arg;
    return origin * 1000 + i * 3 + 1;
}

static int store_value(int i, void *arg)
{
    int owner = *(int *)arg;
    return owner * 7000 + i;
}

static void run(int flavor)
{
    struct rw w;
    int got[N], src[N], back[LEN], init_got[LEN];
    char what[128];

    if (!rw_open(&w, flavor, N, MPI_COMM_WORLD))
        return;
    int right = (w.rank + 1) % w.size, left = (w.rank + w.size - 1) % w.size;
    rw_fill(&w, 1);

    for (int i = 0; i < N; i++)
        src[i] = put_value(i, &w.rank);
    int lo = LO(w.rank);
    /* Epoch 1: puts to the right, a get of the left neighbour's far block. */
    MT_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, w.win));
    MT_OK(MPI_Put(src + lo, LEN, MPI_INT, right, rw_disp(&w, right, lo), LEN, MPI_INT, w.win));
    MT_OK(MPI_Get(init_got, LEN, MPI_INT, left, rw_disp(&w, left, 40), LEN, MPI_INT, w.win));
    MT_OK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, w.win));
    for (int i = 0; i < LEN; i++)
        MT_CHECK(init_got[i] == rw_initial(left, 40 + i, 1),
                 "%s: epoch 1 get of rank %d element %d: %d, expected %d", rw_name(flavor), left,
                 40 + i, init_got[i], rw_initial(left, 40 + i, 1));
    /* After the fence the puts of the left neighbour are in this window. */
    memcpy(got, w.buf, sizeof got);
    snprintf(what, sizeof what, "%s, fence epoch 1 put from rank %d", rw_name(flavor), left);
    rw_check(got, N, LO(left), LO(left) + LEN, put_value, &left, w.rank, 1, what);

    /* Epoch 2: read back what this rank put into its right neighbour. */
    memset(back, 0, sizeof back);
    MT_OK(MPI_Get(back, LEN, MPI_INT, right, rw_disp(&w, right, lo), LEN, MPI_INT, w.win));
    MT_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win));
    for (int i = 0; i < LEN; i++)
        MT_CHECK(back[i] == put_value(lo + i, &w.rank),
                 "%s: epoch 2 get back of element %d at rank %d: %d, expected %d",
                 rw_name(flavor), lo + i, right, back[i], put_value(lo + i, &w.rank));

    /* Local stores outside any epoch, then a fence that publishes them. */
    for (int i = 50; i < 60; i++)
        w.buf[i] = store_value(i, &w.rank);
    MT_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, w.win));
    memset(back, 0, sizeof back);
    MT_OK(MPI_Get(back, 10, MPI_INT, right, rw_disp(&w, right, 50), 10, MPI_INT, w.win));
    MT_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED | MPI_MODE_NOSTORE | MPI_MODE_NOPUT, w.win));
    for (int i = 0; i < 10; i++)
        MT_CHECK(back[i] == store_value(50 + i, &right),
                 "%s: epoch 3 get of rank %d's local store %d: %d, expected %d",
                 rw_name(flavor), right, 50 + i, back[i], store_value(50 + i, &right));

    /* Many fence epochs in a row, each putting a counter: the last wins. */
    MT_OK(MPI_Win_fence(0, w.win));
    for (int round = 0; round < 20; round++) {
        int v = w.rank * 100 + round;
        MT_OK(MPI_Put(&v, 1, MPI_INT, right, rw_disp(&w, right, 62), 1, MPI_INT, w.win));
        MT_OK(MPI_Win_fence(0, w.win));
        MT_CHECK(w.buf[62] == left * 100 + round, "%s: fence round %d: element 62 is %d, "
                 "expected %d", rw_name(flavor), round, w.buf[62], left * 100 + round);
        MT_OK(MPI_Win_fence(0, w.win));
    }
    MT_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win));
    MT_CHECK(w.buf[0] == rw_initial(w.rank, 0, 1) && w.buf[N - 1] == rw_initial(w.rank, N - 1, 1),
             "%s: first or last element changed (%d, %d)", rw_name(flavor), w.buf[0],
             w.buf[N - 1]);
    rw_close(&w);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    for (int f = 0; f < RW_NFLAVORS; f++)
        run(f);
    return MTest_Finalize();
}

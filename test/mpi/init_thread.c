/*
 * init_thread: MPI_Init_thread asking for MPI_THREAD_MULTIPLE.
 * The provided level is a valid level, Query_thread reports the same level,
 * Is_thread_main is true in the main thread (and false in another thread
 * when provided == MULTIPLE), and a send/recv works afterwards.
 */
#include "mtest.h"

#include <pthread.h>

static void *not_main(void *arg)
{
    int *ismain = arg;

    MPI_Is_thread_main(ismain);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = MTest_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE);
    int level = -1, ismain = -1;

    MT_CHECK(provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED ||
             provided == MPI_THREAD_SERIALIZED || provided == MPI_THREAD_MULTIPLE,
             "provided %d is not a thread level", provided);
    MT_CHECK(MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED &&
             MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED &&
             MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE,
             "thread level constants are not monotonic");
    MT_OK(MPI_Query_thread(&level));
    MT_CHECK(level == provided, "MPI_Query_thread %d, Init_thread provided %d",
             level, provided);
    MT_OK(MPI_Is_thread_main(&ismain));
    MT_CHECK(ismain == 1, "MPI_Is_thread_main in main thread: %d", ismain);

    if (provided == MPI_THREAD_MULTIPLE) {
        pthread_t t;
        int other = -1;
        if (pthread_create(&t, NULL, not_main, &other) == 0) {
            pthread_join(t, NULL);
            MT_CHECK(other == 0, "MPI_Is_thread_main in another thread: %d", other);
        } else {
            MT_FAIL("pthread_create failed");
        }
    }

    /* A message around the ring proves communication works. */
    {
        int right = (MTest_rank + 1) % MTest_size;
        int left = (MTest_rank + MTest_size - 1) % MTest_size;
        int out = MTest_rank, in = -1;
        MT_OK(MPI_Sendrecv(&out, 1, MPI_INT, right, 5, &in, 1, MPI_INT, left, 5,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK(in == left, "ring value %d, expected %d", in, left);
    }
    return MTest_Finalize();
}

/*
 * init_basic: environment queries around MPI_Init / MPI_Finalize.
 * Initialized/Finalized before and after, Get_version (>= 3.1),
 * Get_library_version, Get_processor_name, Wtime monotonic, Wtick > 0,
 * COMM_WORLD/COMM_SELF rank and size, Query_thread/Is_thread_main after
 * plain MPI_Init, MPI_TAG_UB attribute >= 32767.
 */
#include "mtest.h"

#include <string.h>

int main(int argc, char **argv)
{
    int flag = -1, rank, size, len, major, minor, level, ismain;
    char name[MPI_MAX_PROCESSOR_NAME + 1];
    char lib[MPI_MAX_LIBRARY_VERSION_STRING + 1];

    MPI_Initialized(&flag);
    if (flag != 0) {
        fprintf(stderr, "MPI_Initialized before MPI_Init: flag %d, expected 0\n", flag);
        return 1;
    }
    flag = -1;
    MPI_Finalized(&flag);
    if (flag != 0) {
        fprintf(stderr, "MPI_Finalized before MPI_Init: flag %d, expected 0\n", flag);
        return 1;
    }
    /* Get_version may be called before MPI_Init. */
    MPI_Get_version(&major, &minor);
    if (major < 3 || (major == 3 && minor < 1)) {
        fprintf(stderr, "MPI_Get_version before Init: %d.%d, expected >= 3.1\n",
                major, minor);
        return 1;
    }

    MTest_Init(&argc, &argv);

    flag = -1;
    MPI_Initialized(&flag);
    MT_CHECK(flag == 1, "MPI_Initialized after Init: flag %d, expected 1", flag);
    flag = -1;
    MPI_Finalized(&flag);
    MT_CHECK(flag == 0, "MPI_Finalized after Init: flag %d, expected 0", flag);

    MT_OK(MPI_Get_version(&major, &minor));
    MT_CHECK(major > 3 || (major == 3 && minor >= 1),
             "MPI_Get_version %d.%d, expected >= 3.1", major, minor);
    MT_CHECK(major == MPI_VERSION && minor == MPI_SUBVERSION,
             "MPI_Get_version %d.%d disagrees with mpi.h %d.%d",
             major, minor, MPI_VERSION, MPI_SUBVERSION);

    len = -1;
    memset(lib, 0, sizeof lib);
    MT_OK(MPI_Get_library_version(lib, &len));
    MT_CHECK(len > 0 && len <= MPI_MAX_LIBRARY_VERSION_STRING,
             "MPI_Get_library_version length %d", len);
    MT_CHECK(len > 0 && (int)strlen(lib) == len,
             "MPI_Get_library_version strlen %zu != length %d", strlen(lib), len);

    len = -1;
    memset(name, 0, sizeof name);
    MT_OK(MPI_Get_processor_name(name, &len));
    MT_CHECK(len > 0 && len <= MPI_MAX_PROCESSOR_NAME,
             "MPI_Get_processor_name length %d", len);
    MT_CHECK(len > 0 && (int)strlen(name) == len,
             "MPI_Get_processor_name strlen %zu != length %d", strlen(name), len);

    MT_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MT_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MT_CHECK(size >= 1 && rank >= 0 && rank < size, "world rank %d size %d", rank, size);
    MT_OK(MPI_Comm_rank(MPI_COMM_SELF, &rank));
    MT_OK(MPI_Comm_size(MPI_COMM_SELF, &size));
    MT_CHECK(rank == 0 && size == 1, "self rank %d size %d, expected 0 and 1", rank, size);

    {
        double tick = MPI_Wtick(), prev = MPI_Wtime(), t0 = prev;
        MT_CHECK(tick > 0.0 && tick < 1.0, "MPI_Wtick %g, expected in (0,1)", tick);
        /* Wtime never goes backwards and does advance. */
        for (int i = 0; i < 100000; i++) {
            double now = MPI_Wtime();
            if (now < prev) {
                MT_FAIL("MPI_Wtime went backwards: %.9f after %.9f", now, prev);
                break;
            }
            prev = now;
            if (now - t0 > 0.01)
                break;
        }
        while (MPI_Wtime() - t0 < 0.001)
            ;
        MT_CHECK(MPI_Wtime() > t0, "MPI_Wtime does not advance");
    }

    {
        void *val = NULL;
        flag = 0;
        MT_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &val, &flag));
        MT_CHECK(flag && val && *(int *)val >= 32767,
                 "MPI_TAG_UB attribute: flag %d value %d, expected >= 32767",
                 flag, flag && val ? *(int *)val : -1);
    }

    level = -1;
    MT_OK(MPI_Query_thread(&level));
    MT_CHECK(level == MPI_THREAD_SINGLE || level == MPI_THREAD_FUNNELED ||
             level == MPI_THREAD_SERIALIZED || level == MPI_THREAD_MULTIPLE,
             "MPI_Query_thread after MPI_Init: %d is not a thread level", level);
    ismain = -1;
    MT_OK(MPI_Is_thread_main(&ismain));
    MT_CHECK(ismain == 1, "MPI_Is_thread_main in main thread: %d", ismain);

    int rc = MTest_Finalize();

    flag = -1;
    MPI_Initialized(&flag);
    if (flag != 1) {
        fprintf(stderr, "MPI_Initialized after Finalize: flag %d, expected 1\n", flag);
        rc = 1;
    }
    flag = -1;
    MPI_Finalized(&flag);
    if (flag != 1) {
        fprintf(stderr, "MPI_Finalized after Finalize: flag %d, expected 1\n", flag);
        rc = 1;
    }
    return rc;
}

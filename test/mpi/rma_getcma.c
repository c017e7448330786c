/*
 * rma_getcma: large MPI_Get from an MPI_Win_create window (ordinary user
 * memory). Each rank gets from its left neighbour blocks of 1 MiB - 1,
 * 1 MiB and 1 MiB + 5 bytes at an unaligned displacement, with lock_all +
 * flush, with fence and with Rget, then 1 MiB + 5 bytes through a strided
 * target datatype and into a strided origin datatype; every byte and the
 * guard bytes around each block are checked. On one node rdmpi takes the
 * rings for the contiguous ones of RDMPI_RMA_GET_CMA_MIN or more when the
 * target is waiting in MPI and reads them straight from the target's
 * memory (CMA) otherwise; the rest always take the rings. With
 * RDMPI_VERBOSE=1 its rma line counts both choices, which rma.testlist
 * checks in the runs below, where they are certain.
 * Arguments (the testlist runs them on rdmpi only; ranks on one node):
 *   paths    instead, rank 0 gets 1 MiB + 5 bytes from each other rank
 *            twice: first while that rank waits in MPI_Barrier (rdmpi: the
 *            rings, while the waiting rank gets its CPU back promptly when
 *            it yields it), then while it stays outside MPI, waiting on a
 *            flag in shared memory that rank 0 raises once its Get is
 *            complete (rdmpi: CMA; the Get must not need the target's
 *            progress).
 *   refused  instead, every rank but 0 makes itself undumpable and rank 0
 *            gives up CAP_SYS_PTRACE, so that the kernel refuses rank 0's
 *            reads of their memory (EPERM); its Gets from them, made while
 *            they poll MPI_Iprobe (inside MPI but not waiting), must still
 *            deliver, through the rings.
 */
#include "rma_common.h"

#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MIB (1024 * 1024)
#define MAXLEN (MIB + 5)
#define GUARD 64
#define OFF 3           /* displacement of every block in the target window */

static const size_t sizes[] = { MIB - 1, MIB, MIB + 5 };

static unsigned seed_of(int rank)
{
    return (unsigned)(rank * 37 + 11);
}

/* Checks n bytes of got against the target's window bytes at OFF + i * stride. */
static void check(const unsigned char *got, size_t n, size_t stride, int target,
                  const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (got[i * stride] != MTest_byte(OFF + i * stride, seed_of(target))) {
            MT_FAIL("%s from rank %d: byte %zu is %d, expected %d", what, target, i,
                    got[i * stride], MTest_byte(OFF + i * stride, seed_of(target)));
            return;
        }
}

static void check_guards(const unsigned char *dst, size_t span, const char *what)
{
    for (size_t i = 0; i < GUARD; i++)
        if (dst[i] != 0xa5 || dst[GUARD + span + i] != 0xa5) {
            MT_FAIL("%s: the get wrote outside its buffer", what);
            return;
        }
}

/* Contiguous gets of each size from the left neighbour, by each mode. */
static void contiguous(MPI_Win win, unsigned char *dst, int rank, int size)
{
    int left = (rank + size - 1) % size;
    char what[96];
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        size_t len = sizes[k];
        for (int mode = 0; mode < 3; mode++) {
            const char *mname = mode == 0 ? "lock_all+flush" : mode == 1 ? "fence" : "Rget";
            memset(dst, 0xa5, len + 2 * GUARD);
            if (mode == 1) {
                MT_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
                MT_OK(MPI_Get(dst + GUARD, (int)len, MPI_BYTE, left, OFF, (int)len, MPI_BYTE,
                              win));
                MT_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
            } else {
                MT_OK(MPI_Win_lock_all(0, win));
                if (mode == 0) {
                    MT_OK(MPI_Get(dst + GUARD, (int)len, MPI_BYTE, left, OFF, (int)len,
                                  MPI_BYTE, win));
                    MT_OK(MPI_Win_flush(left, win));
                } else {
                    MPI_Request r;
                    MT_OK(MPI_Rget(dst + GUARD, (int)len, MPI_BYTE, left, OFF, (int)len,
                                   MPI_BYTE, win, &r));
                    MT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
                }
                MT_OK(MPI_Win_unlock_all(win));
            }
            snprintf(what, sizeof what, "%s, get of %zu bytes", mname, len);
            check(dst + GUARD, len, 1, left, what);
            check_guards(dst, len, what);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The same size through a strided target and a strided origin datatype:
 * every other byte. */
static void strided(MPI_Win win, unsigned char *dst, int rank, int size)
{
    int left = (rank + size - 1) % size;
    MPI_Datatype every_other;
    MPI_Type_vector(MAXLEN, 1, 2, MPI_BYTE, &every_other);
    MPI_Type_commit(&every_other);

    memset(dst, 0xa5, MAXLEN + 2 * GUARD);
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win));
    MT_OK(MPI_Get(dst + GUARD, MAXLEN, MPI_BYTE, left, OFF, 1, every_other, win));
    MT_OK(MPI_Win_unlock(left, win));
    for (size_t i = 0; i < MAXLEN; i++)
        if (dst[GUARD + i] != MTest_byte(OFF + 2 * i, seed_of(left))) {
            MT_FAIL("strided target: byte %zu from rank %d is %d, expected %d", i, left,
                    dst[GUARD + i], MTest_byte(OFF + 2 * i, seed_of(left)));
            break;
        }
    check_guards(dst, MAXLEN, "strided target");

    memset(dst, 0xa5, 2 * MAXLEN + 2 * GUARD);
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win));
    MT_OK(MPI_Get(dst + GUARD, 1, every_other, left, OFF, MAXLEN, MPI_BYTE, win));
    MT_OK(MPI_Win_unlock(left, win));
    for (size_t i = 0; i < MAXLEN; i++) {
        if (dst[GUARD + 2 * i] != MTest_byte(OFF + i, seed_of(left))) {
            MT_FAIL("strided origin: byte %zu from rank %d is %d, expected %d", i, left,
                    dst[GUARD + 2 * i], MTest_byte(OFF + i, seed_of(left)));
            break;
        }
        if (i + 1 < MAXLEN && dst[GUARD + 2 * i + 1] != 0xa5) {
            MT_FAIL("strided origin: gap byte %zu was written", 2 * i + 1);
            break;
        }
    }
    MPI_Type_free(&every_other);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* One Get of MAXLEN bytes by rank 0 from rank t, checked. */
static void get_checked(MPI_Win win, unsigned char *dst, int t, const char *what)
{
    memset(dst, 0xa5, MAXLEN + 2 * GUARD);
    MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
    MT_OK(MPI_Get(dst + GUARD, MAXLEN, MPI_BYTE, t, OFF, MAXLEN, MPI_BYTE, win));
    MT_OK(MPI_Win_unlock(t, win));
    check(dst + GUARD, MAXLEN, 1, t, what);
    check_guards(dst, MAXLEN, what);
}

/* Rank 0 gets from each other rank t twice. First while t waits in
 * MPI_Barrier: t raises the shared flag just before it enters, and rank 0
 * gets once the flag is up and a moment has passed (t is inside by then).
 * Then while t stays outside MPI: t raises the flag once it has left the
 * barrier and waits for rank 0 to raise it after its Get completed. Three
 * raises per target. */
static void paths(MPI_Win win, unsigned char *dst, int rank, int size)
{
    struct rw_flag f;
    if (!rw_flag_open(&f, MPI_COMM_WORLD)) {
        if (rank == 0)
            printf("note: ranks on several nodes, the paths part is left out\n");
        return;
    }
    for (int t = 1; t < size; t++) {
        int base = 3 * (t - 1);
        if (rank == t) {
            rw_flag_raise(&f);
        } else if (rank == 0) {
            MT_CHECK(rw_flag_wait(&f, base + 1, 30.0), "rank %d did not raise the flag", t);
            usleep(50000);
            get_checked(win, dst, t, "get from a target waiting in MPI_Barrier");
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == t) {
            rw_flag_raise(&f);
            MT_CHECK(rw_flag_wait(&f, base + 3, 30.0), "rank 0's Get did not complete in 30 s "
                     "while this rank stayed outside MPI: it needed this rank's progress");
        } else if (rank == 0) {
            MT_CHECK(rw_flag_wait(&f, base + 2, 30.0), "rank %d did not raise the flag", t);
            memset(dst, 0xa5, MAXLEN + 2 * GUARD);
            MT_OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
            MT_OK(MPI_Get(dst + GUARD, MAXLEN, MPI_BYTE, t, OFF, MAXLEN, MPI_BYTE, win));
            MT_OK(MPI_Win_flush(t, win));
            rw_flag_raise(&f);
            MT_OK(MPI_Win_unlock(t, win));
            check(dst + GUARD, MAXLEN, 1, t, "get from a target outside MPI");
            check_guards(dst, MAXLEN, "get from a target outside MPI");
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    rw_flag_close(&f);
}

/* Takes CAP_SYS_PTRACE out of this process's effective and permitted sets
 * (a no-op where it is not held). */
static void drop_ptrace(void)
{
    struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct d[2];
    if (syscall(SYS_capget, &h, d) != 0) {
        MT_FAIL("capget failed");
        return;
    }
    d[CAP_SYS_PTRACE / 32].effective &= ~(1u << (CAP_SYS_PTRACE % 32));
    d[CAP_SYS_PTRACE / 32].permitted &= ~(1u << (CAP_SYS_PTRACE % 32));
    if (syscall(SYS_capset, &h, d) != 0)
        MT_FAIL("capset without CAP_SYS_PTRACE failed");
}

/* Rank 0's reads of the others' memory refused by the kernel: twice from
 * each, the data must arrive anyway. The others poll MPI_Iprobe meanwhile
 * (progress without a blocking wait, so that rank 0 tries CMA first),
 * from when they have left the barrier (the shared flag says so) until
 * rank 0's message says it is done. */
static void refused(MPI_Win win, unsigned char *dst, int rank, int size)
{
    struct rw_flag f;
    if (!rw_flag_open(&f, MPI_COMM_WORLD)) {
        if (rank == 0)
            printf("note: ranks on several nodes, nothing to refuse\n");
        return;
    }
    if (rank == 0)
        drop_ptrace();
    else if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
        MT_FAIL("prctl(PR_SET_DUMPABLE, 0) failed");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MT_CHECK(rw_flag_wait(&f, size - 1, 30.0), "the other ranks did not raise the flag");
        for (int round = 0; round < 2; round++)
            for (int t = 1; t < size; t++)
                get_checked(win, dst, t, "get refused direct access");
        for (int t = 1; t < size; t++)
            MT_OK(MPI_Send(NULL, 0, MPI_BYTE, t, 0, MPI_COMM_WORLD));
    } else {
        int done = 0;
        rw_flag_raise(&f);
        while (!done)
            MT_OK(MPI_Iprobe(0, 0, MPI_COMM_WORLD, &done, MPI_STATUS_IGNORE));
        MT_OK(MPI_Recv(NULL, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rw_flag_close(&f);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int rank = MTest_rank, size = MTest_size;
    const char *arg = argc > 1 ? argv[1] : "";
    if (strcmp(arg, "") && strcmp(arg, "paths") && strcmp(arg, "refused")) {
        if (rank == 0)
            fprintf(stderr, "rma_getcma: unknown argument %s (paths or refused)\n", arg);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    size_t winlen = 2 * (size_t)MAXLEN + OFF;
    unsigned char *wbuf = MTest_Malloc(winlen);
    unsigned char *dst = MTest_Malloc(2 * (size_t)MAXLEN + 2 * GUARD);
    MTest_Fill(wbuf, winlen, seed_of(rank));
    MPI_Win win;
    MT_OK(MPI_Win_create(wbuf, (MPI_Aint)winlen, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    if (!strcmp(arg, "refused")) {
        refused(win, dst, rank, size);
    } else if (!strcmp(arg, "paths")) {
        paths(win, dst, rank, size);
    } else {
        contiguous(win, dst, rank, size);
        strided(win, dst, rank, size);
    }
    MT_OK(MPI_Win_free(&win));
    free(wbuf);
    free(dst);
    return MTest_Finalize();
}

/*
 * mtest: shared helpers of the test/mpi programs (see mtest.h).
 */
#include "mtest.h"

#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int MTest_rank;
int MTest_size;
int MTest_errs;

static void start_watchdog(void)
{
    const char *s = getenv("MPITEST_TIMEOUT");
    int secs = s ? atoi(s) : 180;

    if (secs > 0)
        alarm((unsigned)secs);
}

/* MTEST_PIDDIR (runtests.sh survivors=none): an empty file named by our
 * pid, so the runner can tell whether any rank outlived the launcher.
 * Written before MPI_Init, which no rank leaves before every rank entered
 * it: a rank that aborts right after it cannot cut another one short. */
static void write_pid(void)
{
    const char *dir = getenv("MTEST_PIDDIR");
    char path[4096];
    if (!dir || snprintf(path, sizeof(path), "%s/%ld", dir, (long)getpid()) >= (int)sizeof(path))
        return;
    FILE *f = fopen(path, "w");
    if (f)
        fclose(f);
}

static void after_init(void)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &MTest_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &MTest_size);
    MTest_errs = 0;
    start_watchdog();
}

void MTest_Init(int *argc, char ***argv)
{
    write_pid();
    MPI_Init(argc, argv);
    after_init();
}

int MTest_Init_thread(int *argc, char ***argv, int required)
{
    int provided = -1;

    write_pid();
    MPI_Init_thread(argc, argv, required, &provided);
    after_init();
    return provided;
}

int MTest_Finalize(void)
{
    int total = MTest_errs;

    /* The tests may have installed MPI_ERRORS_RETURN on COMM_WORLD; this
     * exchange must not fail silently. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    if (MTest_rank == 0) {
        for (int r = 1; r < MTest_size; r++) {
            int e = 0;
            MPI_Recv(&e, 1, MPI_INT, r, MTEST_TAG_FINALIZE, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            total += e;
        }
        if (total == 0)
            printf(" No Errors\n");
        else
            printf(" Found %d errors\n", total);
        fflush(stdout);
    } else {
        MPI_Send(&MTest_errs, 1, MPI_INT, 0, MTEST_TAG_FINALIZE, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return MTest_errs ? 1 : (total ? 1 : 0);
}

void MTest_Need_ranks(int n)
{
    if (MTest_size >= n)
        return;
    if (MTest_rank == 0) {
        printf("SKIP: needs at least %d ranks\n", n);
        fflush(stdout);
    }
    exit(MTest_Finalize());
}

void MTest_Error(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    char msg[512];

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "[rank %d] %s:%d: %s\n", MTest_rank, file, line, msg);
    fflush(stderr);
    MTest_errs++;
}

const char *MTest_Errstr(int code)
{
    static char s[MPI_MAX_ERROR_STRING + 1];
    int len = 0;

    s[0] = '\0';
    if (MPI_Error_string(code, s, &len) != MPI_SUCCESS)
        snprintf(s, sizeof s, "unknown error %d", code);
    return s;
}

int MTest_Errclass(int code)
{
    int cls = -1;

    MPI_Error_class(code, &cls);
    return cls;
}

void MTest_Fill(void *buf, size_t len, unsigned seed)
{
    unsigned char *p = buf;

    for (size_t i = 0; i < len; i++)
        p[i] = MTest_byte(i, seed);
}

int MTest_Verify_(const void *buf, size_t len, unsigned seed, const char *what,
                  const char *file, int line)
{
    const unsigned char *p = buf;

    for (size_t i = 0; i < len; i++) {
        if (p[i] != MTest_byte(i, seed)) {
            MTest_Error(file, line, "%s: byte %zu of %zu is 0x%02x, expected 0x%02x",
                        what, i, len, p[i], MTest_byte(i, seed));
            return 0;
        }
    }
    return 1;
}

void MTest_Check_class_(int rc, int cls, const char *clsname, const char *what,
                        const char *file, int line)
{
    int got = -1;

    if (rc == MPI_SUCCESS) {
        MTest_Error(file, line, "%s: returned MPI_SUCCESS, expected %s", what, clsname);
        return;
    }
    MPI_Error_class(rc, &got);
    if (got != cls)
        MTest_Error(file, line, "%s: error class %d (%s), expected %s (%d)", what, got,
                    MTest_Errstr(rc), clsname, cls);
}

void MTest_Check_comm_works(MPI_Comm comm, const char *what)
{
    static int check_round;
    int rank, size, v, w = -1;
    MPI_Status st;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    v = rank * 1000 + check_round;
    int rc = MPI_Sendrecv(&v, 1, MPI_INT, (rank + 1) % size, 20000 + check_round, &w, 1, MPI_INT,
                          (rank + size - 1) % size, MPI_ANY_TAG, comm, &st);
    int left = (rank + size - 1) % size;
    if (rc != MPI_SUCCESS || w != left * 1000 + check_round || st.MPI_TAG != 20000 + check_round)
        MTest_Error(__FILE__, __LINE__, "communication after %s: rc %d, got value %d tag %d, "
                    "expected %d tag %d", what, rc, w, st.MPI_TAG, left * 1000 + check_round,
                    20000 + check_round);
    check_round++;
}

void *MTest_Malloc(size_t len)
{
    void *p = malloc(len ? len : 1);

    if (!p) {
        fprintf(stderr, "[rank %d] out of memory (%zu bytes)\n", MTest_rank, len);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

void MTest_Close_tcp_sockets(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return;
    int fds[256], n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < 256) {
        int fd = atoi(de->d_name);
        int dom = 0, type = 0;
        socklen_t l1 = sizeof(dom), l2 = sizeof(type);
        if (fd > 2 && fd != dirfd(d) &&
            getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &l1) == 0 &&
            getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &l2) == 0 &&
            (dom == AF_INET || dom == AF_INET6) && type == SOCK_STREAM)
            fds[n++] = fd;
    }
    closedir(d);
    for (int i = 0; i < n; i++)
        close(fds[i]);
}

void MTest_Check_null_status_(MPI_Status *st, const char *what, const char *file, int line)
{
    int count = -1;

    MPI_Get_count(st, MPI_INT, &count);
    if (!(st->MPI_SOURCE == MPI_PROC_NULL && st->MPI_TAG == MPI_ANY_TAG && count == 0))
        MTest_Error(file, line, "%s: source %d tag %d count %d, expected PROC_NULL ANY_TAG 0",
                    what, st->MPI_SOURCE, st->MPI_TAG, count);
}

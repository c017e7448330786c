/* The job's namespace name and its files on disk (see session.h). */
#include "session.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* Random bits for the namespace name, so that two mpiruns that happen to
 * get the same pid (containers, pid reuse) never share /dev/shm names. */
static unsigned int random_tag(void)
{
    unsigned int r;
    struct timespec ts;

    if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == (ssize_t)sizeof(r))
        return r;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (unsigned int)(ts.tv_nsec ^ (ts.tv_sec << 20) ^ getpid());
}

int rd_mpirun_session_open(rd_mpirun_session_t *s, const char *nspace)
{
    const char *base = getenv("TMPDIR");

    memset(s, 0, sizeof(*s));
    if (nspace)
        snprintf(s->nspace, sizeof(s->nspace), "%s", nspace);
    else
        snprintf(s->nspace, sizeof(s->nspace), "mpirun.%ld.%08x", (long)getpid(), random_tag());
    if (!base || !*base)
        base = "/tmp";
    if (snprintf(s->tmpdir, sizeof(s->tmpdir), "%s/%s.XXXXXX", base, s->nspace) >= (int)sizeof(s->tmpdir)) {
        fprintf(stderr, "mpirun: TMPDIR '%s' is too long\n", base);
        s->tmpdir[0] = '\0';
        return -1;
    }
    if (!mkdtemp(s->tmpdir)) {
        fprintf(stderr, "mpirun: cannot create a directory in %s: %s\n", base, strerror(errno));
        s->tmpdir[0] = '\0';
        return -1;
    }
    return 0;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    if (type == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

/* Unlinks /dev/shm/rdmpi-<nspace> and /dev/shm/rdmpi-<nspace>-*: the exact
 * prefix match keeps "mpirun.12.x" from touching "mpirun.123.x". */
static void remove_shm(const char *nspace)
{
    char prefix[128];
    size_t n;
    DIR *d;
    struct dirent *e;

    n = (size_t)snprintf(prefix, sizeof(prefix), "%s%s", RD_MPIRUN_SHM_PREFIX, nspace);
    d = opendir("/dev/shm");
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, n) == 0 && (e->d_name[n] == '\0' || e->d_name[n] == '-'))
            unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}

void rd_mpirun_session_clean(rd_mpirun_session_t *s)
{
    if (s->tmpdir[0]) {
        nftw(s->tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        s->tmpdir[0] = '\0';
    }
    if (s->nspace[0])
        remove_shm(s->nspace);
}

/*
 * Node-shared memory segments (rma_seg.h): shm_open, ftruncate and mmap.
 * A segment's name holds the job id (so that mpirun's sweep of the job's
 * /dev/shm names finds one left by a crash between creation and unlink)
 * and 64 random bits: a name derived from the window and the rank could be
 * created first by another local user, who would make the window's
 * creation fail or hand the job a segment they can read.
 */
#include "rma/rma_seg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/errdetail.h"
#include "util/random.h"
#include "util/status.h"

/* Names tried before giving up: each is new and random, so only a broken
 * random source or someone creating names as fast as they appear in a
 * listing of /dev/shm gets this far. */
#define RD_RMA_SEG_TRIES 16

/* The job id as it goes into names: the room "/rdmpi-", "-w" and 16 hex
 * digits leave in RD_RMA_SEG_NAME_MAX. */
static char job[RD_RMA_SEG_NAME_MAX - 25];

void rd_rma_seg_init(const char *job_id)
{
    snprintf(job, sizeof(job), "%s", job_id);
}

static void random_name(char *name)
{
    snprintf(name, RD_RMA_SEG_NAME_MAX, "/rdmpi-%s-w%016llx", job,
             (unsigned long long)rd_random64());
}

size_t rd_rma_seg_len(size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (len == 0)
        len = 1;
    return (len + page - 1) / page * page;
}

/* Running out of memory or of /dev/shm is the user's to fix (a smaller
 * window), not an internal error. */
static int sys_status(int err)
{
    return err == ENOMEM || err == ENOSPC || err == EFBIG || err == EINVAL ? RD_ENOMEM : RD_ESYS;
}

static int map_fd(int fd, const char *name, size_t len, void **addr)
{
    void *p = mmap(NULL, rd_rma_seg_len(len), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        int err = errno;
        rd_err_detail_sys(err, "mmap(%s, %zu bytes) of a window segment", name, len);
        return sys_status(err);
    }
    *addr = p;
    return RD_OK;
}

int rd_rma_seg_create(char *name, size_t len, void **addr)
{
    int fd = -1, tries = 0;
    while (fd < 0 && tries++ < RD_RMA_SEG_TRIES) {
        random_name(name);
        fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int err = errno;
        if (err == EEXIST)
            rd_err_detail("shm_open(%s) for a window segment: that name and the %d random "
                          "names tried before it exist already in /dev/shm (another user "
                          "creating names there?)", name, RD_RMA_SEG_TRIES - 1);
        else
            rd_err_detail_sys(err, "shm_open(%s) for a window segment", name);
        name[0] = 0;
        return RD_ESYS;
    }
    int rc = RD_OK;
    /* The umask could have narrowed 0600 further; make it exact. */
    if (fchmod(fd, 0600) != 0) {
        rd_err_detail_sys(errno, "fchmod(%s) of a window segment", name);
        rc = RD_ESYS;
    }
    if (rc == RD_OK && ftruncate(fd, (off_t)rd_rma_seg_len(len)) != 0) {
        int err = errno;
        rd_err_detail_sys(err, "ftruncate(%s, %zu bytes) of a window segment (is /dev/shm "
                          "large enough?)", name, len);
        rc = sys_status(err);
    }
    /* Pages of a tmpfs file are allocated when first touched: without
     * reserving them now, a full /dev/shm would kill the process with
     * SIGBUS at the first store into the window. */
    int err;
    if (rc == RD_OK && (err = posix_fallocate(fd, 0, (off_t)rd_rma_seg_len(len))) != 0 &&
        err != EOPNOTSUPP && err != EINVAL) {
        rd_err_detail_sys(err, "posix_fallocate(%s, %zu bytes) of a window segment (is /dev/shm "
                          "large enough?)", name, len);
        rc = sys_status(err);
    }
    if (rc == RD_OK)
        rc = map_fd(fd, name, len, addr);
    close(fd);
    if (rc != RD_OK) {
        shm_unlink(name);
        name[0] = 0;
    }
    return rc;
}

int rd_rma_seg_map(const char *name, size_t len, void **addr)
{
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0) {
        rd_err_detail_sys(errno, "shm_open(%s) of a node peer's window segment", name);
        return RD_ESYS;
    }
    /* The creator made it with O_EXCL under a random name and unlinks it
     * only after every peer mapped it, so a segment of another user or of
     * another size is not the one the creator made. */
    struct stat st;
    int rc = RD_ESYS;
    if (fstat(fd, &st) != 0)
        rd_err_detail_sys(errno, "fstat(%s) of a node peer's window segment", name);
    else if (st.st_uid != geteuid())
        rd_err_detail("a node peer's window segment %s belongs to uid %u, not to this job's "
                      "uid %u: refused", name, (unsigned)st.st_uid, (unsigned)geteuid());
    else if ((uint64_t)st.st_size < (uint64_t)rd_rma_seg_len(len))
        rd_err_detail("a node peer's window segment %s holds %lld bytes, %zu expected: refused",
                      name, (long long)st.st_size, rd_rma_seg_len(len));
    else
        rc = map_fd(fd, name, len, addr);
    close(fd);
    return rc;
}

void rd_rma_seg_unlink(const char *name)
{
    shm_unlink(name);
}

void rd_rma_seg_unmap(void *addr, size_t len)
{
    if (addr)
        munmap(addr, rd_rma_seg_len(len));
}

/*
 * Node-shared memory segments (rma_seg.h): shm_open, ftruncate and mmap,
 * with names made of the job id, the window id and the creator's job rank,
 * so that windows of different jobs, different communicators with the same
 * context id and different ranks never collide.
 */
#include "rma/rma_seg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/errdetail.h"
#include "util/status.h"

static char job[40];

void rd_rma_seg_init(const char *job_id)
{
    snprintf(job, sizeof(job), "%s", job_id);
}

void rd_rma_seg_name(char *name, uint32_t id, int world, int part)
{
    snprintf(name, RD_RMA_SEG_NAME_MAX, "/rdmpi-%s-w%x-%d-%d", job, (unsigned)id, world, part);
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

int rd_rma_seg_create(const char *name, size_t len, void **addr)
{
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0) {
        rd_err_detail_sys(errno, "shm_open(%s) for a window segment", name);
        return RD_ESYS;
    }
    int rc = RD_OK;
    if (ftruncate(fd, (off_t)rd_rma_seg_len(len)) != 0) {
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
    if (rc != RD_OK)
        shm_unlink(name);
    return rc;
}

int rd_rma_seg_map(const char *name, size_t len, void **addr)
{
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0) {
        rd_err_detail_sys(errno, "shm_open(%s) of a node peer's window segment", name);
        return RD_ESYS;
    }
    int rc = map_fd(fd, name, len, addr);
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

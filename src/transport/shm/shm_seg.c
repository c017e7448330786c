/* The node's shared-memory segment as a file of /dev/shm (see shm_seg.h). */
#include "transport/shm/shm_seg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "transport/shm/shm.h"
#include "util/errdetail.h"
#include "util/random.h"
#include "util/status.h"

/* Names tried before giving up: each is new and random, so only a full
 * /dev/shm or a broken random source gets this far. */
#define RD_SHM_NAME_TRIES 16

/* A name nobody can guess ahead: the job and node (for whoever lists
 * /dev/shm) and 64 random bits. Another user who created the name first
 * would make shm_open(O_EXCL) fail, or hand us a segment they can read. */
static void random_name(char *name, size_t len, const rd_boot_info_t *boot)
{
    snprintf(name, len, "/rdmpi-%s-%d-%016llx", boot->job_id, boot->node_id,
             (unsigned long long)rd_random64());
}

/* Reserves the segment's pages now: on a small /dev/shm (a container's
 * default) the first touch of an unbacked page would kill the rank with
 * SIGBUS in the middle of the job; here it is an error at MPI_Init that
 * says what is missing. */
static int reserve_pages(int fd, const char *name, size_t bytes, int n)
{
    int e = posix_fallocate(fd, 0, (off_t)bytes);
    if (e == 0)
        return RD_OK;
    if (e == ENOSPC || e == EFBIG) {
        struct statvfs vfs;
        unsigned long long avail = 0, total = 0;
        if (fstatvfs(fd, &vfs) == 0) {
            avail = (unsigned long long)vfs.f_bavail * vfs.f_frsize;
            total = (unsigned long long)vfs.f_blocks * vfs.f_frsize;
        }
        rd_err_detail("shm: /dev/shm is too small: the segment of %d local ranks needs %llu "
                      "bytes, /dev/shm has %llu bytes available (of %llu); enlarge it (docker "
                      "run --shm-size, mount -o remount,size=...) or run fewer ranks per node",
                      n, (unsigned long long)bytes, avail, total);
        return RD_ENOMEM;
    }
    rd_err_detail_sys(e, "shm: posix_fallocate(%s, %llu bytes)", name,
                      (unsigned long long)bytes);
    return RD_ESYS;
}

int rd_shm_seg_create(char *name, size_t len, size_t bytes, int n, const rd_boot_info_t *boot,
                      void **addr)
{
    int fd = -1, rc = RD_ESYS;
    for (int i = 0; i < RD_SHM_NAME_TRIES && fd < 0; i++) {
        random_name(name, len, boot);
        fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        rd_err_detail_sys(errno, "shm: shm_open(%s) to create the node's segment", name);
        return RD_ESYS;
    }
    /* The umask could have narrowed 0600 further; make it exact. */
    if (fchmod(fd, 0600) != 0) {
        rd_err_detail_sys(errno, "shm: fchmod(%s)", name);
        goto err;
    }
    if (ftruncate(fd, (off_t)bytes) != 0) {
        rd_err_detail_sys(errno, "shm: ftruncate(%s, %llu bytes) (is /dev/shm large enough?)",
                          name, (unsigned long long)bytes);
        goto err;
    }
    if ((rc = reserve_pages(fd, name, bytes, n)) != RD_OK)
        goto err;
    rc = RD_ESYS;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        rd_err_detail_sys(errno, "shm: mmap of %s (%llu bytes)", name,
                          (unsigned long long)bytes);
        goto err;
    }
    close(fd);
    *addr = p;
    return RD_OK;
err:
    close(fd);
    shm_unlink(name);
    return rc;
}

int rd_shm_seg_publish(const char *name)
{
    int rc = rd_boot_put(RD_SHM_BOOT_KEY, name, strlen(name) + 1);
    if (rc != RD_OK)
        rd_err_detail("shm: publishing the segment's name %s failed", name);
    return rc;
}

void rd_shm_seg_publish_failure(int rc)
{
    char v[16 + RD_ERR_DETAIL_MAX];
    int n = snprintf(v, sizeof(v), "!%d:%s", rc, rd_err_detail_peek());
    if (n > 0)
        (void)rd_boot_put(RD_SHM_BOOT_KEY, v, strlen(v) + 1);
}

int rd_shm_seg_attach(char *name, size_t len, const rd_boot_info_t *boot, void **addr,
                      size_t *bytes)
{
    struct stat st;
    char v[16 + RD_ERR_DETAIL_MAX];
    size_t got = sizeof(v);
    int leader = boot->local_ranks[0];
    name[0] = 0;
    int grc = rd_boot_get(leader, RD_SHM_BOOT_KEY, v, &got);
    if (grc == RD_EINVAL)
        return RD_EAGAIN;   /* no key: local rank 0 does not use shm */
    if (grc != RD_OK || got < 2 || v[got - 1] != 0) {
        rd_err_detail("shm: local rank 0 (rank %d) published no segment name", leader);
        return RD_EBOOT;
    }
    int rc = RD_ESYS, off = 0;
    if (v[0] == '!' && sscanf(v, "!%d:%n", &rc, &off) == 1 && off > 0) {
        rd_err_detail("local rank 0 (rank %d) failed: %s", leader, v + off);
        return rc < 0 ? rc : RD_ESYS;
    }
    if (v[0] != '/' || got > len) {
        rd_err_detail("shm: local rank 0 (rank %d) published no valid segment name", leader);
        return RD_EINTERN;
    }
    memcpy(name, v, got);
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0) {
        rd_err_detail_sys(errno, "shm: shm_open(%s) to attach local rank 0's segment", name);
        return RD_ESYS;
    }
    /* Only a segment of our own user: never one somebody else made. */
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < RD_SHM_PAGE || st.st_uid != geteuid()) {
        rd_err_detail_sys(errno, "shm: fstat(%s) (or the segment is too small, or not this "
                          "user's)", name);
        close(fd);
        return RD_ESYS;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    int merr = errno;
    close(fd);
    if (p == MAP_FAILED) {
        rd_err_detail_sys(merr, "shm: mmap of %s (%llu bytes)", name,
                          (unsigned long long)st.st_size);
        return RD_ESYS;
    }
    *addr = p;
    *bytes = (size_t)st.st_size;
    return RD_OK;
}

/* Fake process manager for forked unit-test ranks (see fake_boot.h). */
#include "fake_boot.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/status.h"

#define FAKE_RANKS_MAX 16
#define FAKE_KV_MAX 256
#define FAKE_KEY_MAX 64
#define FAKE_VAL_MAX 256

typedef struct fake_kv {
    int rank;
    char key[FAKE_KEY_MAX];
    size_t len;
    unsigned char val[FAKE_VAL_MAX];
} fake_kv_t;

typedef struct fake_shared {
    pthread_barrier_t barrier;
    pthread_mutex_t lock;
    int nranks;
    int node_of[FAKE_RANKS_MAX];
    int nkv;
    fake_kv_t kv[FAKE_KV_MAX];
    char job[32];
} fake_shared_t;

static fake_shared_t *fk;
static int fk_rank = -1;
static int fk_fences;
static void (*fk_hook)(int);

int fake_boot_setup(int nranks, const int *node_of)
{
    pthread_barrierattr_t ba;
    pthread_mutexattr_t ma;
    if (nranks < 1 || nranks > FAKE_RANKS_MAX)
        return -1;
    fk = mmap(NULL, sizeof(*fk), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (fk == MAP_FAILED) {
        fk = NULL;
        return -1;
    }
    memset(fk, 0, sizeof(*fk));
    pthread_barrierattr_init(&ba);
    pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_SHARED);
    pthread_barrier_init(&fk->barrier, &ba, (unsigned)nranks);
    pthread_barrierattr_destroy(&ba);
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
    pthread_mutex_init(&fk->lock, &ma);
    pthread_mutexattr_destroy(&ma);
    fk->nranks = nranks;
    for (int r = 0; r < nranks; r++)
        fk->node_of[r] = node_of ? node_of[r] : 0;
    static int serial;
    snprintf(fk->job, sizeof(fk->job), "fake%d.%d", (int)getpid(), serial++);
    return 0;
}

void fake_boot_child(int rank, rd_boot_info_t *info)
{
    int node = fk->node_of[rank], n = 0;
    memset(info, 0, sizeof(*info));
    fk_rank = rank;
    fk_fences = 0;
    fk_hook = NULL;
    info->rank = rank;
    info->size = fk->nranks;
    info->local_ranks = malloc(sizeof(int) * (size_t)fk->nranks);
    for (int r = 0; r < fk->nranks; r++) {
        if (fk->node_of[r] != node)
            continue;
        if (r == rank)
            info->local_rank = n;
        info->local_ranks[n++] = r;
    }
    info->local_size = n;
    info->node_id = node;
    info->universe_size = fk->nranks;
    /* One job id on every node, as a real PMIx server gives (the namespace):
     * nodes that share /dev/shm must still keep their segments apart. */
    snprintf(info->job_id, sizeof(info->job_id), "%s", fk->job);
    snprintf(info->hostname, sizeof(info->hostname), "fakenode%d", node);
}

void fake_boot_info_free(rd_boot_info_t *info)
{
    free(info->local_ranks);
    info->local_ranks = NULL;
}

int fake_boot_fences(void)
{
    return fk_fences;
}

void fake_boot_set_fence_hook(void (*hook)(int nfence))
{
    fk_hook = hook;
}

void fake_boot_teardown(void)
{
    if (!fk)
        return;
    /* Like mpirun: remove whatever a failed rank left in /dev/shm. */
    char prefix[64];
    snprintf(prefix, sizeof(prefix), "rdmpi-%s-", fk->job);
    DIR *d = opendir("/dev/shm");
    if (d) {
        for (struct dirent *e; (e = readdir(d));) {
            char path[300];
            if (strncmp(e->d_name, prefix, strlen(prefix)))
                continue;
            snprintf(path, sizeof(path), "/dev/shm/%s", e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    /* No pthread_barrier_destroy: it would wait for a killed rank forever. */
    munmap(fk, sizeof(*fk));
    fk = NULL;
}

int rd_boot_put(const char *key, const void *val, size_t len)
{
    int rc = RD_OK;
    if (strlen(key) >= FAKE_KEY_MAX || len > FAKE_VAL_MAX)
        return RD_EINVAL;
    pthread_mutex_lock(&fk->lock);
    if (fk->nkv == FAKE_KV_MAX) {
        rc = RD_ENOMEM;
    } else {
        fake_kv_t *e = &fk->kv[fk->nkv++];
        e->rank = fk_rank;
        strcpy(e->key, key);
        e->len = len;
        memcpy(e->val, val, len);
    }
    pthread_mutex_unlock(&fk->lock);
    return rc;
}

int rd_boot_fence(void)
{
    fk_fences++;
    if (fk_hook)
        fk_hook(fk_fences);
    pthread_barrier_wait(&fk->barrier);
    return RD_OK;
}

int rd_boot_get(int rank, const char *key, void *buf, size_t *len)
{
    int rc = RD_EINVAL;
    pthread_mutex_lock(&fk->lock);
    for (int i = fk->nkv - 1; i >= 0; i--) {
        fake_kv_t *e = &fk->kv[i];
        if (e->rank != rank || strcmp(e->key, key))
            continue;
        if (*len < e->len) {
            rc = RD_ENOMEM;
        } else {
            memcpy(buf, e->val, e->len);
            rc = RD_OK;
        }
        *len = e->len;
        break;
    }
    pthread_mutex_unlock(&fk->lock);
    return rc;
}

void rd_boot_abort(int code, const char *msg)
{
    fprintf(stderr, "fake_boot: rank %d aborts: %s\n", fk_rank, msg);
    _exit(code ? code : 1);
}

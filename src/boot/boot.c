/*
 * Bootstrap: picks the back end that matches the process manager that
 * started this rank, and forwards boot.h's calls to it; keeps the job key
 * that rdmpi's mpirun hands a rank in its environment.
 *
 * Order of the choice:
 *  1. PMIX_NAMESPACE set: PMIx (rdmpi's mpirun, srun --mpi=pmix, other PMIx
 *     servers). It comes first because rdmpi's mpirun also exports MPICH's
 *     PMI_RANK and PMI_SIZE to its ranks.
 *  2. PMI_FD or PMI_PORT set: MPICH's simple wire protocols (Hydra's
 *     mpiexec.hydra / mpirun.mpich, srun --mpi=pmi2): PMI-2 when the
 *     process manager offers it, else PMI-1 (RDMPI_PMI may insist on one).
 *  3. Otherwise a singleton, a job of one with puts kept in a local table.
 *     We never call PMIx_Init without PMIX_NAMESPACE: PMIx's own singleton
 *     mode would go looking for system-level servers in /tmp and could
 *     attach to an unrelated one. But when the environment shows that a
 *     launcher started several ranks and gave us no way to reach it, each
 *     rank would silently be a job of one: that is an error naming the
 *     launcher and what to do instead.
 */
#include "boot/boot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot/boot_backend.h"
#include "boot/boot_pmi_wire.h"
#include "boot/boot_tunables.h"
#include "util/errdetail.h"
#include "util/status.h"

/* A value a singleton published for itself. */
typedef struct rd_boot_kv {
    struct rd_boot_kv *next;
    char *key;
    size_t len;
    unsigned char val[];
} rd_boot_kv_t;

static struct {
    int initialized;
    const rd_boot_ops_t *ops;   /* NULL for a singleton */
    const char *tried;          /* the protocol rd_boot_init chose or last tried */
    rd_boot_kv_t *kv;           /* singleton's own puts */
    int have_job_key;
    unsigned char job_key[RD_BOOT_JOB_KEY_LEN];
} boot;

void rd_boot_set_job_id(rd_boot_info_t *info, const char *src)
{
    size_t i, size = sizeof(info->job_id);
    for (i = 0; i + 1 < size && src[i]; i++) {
        char c = src[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
        info->job_id[i] = ok ? c : '_';
    }
    info->job_id[i] = '\0';
}

int rd_boot_copy_out(const void *src, size_t srclen, void *buf, size_t *len)
{
    size_t cap = *len;
    *len = srclen;
    if (srclen > cap)
        return RD_ENOMEM;
    if (srclen)
        memcpy(buf, src, srclen);
    return RD_OK;
}

/* An environment variable holding an integer above 1 (a job of several ranks). */
static long env_count(const char *name)
{
    const char *s = getenv(name);
    char *end;
    long n;

    if (!s)
        return 0;
    n = strtol(s, &end, 10);
    return end == s || *end != '\0' || n <= 1 ? 0 : n;
}

/* Records why this rank must not run as a singleton, or returns 0 when
 * nothing says a launcher started several ranks. */
static int foreign_launcher(void)
{
    long n;

    /* srun gives each task of a step SLURM_STEP_NUM_TASKS (a batch script's
     * own step has none, and a program run there alone is a real singleton). */
    if ((n = env_count("SLURM_STEP_NUM_TASKS")) != 0) {
        rd_err_detail("this looks like Slurm's srun (one of %ld tasks) without a PMIx or PMI "
                      "server: use srun --mpi=pmix (or MpiDefault=pmix in slurm.conf), or "
                      "--mpi=pmi2 where Slurm has no PMIx plugin", n);
        return 1;
    }
    if ((n = env_count("OMPI_COMM_WORLD_SIZE")) != 0) {
        rd_err_detail("this looks like Open MPI's mpirun (OMPI_COMM_WORLD_SIZE=%ld) without a "
                      "PMIx server rdmpi can reach (no PMIX_NAMESPACE): start rdmpi programs "
                      "with rdmpi's mpirun, or with a launcher that offers PMIx", n);
        return 1;
    }
    if ((n = env_count("PMI_SIZE")) != 0) {
        rd_err_detail("this looks like an MPICH-style launcher (PMI_SIZE=%ld) that gave no "
                      "PMI connection (neither PMI_FD nor PMI_PORT is set): use rdmpi's "
                      "mpirun, MPICH's mpiexec.hydra, or srun --mpi=pmix", n);
        return 1;
    }
    return 0;
}

static int init_singleton(rd_boot_info_t *info)
{
    info->rank = 0;
    info->size = 1;
    info->local_rank = 0;
    info->local_size = 1;
    info->local_ranks = malloc(sizeof(int));
    if (!info->local_ranks)
        return RD_ENOMEM;
    info->local_ranks[0] = 0;
    info->node_id = 0;
    info->universe_size = 1;
    info->appnum = 0;
    info->singleton = 1;
    snprintf(info->job_id, sizeof(info->job_id), "single-%ld", (long)getpid());
    return RD_OK;
}

/* Connects over PMI_FD or PMI_PORT and picks the version both sides speak. */
static int pmi_wire_connect(const rd_boot_ops_t **ops)
{
    static const char *const names[] = { "auto", "1", "2" };
    const char *want;
    int rc, w = RD_PMIW_ANY;

    boot.tried = "PMI-2 or PMI-1";
    if ((rc = rd_tunable_str(&rd_boot_tunables[RD_BOOT_T_PMI], &want)) != RD_OK)
        return rc;
    for (int i = 0; i < 3; i++)
        if (strcmp(want, names[i]) == 0)
            w = i == 0 ? RD_PMIW_ANY : i == 1 ? RD_PMIW_ONLY1 : RD_PMIW_ONLY2;
    if ((rc = rd_pmiw_connect(w)) != RD_OK)
        return rc;
    *ops = rd_pmiw.version == 2 ? &rd_boot_pmi2_ops : &rd_boot_pmi1_ops;
    return RD_OK;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Takes RD_BOOT_JOB_KEY_ENV out of the environment, keeping its value in
 * boot.job_key. The digits are overwritten where they are, since
 * /proc/<pid>/environ shows the process's original environment whatever
 * unsetenv does. A malformed value is an error: only mpirun sets it, and
 * ranks with different keys could not connect to each other. */
static int take_job_key(void)
{
    extern char **environ;
    const size_t namelen = sizeof(RD_BOOT_JOB_KEY_ENV) - 1;
    char *val = NULL;
    int rc = RD_OK;

    boot.have_job_key = 0;
    for (char **e = environ; e && *e && !val; e++)
        if (!strncmp(*e, RD_BOOT_JOB_KEY_ENV, namelen) && (*e)[namelen] == '=')
            val = *e + namelen + 1;
    if (!val)
        return RD_OK;
    size_t n = strlen(val);
    if (n != 2 * RD_BOOT_JOB_KEY_LEN || strspn(val, "0123456789abcdef") != n) {
        rd_err_detail("%s is set but is not %d lowercase hex digits: rdmpi's mpirun sets it "
                      "for each job, it is not a setting", RD_BOOT_JOB_KEY_ENV,
                      2 * RD_BOOT_JOB_KEY_LEN);
        rc = RD_EBOOT;
    } else {
        for (size_t i = 0; i < RD_BOOT_JOB_KEY_LEN; i++) {
            int hi = hex_digit(val[2 * i]), lo = hex_digit(val[2 * i + 1]);
            boot.job_key[i] = (unsigned char)(hi << 4 | lo);
        }
        boot.have_job_key = 1;
    }
    memset(val, '0', n);
    unsetenv(RD_BOOT_JOB_KEY_ENV);
    return rc;
}

int rd_boot_job_key(unsigned char key[RD_BOOT_JOB_KEY_LEN])
{
    if (!boot.initialized || !boot.have_job_key)
        return 0;
    memcpy(key, boot.job_key, RD_BOOT_JOB_KEY_LEN);
    return 1;
}

int rd_boot_init(rd_boot_info_t *info)
{
    const rd_boot_ops_t *ops = NULL;
    int rc;

    if (boot.initialized)
        return RD_EINVAL;
    memset(info, 0, sizeof(*info));
    if (gethostname(info->hostname, sizeof(info->hostname)) != 0)
        strcpy(info->hostname, "localhost");
    info->hostname[sizeof(info->hostname) - 1] = '\0';
    if ((rc = take_job_key()) != RD_OK)
        return rc;

    if (getenv("PMIX_NAMESPACE")) {
        ops = &rd_boot_pmix_ops;
    } else if (getenv("PMI_FD") || getenv("PMI_PORT")) {
        if ((rc = pmi_wire_connect(&ops)) != RD_OK)
            return rc;
    } else if (foreign_launcher()) {
        return RD_EBOOT;
    }
    boot.tried = ops ? ops->name : "none found";

    rc = ops ? ops->init(info) : init_singleton(info);
    if (rc != RD_OK)
        return rc;
    boot.ops = ops;
    boot.initialized = 1;
    return RD_OK;
}

const char *rd_boot_name(void)
{
    if (boot.tried)
        return boot.tried;
    if (getenv("PMIX_NAMESPACE"))
        return rd_boot_pmix_ops.name;
    if (getenv("PMI_FD") || getenv("PMI_PORT"))
        return "PMI-2 or PMI-1";
    return "none found";
}

static int singleton_put(const char *key, const void *val, size_t len)
{
    rd_boot_kv_t *kv, **pp;

    /* A second put of the same key replaces the first, as in PMIx. */
    for (pp = &boot.kv; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->key, key) == 0) {
            kv = *pp;
            *pp = kv->next;
            free(kv->key);
            free(kv);
            break;
        }
    }
    kv = malloc(sizeof(*kv) + len);
    if (!kv)
        return RD_ENOMEM;
    kv->key = strdup(key);
    if (!kv->key) {
        free(kv);
        return RD_ENOMEM;
    }
    kv->len = len;
    memcpy(kv->val, val, len);
    kv->next = boot.kv;
    boot.kv = kv;
    return RD_OK;
}

int rd_boot_put(const char *key, const void *val, size_t len)
{
    if (!boot.initialized || !key || (!val && len))
        return RD_EINVAL;
    return boot.ops ? boot.ops->put(key, val, len) : singleton_put(key, val, len);
}

int rd_boot_fence(void)
{
    if (!boot.initialized)
        return RD_EINVAL;
    return boot.ops ? boot.ops->fence() : RD_OK;
}

int rd_boot_get(int rank, const char *key, void *buf, size_t *len)
{
    if (!boot.initialized || !key || !len || (!buf && *len) || rank < 0)
        return RD_EINVAL;
    if (boot.ops)
        return boot.ops->get(rank, key, buf, len);
    if (rank != 0)
        return RD_EINVAL;
    for (rd_boot_kv_t *kv = boot.kv; kv; kv = kv->next)
        if (strcmp(kv->key, key) == 0)
            return rd_boot_copy_out(kv->val, kv->len, buf, len);
    return RD_EINVAL;
}

void rd_boot_abort(int code, const char *msg)
{
    if (boot.initialized && boot.ops)
        boot.ops->abort(code, msg);
    /* The process manager normally kills us before its abort returns; if
     * it returns (or there is none) we end ourselves with the code. */
    _exit(code);
}

int rd_boot_finalize(rd_boot_info_t *info)
{
    int rc = RD_OK;

    if (!boot.initialized)
        return RD_EINVAL;
    if (boot.ops) {
        rc = boot.ops->finalize();
    } else {
        while (boot.kv) {
            rd_boot_kv_t *kv = boot.kv;
            boot.kv = kv->next;
            free(kv->key);
            free(kv);
        }
    }
    boot.initialized = 0;
    boot.ops = NULL;
    boot.have_job_key = 0;
    memset(boot.job_key, 0, sizeof(boot.job_key));
    if (info) {
        free(info->local_ranks);
        info->local_ranks = NULL;
    }
    return rc;
}

/*
 * Bootstrap back ends: the operations behind boot.h that each process
 * manager protocol implements (PMIx in boot_pmix.c, MPICH's simple wire
 * protocols PMI-2 in boot_pmi2.c and PMI-1 in boot_pmi1.c over the
 * connection of boot_pmi_wire.c, a job of one in boot.c), and the helpers
 * they share. boot.c picks one back end at rd_boot_init and forwards to it.
 */
#ifndef RD_BOOT_BOOT_BACKEND_H
#define RD_BOOT_BOOT_BACKEND_H

#include <stddef.h>

#include "boot/boot.h"

typedef struct rd_boot_ops {
    const char *name;   /* named in error details: "PMIx", "PMI-2", "PMI-1" */
    /* Fills *info (hostname is filled already); on failure releases what
     * it took and records a detail. */
    int (*init)(rd_boot_info_t *info);
    int (*put)(const char *key, const void *val, size_t len);
    int (*fence)(void);
    int (*get)(int rank, const char *key, void *buf, size_t *len);
    /* Asks the process manager to end the job; may return (the caller exits). */
    void (*abort)(int code, const char *msg);
    int (*finalize)(void);
} rd_boot_ops_t;

extern const rd_boot_ops_t rd_boot_pmix_ops;
extern const rd_boot_ops_t rd_boot_pmi1_ops;
extern const rd_boot_ops_t rd_boot_pmi2_ops;

/* Copies a job name into info->job_id keeping only [A-Za-z0-9._-]: job ids
 * go into file names (/dev/shm/rdmpi-<job_id>-...). */
void rd_boot_set_job_id(rd_boot_info_t *info, const char *name);

/* Copies srclen bytes to buf if they fit in *len; *len becomes srclen.
 * Returns RD_OK or RD_ENOMEM. */
int rd_boot_copy_out(const void *src, size_t srclen, void *buf, size_t *len);

#endif

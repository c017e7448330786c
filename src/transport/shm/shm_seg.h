/*
 * The node's shared-memory segment as a file of /dev/shm: created by local
 * rank 0 under a name nobody can guess or take first, its pages reserved
 * at once, its name handed to the other local ranks through the bootstrap,
 * and mapped by them. What the segment holds is shm.c's (layout in shm.h).
 *
 * Name: /rdmpi-<job_id>-<node_id>-<64 random bits in hex>, created with
 * O_EXCL and mode 0600 (a new name on a clash), published under the key
 * RD_SHM_BOOT_KEY; the node id keeps hosts that share /dev/shm (network
 * namespaces on one machine) apart. A creation that fails publishes
 * "!<status>:<reason>" instead, so every local rank reports the reason.
 */
#ifndef RD_TRANSPORT_SHM_SHM_SEG_H
#define RD_TRANSPORT_SHM_SHM_SEG_H

#include <stddef.h>

#include "transport/transport.h"

#define RD_SHM_BOOT_KEY "rdmpi.shm.seg"

/* Creates and maps a segment of bytes for n local ranks (zeroed, every page
 * reserved: a /dev/shm too small fails here with the sizes needed and
 * available); its name goes to name (len bytes), the mapping to *addr.
 * RD_OK, or a status with the reason recorded (nothing left behind). */
int rd_shm_seg_create(char *name, size_t len, size_t bytes, int n, const rd_boot_info_t *boot,
                      void **addr);

/* Publishes the name of the segment created for the other local ranks. */
int rd_shm_seg_publish(const char *name);

/* Local rank 0 could not create the segment (status rc, reason recorded):
 * publishes why in place of the name. */
void rd_shm_seg_publish_failure(int rc);

/* Other local ranks: maps the segment local rank 0 published (its name to
 * name, len bytes; *addr, *bytes the mapping). Only a segment of this
 * user's is mapped. RD_OK, or a status with the reason recorded (local
 * rank 0's own, when it failed); RD_EAGAIN when local rank 0 published
 * none because it does not use shm. */
int rd_shm_seg_attach(char *name, size_t len, const rd_boot_info_t *boot, void **addr,
                      size_t *bytes);

#endif

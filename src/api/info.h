/*
 * Info objects as the rest of the API layer sees them: an ordered list of
 * (key, value) strings. Communicators keep a private copy of the hints set
 * on them (MPI_Comm_set_info, MPI_Comm_dup), only stored and handed back;
 * windows keep the hints in effect (api/win_info.c).
 */
#ifndef RD_API_INFO_H
#define RD_API_INFO_H

#include <mpi.h>

typedef struct rd_info_entry {
    char *key, *value;
} rd_info_entry_t;

typedef struct rd_info {
    int handle;                /* 0 for private copies without a handle */
    int n, cap;
    rd_info_entry_t *e;        /* in the order keys were first set */
} rd_info_t;

/* The info object behind h (MPI_INFO_ENV included), or NULL. Lock held. */
rd_info_t *rd_api_info(MPI_Info h);
/* A copy of src without a handle (src NULL: an empty object); NULL on ENOMEM.
 * Lock held. */
rd_info_t *rd_api_info_copy(const rd_info_t *src);
/* A copy of src (src NULL: an empty object) with a handle, to go to the
 * user: the handle, or 0 on ENOMEM (nothing is left behind). Lock held. */
int rd_api_info_copy_handle(const rd_info_t *src);
/* Sets key to value in info (both within MPI's limits): RD_OK or RD_ENOMEM.
 * The value of key, or NULL when info (which may be NULL) does not have it.
 * Lock held. */
int rd_api_info_set(rd_info_t *info, const char *key, const char *value);
const char *rd_api_info_value(const rd_info_t *info, const char *key);
/* Frees info and its handle, if any. NULL is fine. Lock held. */
void rd_api_info_destroy(rd_info_t *info);

#endif

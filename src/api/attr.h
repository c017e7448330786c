/*
 * Attribute caching on communicators, as seen by the rest of the API layer:
 * what MPI_Comm_dup and MPI_Comm_free (and MPI_Finalize, for MPI_COMM_SELF)
 * need. Attribute callbacks are user code that may call MPI, so both
 * functions must be called WITHOUT the library lock held; they take it
 * themselves around each list update.
 */
#ifndef RD_API_ATTR_H
#define RD_API_ATTR_H

#include "core/comm.h"

/* Runs the copy callback of every attribute of old and caches the copies the
 * callbacks ask for on newc. Returns MPI_SUCCESS, MPI_ERR_NO_MEM, or the error
 * code a copy callback returned (attributes copied so far stay on newc; the
 * caller frees newc with rd_api_attr_delete_all + release). Not raised
 * through an error handler: the caller does that. */
int rd_api_attr_copy_all(rd_comm_t *old, rd_comm_t *newc);

/* rd_api_attr_copy_all for the constructors that duplicate old into newc
 * (MPI_Comm_dup*, MPI_Comm_idup*): on failure the copies made so far are
 * deleted with their callbacks, newc is freed (rd_api_comm_free) and the
 * error is raised on old in function fn: out of memory, the class a copy
 * callback returned, or its error code as it is. Returns the MPI code. */
int rd_api_attr_copy_dup(rd_comm_t *old, rd_comm_t *newc, const char *fn);

/* Deletes every attribute of c, last set first, running the delete
 * callbacks. Stops at the first callback that fails and returns its code
 * (that attribute and the ones set before it stay); MPI_SUCCESS otherwise. */
int rd_api_attr_delete_all(rd_comm_t *c);

#endif

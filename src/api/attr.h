/*
 * Attribute caching, as seen by the rest of the API layer: what
 * MPI_Comm_dup and MPI_Comm_free (and MPI_Finalize, for MPI_COMM_SELF)
 * need, and the keyval and attribute steps that the window entry points
 * share with the communicator ones. Attribute callbacks are user code that
 * may call MPI, so every function here must be called WITHOUT the library
 * lock held; they take it themselves around each list update.
 */
#ifndef RD_API_ATTR_H
#define RD_API_ATTR_H

#include <mpi.h>

#include "core/comm.h"

struct rd_win;

/* The object whose attributes a step works on. Errors are raised on comm
 * or win (whichever is set; neither, as for datatypes: MPI_COMM_WORLD). */
typedef struct rd_attr_owner {
    int kind;              /* RD_OBJ_COMM / _WIN / _DATATYPE: keyvals must be of this kind */
    int handle;            /* what the delete callbacks are given */
    rd_list_t *attrs;      /* rd_attr_t */
    rd_comm_t *comm;
    struct rd_win *win;
} rd_attr_owner_t;

/* A keyval for objects of kind obj (a user handle). MPI_SUCCESS or the
 * error code after MPI_COMM_WORLD's handler ran. */
int rd_api_attr_create_keyval(int obj, MPI_Comm_copy_attr_function *copy,
                              MPI_Comm_delete_attr_function *del, int *keyval, void *extra,
                              const char *fn);
/* Frees the user's handle of a keyval of kind obj (*keyval becomes
 * MPI_KEYVAL_INVALID); attributes still using it keep it alive. */
int rd_api_attr_free_keyval(int obj, int *keyval, const char *fn);
/* Set, get and delete one attribute of o with a user keyval of o's kind
 * (predefined attributes are the caller's: set and delete refuse them, get
 * does not know them). Errors are raised on o. */
int rd_api_attr_set(const rd_attr_owner_t *o, int keyval, void *value, const char *fn);
int rd_api_attr_get(const rd_attr_owner_t *o, int keyval, void *value, int *flag, const char *fn);
int rd_api_attr_delete(const rd_attr_owner_t *o, int keyval, const char *fn);
/* rd_api_attr_delete_all for any owner. */
int rd_api_attr_owner_delete_all(const rd_attr_owner_t *o);

/* Runs the copy callback of every attribute of old and caches the copies the
 * callbacks ask for on newc. Returns MPI_SUCCESS, MPI_ERR_NO_MEM, or the error
 * code a copy callback returned (attributes copied so far stay on newc; the
 * caller frees newc with rd_api_attr_delete_all + release). Not raised
 * through an error handler: the caller does that. */
int rd_api_attr_copy_all(rd_comm_t *old, rd_comm_t *newc);
/* rd_api_attr_copy_all for any owner (both of the same kind). */
int rd_api_attr_owner_copy_all(const rd_attr_owner_t *old, const rd_attr_owner_t *newo);

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

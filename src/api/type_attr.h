/*
 * Attributes on datatypes: the passes MPI_Type_dup and MPI_Type_free run.
 * Attribute callbacks are user code that may call MPI: call these WITHOUT
 * the library lock held.
 */
#ifndef RD_API_TYPE_ATTR_H
#define RD_API_TYPE_ATTR_H

#include "core/datatype.h"

/* Runs the copy callbacks of old's attributes and caches the copies they
 * ask for on newt. On failure the copies made are deleted again and the
 * error is raised in function fn (MPI_COMM_WORLD's handler); returns the
 * MPI code. */
int rd_api_type_attr_copy(rd_datatype_t *old, rd_datatype_t *newt, const char *fn);
/* Deletes every attribute of dt, running the delete callbacks; the first
 * callback that fails stops it and its error is raised in fn. */
int rd_api_type_attr_delete_all(rd_datatype_t *dt, const char *fn);

#endif

/*
 * Persistent collectives (MPI-4.0 section 5.13), blocking-free: what
 * MPI_Start needs from them.
 */
#ifndef RD_API_COLL_PERSIST_H
#define RD_API_COLL_PERSIST_H

#include "api/api.h"

/* Lock held on entry and exit (released while the collective starts).
 * Activates p, a request of kind RD_REQ_PERSIST_COLL: starts the
 * nonblocking collective it records, whose request becomes p->inner.
 * Returns MPI_SUCCESS or the error handler's code (MPI_ERR_REQUEST if p is
 * already active). */
int rd_api_pcoll_start(rd_request_t *p, const char *fn);

#endif

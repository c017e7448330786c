/*
 * Partitioned communication (partitioned.c) as MPI_Start and the request
 * code see it: a partitioned request is a persistent send or receive
 * request (RD_REQ_PERSIST_SEND / RD_REQ_PERSIST_RECV) whose ext points at
 * its partition state, so that waits, tests and MPI_Request_free treat it
 * as any persistent request. Lock held.
 */
#ifndef RD_API_PARTITIONED_H
#define RD_API_PARTITIONED_H

#include "core/request.h"

/* Whether p is a partitioned request. */
int rd_api_part_is(const rd_request_t *p);
/* MPI_Start of partitioned request p (inactive): MPI_SUCCESS or the error's
 * code. */
int rd_api_part_start(rd_request_t *p, const char *fn);

#endif

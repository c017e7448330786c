/*
 * Generalized requests (MPI_Grequest_start): the steps the completion calls
 * of wait.c take on a request of kind RD_REQ_GREQ. Each is called with the
 * library lock held and releases it while the program's callback runs.
 */
#ifndef RD_API_GREQUEST_H
#define RD_API_GREQUEST_H

#include "core/request.h"

/* Calls query_fn and stores the status it fills in r (st_source, st_tag,
 * st_bytes, cancelled) and its return value in r->st_error. For a
 * completion (for_completion), only once: the status the completion
 * reports; MPI_Request_get_status asks again each time. */
void rd_api_greq_query(rd_request_t *r, int for_completion);
/* Calls free_fn and frees r; returns free_fn's error code. */
int rd_api_greq_free(rd_request_t *r);
/* Calls cancel_fn with whether r is already complete. */
void rd_api_greq_cancel(rd_request_t *r);

#endif

/*
 * Generalized requests (MPI-3.1 12.2): MPI_Grequest_start makes a request
 * of kind RD_REQ_GREQ that only MPI_Grequest_complete completes; the
 * completion calls (wait.c) ask the program's callbacks for what they
 * report: query_fn fills the status and its return value is the request's
 * error, free_fn runs when the request is freed (its error, if any, is the
 * completion's), cancel_fn runs on MPI_Cancel with whether the request is
 * already complete. The callbacks are user code that may call MPI, so they
 * run without the library lock.
 */
#include "api/grequest.h"

#include <string.h>

#include "api/api.h"

/* What a generalized request carries in its private area. */
typedef struct greq {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free;
    MPI_Grequest_cancel_function *cancel;
    void *extra;
    int queried;           /* query_fn already gave this completion's status */
} greq_t;

_Static_assert(sizeof(greq_t) <= RD_REQ_PRIV_SIZE, "greq_t does not fit a request");

static greq_t *greq_of(rd_request_t *r)
{
    return (greq_t *)(void *)r->priv;
}

void rd_api_greq_query(rd_request_t *r, int for_completion)
{
    greq_t *g = greq_of(r);
    if (g->queried && for_completion)
        return;
    MPI_Status s;
    rd_api_empty_status(&s);
    s.MPI_ERROR = MPI_SUCCESS;
    rd_api_unlock();
    int code = g->query(g->extra, &s);
    rd_api_lock();
    g->queried = for_completion;
    r->st_source = s.MPI_SOURCE;
    r->st_tag = s.MPI_TAG;
    r->st_bytes = (size_t)rd_api_status_bytes(&s);
    r->cancelled = (uint8_t)(s.count_hi_and_cancelled & 1);
    r->st_error = code;
}

int rd_api_greq_free(rd_request_t *r)
{
    greq_t *g = greq_of(r);
    rd_api_unlock();
    int code = g->free(g->extra);
    rd_api_lock();
    rd_req_free(r);
    return code;
}

void rd_api_greq_cancel(rd_request_t *r)
{
    greq_t *g = greq_of(r);
    int complete = r->done > 0;
    rd_api_unlock();
    g->cancel(g->extra, complete);
    rd_api_lock();
}

RD_WEAK_ALIAS(MPI_Grequest_start)
int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn,
                        MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                        MPI_Request *request)
{
    static const char fn[] = "MPI_Grequest_start";
    RD_API_CHECK_INIT(fn);
    if (!query_fn || !free_fn || !cancel_fn)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "query_fn, free_fn or cancel_fn is NULL");
    if (!request)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "request pointer is NULL");
    rd_api_lock();
    rd_request_t *r = rd_req_new(RD_REQ_GREQ);
    if (r)
        *greq_of(r) = (greq_t){ query_fn, free_fn, cancel_fn, extra_state, 0 };
    rd_api_unlock();
    if (!r)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for a request");
    *request = r->handle;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Grequest_complete)
int PMPI_Grequest_complete(MPI_Request request)
{
    static const char fn[] = "MPI_Grequest_complete";
    RD_API_CHECK_INIT(fn);
    rd_api_lock();
    rd_request_t *r = rd_api_req(request);
    int err = MPI_SUCCESS;
    if (!r || r->kind != RD_REQ_GREQ) {
        rd_api_unlock();
        return rd_api_error(NULL, MPI_ERR_REQUEST, fn,
                            request == MPI_REQUEST_NULL ? "request is MPI_REQUEST_NULL"
                            : "request 0x%x is not a generalized request (MPI_Grequest_start)",
                            (unsigned)request);
    }
    if (r->done > 0) {
        rd_api_unlock();
        return rd_api_error(NULL, MPI_ERR_REQUEST, fn,
                            "generalized request 0x%x is already complete", (unsigned)request);
    }
    /* Freed by the program before it completed (MPI_Request_free): it goes
     * now, with its free_fn; nobody will ask for its status. */
    if (r->user_freed) {
        r->done = 1;
        err = rd_api_greq_free(r);
    } else {
        r->done = 1;
    }
    rd_api_unlock();
    return err == MPI_SUCCESS ? MPI_SUCCESS : rd_api_raise(NULL, err, fn);
}

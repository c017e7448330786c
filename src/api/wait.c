/*
 * Completion: the Wait and Test families, MPI_Request_free,
 * MPI_Request_get_status and MPI_Cancel. Every family member goes through
 * is_done() and complete() so that ordinary, persistent and null requests
 * behave the same way everywhere.
 */
#include "api/api.h"

#include "api/grequest.h"
#include "api/coll_persist.h"
#include "api/win.h"
#include "p2p/p2p.h"

/* What a user request slot holds. */
enum slot { SLOT_NULL, SLOT_INACTIVE, SLOT_ACTIVE, SLOT_BAD };

static int slot_of(MPI_Request h, rd_request_t **out)
{
    *out = NULL;
    if (h == MPI_REQUEST_NULL)
        return SLOT_NULL;
    rd_request_t *r = rd_api_req(h);
    if (!r || (r->kind == RD_REQ_RECV && r->ext)) /* a matched-probe message, not a request */
        return SLOT_BAD;
    *out = r;
    if ((r->kind == RD_REQ_PERSIST_SEND || r->kind == RD_REQ_PERSIST_RECV ||
         r->kind == RD_REQ_PERSIST_COLL) && !r->inner)
        return SLOT_INACTIVE;
    return SLOT_ACTIVE;
}

static int bad_request(MPI_Request h, const char *fn)
{
    return rd_api_error(NULL, MPI_ERR_REQUEST, fn, "invalid request handle 0x%x", (unsigned)h);
}

/* The request doing the work: the inner one for persistent requests. */
static rd_request_t *work_of(rd_request_t *r)
{
    return r->inner ? r->inner : r;
}

static int is_done(rd_request_t *r)
{
    return work_of(r)->done > 0;
}

/* The MPI error code of a completed request (MPI_SUCCESS or a raised error). */
static int code_of(rd_request_t *w, const char *fn)
{
    if (w->kind == RD_REQ_GREQ) /* what query_fn returned */
        return w->st_error == MPI_SUCCESS ? MPI_SUCCESS : rd_api_raise(NULL, w->st_error, fn);
    if (w->error == RD_OK)
        return MPI_SUCCESS;
    if (w->kind == RD_REQ_RMA) /* raised on the window's error handler */
        return rd_api_win_status_error(w->ext, w->error, fn);
    return rd_api_request_error(w, fn);
}

/* Reports a completed request: fills the status, frees it (or deactivates a
 * persistent one) and sets *h to MPI_REQUEST_NULL when freed. Returns its
 * MPI error code; the error handler has already been applied. */
static int complete(MPI_Request *h, rd_request_t *r, MPI_Status *st, const char *fn)
{
    rd_request_t *w = work_of(r);
    if (w->kind == RD_REQ_GREQ)
        rd_api_greq_query(w, 1);
    rd_api_set_status(st, w);
    int code = code_of(w, fn);
    if (st != MPI_STATUS_IGNORE && code != MPI_SUCCESS)
        st->MPI_ERROR = code;
    if (r->inner) {
        rd_req_free(r->inner);
        r->inner = NULL;
        r->done = 1;
    } else if (r->kind == RD_REQ_GREQ) {
        /* free_fn's error is the call's when query_fn reported none. */
        int ferr = rd_api_greq_free(r);
        *h = MPI_REQUEST_NULL;
        if (code == MPI_SUCCESS && ferr != MPI_SUCCESS)
            code = rd_api_raise(NULL, ferr, fn);
    } else if (r->kind != RD_REQ_PERSIST_SEND && r->kind != RD_REQ_PERSIST_RECV &&
               r->kind != RD_REQ_PERSIST_COLL) {
        rd_req_free(r);
        *h = MPI_REQUEST_NULL;
    }
    return code;
}

/* Waits on one slot (lock held). */
static int wait_one(MPI_Request *h, MPI_Status *st, const char *fn)
{
    rd_request_t *r;
    switch (slot_of(*h, &r)) {
    case SLOT_NULL:
    case SLOT_INACTIVE:
        rd_api_empty_status(st);
        return MPI_SUCCESS;
    case SLOT_BAD:
        return bad_request(*h, fn);
    }
    rd_api_wait(work_of(r));
    return complete(h, r, st, fn);
}

RD_WEAK_ALIAS(MPI_Wait)
int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    static const char fn[] = "MPI_Wait";
    RD_API_CHECK_INIT(fn);
    int err;
    if ((err = rd_api_check_out(NULL, request, "request", fn)) ||
        (err = rd_api_check_out(NULL, status, "status", fn)))
        return err;
    rd_api_lock();
    err = wait_one(request, status, fn);
    rd_api_unlock();
    return err;
}

/* The common part of MPI_Test and MPI_Request_get_status (lock held): *flag
 * is whether the request is done, after one pass of progress if it was not.
 * *r is the active request, or NULL for MPI_REQUEST_NULL or an inactive one
 * (done, with an empty status). */
static int poll_one(MPI_Request h, rd_request_t **r, int *flag, MPI_Status *status,
                    const char *fn)
{
    switch (slot_of(h, r)) {
    case SLOT_NULL:
    case SLOT_INACTIVE:
        *r = NULL;
        *flag = 1;
        rd_api_empty_status(status);
        return MPI_SUCCESS;
    case SLOT_BAD:
        return bad_request(h, fn);
    }
    if (!is_done(*r))
        rd_progress();
    *flag = is_done(*r);
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Test)
int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    static const char fn[] = "MPI_Test";
    rd_request_t *r;
    RD_API_CHECK_INIT(fn);
    int err;
    if ((err = rd_api_check_out(NULL, request, "request", fn)) ||
        (err = rd_api_check_out(NULL, flag, "flag", fn)) ||
        (err = rd_api_check_out(NULL, status, "status", fn)))
        return err;
    rd_api_lock();
    err = poll_one(*request, &r, flag, status, fn);
    if (err == MPI_SUCCESS && r && *flag)
        err = complete(request, r, status, fn);
    rd_api_unlock();
    return err;
}

/* Checks the array arguments of the Waitall/any/some and Testall/any/some
 * functions: the requests, and the status (statuses) the call writes. */
static int check_array(int count, MPI_Request reqs[], MPI_Status *st, const char *fn)
{
    if (count < 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "negative request count %d", count);
    if (count > 0 && !reqs)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "request array is NULL but count is %d", count);
    if (count > 0 && !st)
        return rd_api_null_arg(NULL, "status", fn);
    for (int i = 0; i < count; i++) {
        rd_request_t *r;
        if (slot_of(reqs[i], &r) == SLOT_BAD)
            return bad_request(reqs[i], fn);
    }
    return MPI_SUCCESS;
}

static MPI_Status *status_at(MPI_Status *statuses, int i)
{
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

/* Fills st for a finished request of a call on many requests, with the
 * request's error class in MPI_ERROR, and clears that error: the call raises
 * one MPI_ERR_IN_STATUS instead (in_status_error). Returns whether it had
 * failed, with its communicator in *ec. */
static int status_of_many(MPI_Status *st, rd_request_t *w, rd_comm_t **ec)
{
    if (w->kind == RD_REQ_GREQ) {
        rd_api_greq_query(w, 1);
        int code = w->st_error;
        rd_api_set_status(st, w);
        if (st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = code;
        w->st_error = MPI_SUCCESS;
        if (code != MPI_SUCCESS)
            *ec = NULL;
        return code != MPI_SUCCESS;
    }
    int failed = w->error != RD_OK;
    if (failed)
        *ec = w->comm;
    rd_api_set_status(st, w);
    if (st != MPI_STATUS_IGNORE)
        st->MPI_ERROR = failed ? rd_api_class_of(w->error) : MPI_SUCCESS;
    w->error = RD_OK;
    return failed;
}

static int in_status_error(rd_comm_t *ec, const char *fn)
{
    return rd_api_error(ec, MPI_ERR_IN_STATUS, fn,
                        "at least one request failed; see the MPI_ERROR field of the statuses");
}

/* Completes every slot of a finished Waitall/Testall; errors go into the statuses
 * and the call returns MPI_ERR_IN_STATUS (MPI-3.1 3.7.5). */
static int complete_all(int count, MPI_Request reqs[], MPI_Status statuses[], const char *fn)
{
    int any_err = 0;
    rd_comm_t *ec = NULL;
    for (int i = 0; i < count; i++) {
        rd_request_t *r;
        MPI_Status *st = status_at(statuses, i);
        if (slot_of(reqs[i], &r) != SLOT_ACTIVE) {
            rd_api_empty_status(st);
            if (st != MPI_STATUS_IGNORE)
                st->MPI_ERROR = MPI_SUCCESS;
            continue;
        }
        /* Errors are raised once, for the whole call, below. */
        any_err |= status_of_many(st, work_of(r), &ec);
        complete(&reqs[i], r, MPI_STATUS_IGNORE, fn);
    }
    return any_err ? in_status_error(ec, fn) : MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Waitall)
int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    static const char fn[] = "MPI_Waitall";
    RD_API_CHECK_INIT(fn);
    rd_api_lock();
    int err = check_array(count, array_of_requests, array_of_statuses, fn);
    if (err == MPI_SUCCESS) {
        for (int i = 0; i < count; i++) {
            rd_request_t *r;
            if (slot_of(array_of_requests[i], &r) == SLOT_ACTIVE)
                rd_api_wait(work_of(r));
        }
        err = complete_all(count, array_of_requests, array_of_statuses, fn);
    }
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Testall)
int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                 MPI_Status array_of_statuses[])
{
    static const char fn[] = "MPI_Testall";
    RD_API_CHECK_INIT(fn);
    if (!flag)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "flag pointer is NULL");
    rd_api_lock();
    int err = check_array(count, array_of_requests, array_of_statuses, fn);
    if (err == MPI_SUCCESS) {
        rd_progress();
        *flag = 1;
        for (int i = 0; i < count && *flag; i++) {
            rd_request_t *r;
            if (slot_of(array_of_requests[i], &r) == SLOT_ACTIVE && !is_done(r))
                *flag = 0;
        }
        if (*flag)
            err = complete_all(count, array_of_requests, array_of_statuses, fn);
    }
    rd_api_unlock();
    return err;
}

/* Index of a completed active request, or -1; *active tells whether any slot is active. */
static int find_done(int count, MPI_Request reqs[], int *active)
{
    *active = 0;
    for (int i = 0; i < count; i++) {
        rd_request_t *r;
        if (slot_of(reqs[i], &r) != SLOT_ACTIVE)
            continue;
        *active = 1;
        if (is_done(r))
            return i;
    }
    return -1;
}

/* Progresses (lock held, released while idle) until one active request is
 * done or none is active; returns what find_done returns then. */
static int wait_any_done(int count, MPI_Request reqs[], int *active)
{
    int i;
    unsigned idle = 0;
    if ((i = find_done(count, reqs, active)) >= 0 || !*active)
        return i;
    rd_p2p_wait_begin();
    while ((i = find_done(count, reqs, active)) < 0 && *active) {
        if (rd_progress() == 0) {
            rd_api_unlock();
            rd_p2p_idle(&idle);
            rd_api_lock();
        }
    }
    rd_p2p_wait_end();
    return i;
}

RD_WEAK_ALIAS(MPI_Waitany)
int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    static const char fn[] = "MPI_Waitany";
    RD_API_CHECK_INIT(fn);
    if (!index)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "index pointer is NULL");
    /* The status is written even when no request is active. */
    int err = rd_api_check_out(NULL, status, "status", fn);
    if (err)
        return err;
    rd_api_lock();
    err = check_array(count, array_of_requests, status, fn);
    if (err == MPI_SUCCESS) {
        int active;
        int i = wait_any_done(count, array_of_requests, &active);
        if (i < 0) {
            *index = MPI_UNDEFINED;
            rd_api_empty_status(status);
        } else {
            *index = i;
            err = complete(&array_of_requests[i], rd_api_req(array_of_requests[i]), status, fn);
        }
    }
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Testany)
int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                 MPI_Status *status)
{
    static const char fn[] = "MPI_Testany";
    RD_API_CHECK_INIT(fn);
    if (!index || !flag)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "index or flag pointer is NULL");
    int err = rd_api_check_out(NULL, status, "status", fn);
    if (err)
        return err;
    rd_api_lock();
    err = check_array(count, array_of_requests, status, fn);
    if (err == MPI_SUCCESS) {
        int active;
        int i = find_done(count, array_of_requests, &active);
        if (i < 0 && active) {
            rd_progress();
            i = find_done(count, array_of_requests, &active);
        }
        if (i >= 0) {
            *flag = 1;
            *index = i;
            err = complete(&array_of_requests[i], rd_api_req(array_of_requests[i]), status, fn);
        } else {
            *flag = !active; /* no active request: flag true, index undefined */
            *index = MPI_UNDEFINED;
            if (!active)
                rd_api_empty_status(status);
        }
    }
    rd_api_unlock();
    return err;
}

/* Completes every finished active request; returns how many (or MPI_UNDEFINED
 * when no request is active). */
static int some(int count, MPI_Request reqs[], int indices[], MPI_Status statuses[], int *err,
                const char *fn)
{
    int n = 0, active = 0, failed = 0;
    rd_comm_t *ec = NULL;
    for (int i = 0; i < count; i++) {
        rd_request_t *r;
        if (slot_of(reqs[i], &r) != SLOT_ACTIVE)
            continue;
        active = 1;
        if (!is_done(r))
            continue;
        failed |= status_of_many(status_at(statuses, n), work_of(r), &ec);
        complete(&reqs[i], r, MPI_STATUS_IGNORE, fn);
        indices[n++] = i;
    }
    if (failed)
        *err = in_status_error(ec, fn);
    return active ? n : MPI_UNDEFINED;
}

/* MPI_Waitsome (wait) and MPI_Testsome: the same but for waiting until one
 * request is done. */
static int wait_or_test_some(int incount, MPI_Request reqs[], int *outcount, int indices[],
                             MPI_Status statuses[], int wait, const char *fn)
{
    RD_API_CHECK_INIT(fn);
    if (!outcount || (incount > 0 && !indices))
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "outcount or indices pointer is NULL");
    rd_api_lock();
    int err = check_array(incount, reqs, statuses, fn);
    if (err == MPI_SUCCESS) {
        int active;
        if (wait)
            wait_any_done(incount, reqs, &active);
        else
            rd_progress();
        *outcount = some(incount, reqs, indices, statuses, &err, fn);
    }
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Waitsome)
int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
    return wait_or_test_some(incount, array_of_requests, outcount, array_of_indices,
                             array_of_statuses, 1, "MPI_Waitsome");
}

RD_WEAK_ALIAS(MPI_Testsome)
int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[])
{
    return wait_or_test_some(incount, array_of_requests, outcount, array_of_indices,
                             array_of_statuses, 0, "MPI_Testsome");
}

RD_WEAK_ALIAS(MPI_Request_get_status)
int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    static const char fn[] = "MPI_Request_get_status";
    rd_request_t *r;
    RD_API_CHECK_INIT(fn);
    int err;
    if ((err = rd_api_check_out(NULL, flag, "flag", fn)) ||
        (err = rd_api_check_out(NULL, status, "status", fn)))
        return err;
    rd_api_lock();
    err = poll_one(request, &r, flag, status, fn);
    if (err == MPI_SUCCESS && r && *flag) {
        if (r->kind == RD_REQ_GREQ)
            rd_api_greq_query(r, 0);
        rd_api_set_status(status, work_of(r));
    }
    rd_api_unlock();
    return err;
}

/* The first steps of MPI_Request_free and MPI_Cancel: the pointer, then
 * (under the lock) the handle, which must be a request and not
 * MPI_REQUEST_NULL. On success the lock is held and *slot is SLOT_ACTIVE or
 * SLOT_INACTIVE; on error it is released. */
static int lock_user_request(MPI_Request *request, rd_request_t **r, enum slot *slot,
                             const char *fn)
{
    RD_API_CHECK_INIT(fn);
    int err = rd_api_check_out(NULL, request, "request", fn);
    if (err)
        return err;
    rd_api_lock();
    *slot = slot_of(*request, r);
    if (*slot == SLOT_NULL)
        err = rd_api_error(NULL, MPI_ERR_REQUEST, fn, "request is MPI_REQUEST_NULL");
    else if (*slot == SLOT_BAD)
        err = bad_request(*request, fn);
    if (err)
        rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Request_free)
int PMPI_Request_free(MPI_Request *request)
{
    rd_request_t *r;
    enum slot slot;
    int err = lock_user_request(request, &r, &slot, "MPI_Request_free");
    if (err)
        return err;
    /* MPI-4.0 section 5.13: a persistent collective must be inactive. */
    if (r->kind == RD_REQ_PERSIST_COLL && r->inner) {
        rd_api_unlock();
        return rd_api_error(r->comm, MPI_ERR_REQUEST, "MPI_Request_free",
                            "the persistent collective request is active: complete it first");
    }
    /* The operation goes on; its request is freed when it completes. */
    rd_request_t *w = r->inner;
    if (w) {
        r->inner = NULL;
        if (w->done > 0)
            rd_req_free(w);
        else
            w->user_freed = 1;
        rd_req_free(r);
    } else if (r->kind == RD_REQ_GREQ && r->done > 0) {
        err = rd_api_greq_free(r);
    } else if (r->done > 0 || r->kind == RD_REQ_PERSIST_SEND || r->kind == RD_REQ_PERSIST_RECV) {
        if (r->kind == RD_REQ_PERSIST_COLL)
            rd_api_pcoll_free(r);
        rd_req_free(r);
    } else {
        r->user_freed = 1;
    }
    *request = MPI_REQUEST_NULL;
    rd_api_unlock();
    return err == MPI_SUCCESS ? MPI_SUCCESS : rd_api_raise(NULL, err, "MPI_Request_free");
}

RD_WEAK_ALIAS(MPI_Cancel)
int PMPI_Cancel(MPI_Request *request)
{
    rd_request_t *r;
    enum slot slot;
    int err = lock_user_request(request, &r, &slot, "MPI_Cancel");
    if (err)
        return err;
    if (slot == SLOT_ACTIVE) {
        /* Receives not yet matched are cancelled. Sends are not: once a send
         * has started its data may already be matched at the receiver, and
         * MPI allows a cancel to fail (MPI_Test_cancelled then says false). */
        rd_request_t *w = work_of(r);
        if (w->kind == RD_REQ_RECV && !w->done)
            rd_p2p_cancel_recv(w);
        else if (w->kind == RD_REQ_GREQ)
            rd_api_greq_cancel(w);
    }
    rd_api_unlock();
    return MPI_SUCCESS;
}

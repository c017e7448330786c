/*
 * Probes and matched messages: MPI_Probe/Iprobe, MPI_Mprobe/Improbe and
 * the receives of a matched message (MPI_Mrecv/Imrecv). A matched message
 * is a request holding the unexpected message p2p took for it.
 */
#include "api/api.h"

#include <stdlib.h>
#include <string.h>

#include "api/pt2pt.h"
#include "p2p/p2p.h"

/* ---- probes ---- */

static void probe_status(MPI_Status *status, const rd_p2p_status_t *st)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    status->MPI_SOURCE = st->source;
    status->MPI_TAG = st->tag;
    status->count_hi_and_cancelled = 0;
    rd_api_status_set_bytes(status, (MPI_Count)st->bytes);
}

static int check_probe(MPI_Comm comm, int source, int tag, rd_comm_t **c, const char *fn)
{
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, c, fn)) || (err = rd_api_check_source(*c, source, fn)) ||
        (err = rd_api_check_tag(*c, tag, 1, fn)))
        return err;
    return MPI_SUCCESS;
}

/* A probe whose only possible senders include a failed one (rd_p2p_iprobe
 * returned rc; st->source is that job rank). Called with the lock held. */
static int probe_failed(rd_comm_t *c, int source, int rc, const rd_p2p_status_t *st,
                        const char *fn)
{
    int gone = rd_api_peer_rank(c, st->source);
    if (rc != RD_EPEER)
        return rd_api_status_error(c, rc, fn);
    if (source == MPI_ANY_SOURCE)
        return rd_api_error(c, MPI_ERR_OTHER, fn, "rank %d cannot probe MPI_ANY_SOURCE: rank %d "
                            "of the communicator (job rank %d) failed or disconnected", c->rank,
                            gone, st->source);
    return rd_api_error(c, MPI_ERR_OTHER, fn, "rank %d cannot probe rank %d: rank %d (job rank "
                        "%d) failed or disconnected", c->rank, gone, gone, st->source);
}

/* The blocking probes: polls until a message matches (msg NULL: MPI_Probe,
 * which leaves it queued; else MPI_Mprobe, which takes it into *msg), other
 * threads getting the lock between polls. Called with the lock held. */
static int probe_wait(rd_comm_t *c, int source, int tag, rd_p2p_status_t *st, void **msg,
                      const char *fn)
{
    int flag = 0, err = MPI_SUCCESS;
    unsigned idle = 0;
    rd_p2p_wait_begin();
    for (;;) {
        int rc = msg ? rd_p2p_improbe(c, source, tag, &flag, st, msg)
                     : rd_p2p_iprobe(c, source, tag, &flag, st);
        if (rc != RD_OK) {
            err = probe_failed(c, source, rc, st, fn);
            break;
        }
        if (flag)
            break;
        rd_api_unlock();
        rd_p2p_idle(&idle);
        rd_api_lock();
    }
    rd_p2p_wait_end();
    return err;
}

RD_WEAK_ALIAS(MPI_Iprobe)
int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    static const char fn[] = "MPI_Iprobe";
    rd_comm_t *c;
    rd_p2p_status_t st;
    int err = check_probe(comm, source, tag, &c, fn);
    if (err)
        return err;
    if ((err = rd_api_check_out(c, flag, "flag", fn)) ||
        (err = rd_api_check_out(c, status, "status", fn)))
        return err;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        rd_api_proc_null_status(status);
        return MPI_SUCCESS;
    }
    rd_api_lock();
    int rc = rd_p2p_iprobe(c, source, tag, flag, &st);
    if (rc != RD_OK)
        err = probe_failed(c, source, rc, &st, fn);
    rd_api_unlock();
    if (*flag)
        probe_status(status, &st);
    return err;
}

RD_WEAK_ALIAS(MPI_Probe)
int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    static const char fn[] = "MPI_Probe";
    rd_comm_t *c;
    rd_p2p_status_t st;
    int err = check_probe(comm, source, tag, &c, fn);
    if (err || (err = rd_api_check_out(c, status, "status", fn)))
        return err;
    if (source == MPI_PROC_NULL) {
        rd_api_proc_null_status(status);
        return MPI_SUCCESS;
    }
    rd_api_lock();
    err = probe_wait(c, source, tag, &st, NULL, fn);
    rd_api_unlock();
    if (err == MPI_SUCCESS)
        probe_status(status, &st);
    return err;
}

/* A matched message is a request of kind RD_REQ_RECV holding the taken
 * unexpected message in ext until MPI_Mrecv. */
static int make_message(rd_comm_t *c, void *msg, MPI_Message *message, const char *fn)
{
    rd_request_t *m = rd_req_new(RD_REQ_RECV);
    if (!m)
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for a message handle");
    rd_req_hold_comm(m, c);
    m->ext = msg;
    *message = m->handle;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Improbe)
int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
    static const char fn[] = "MPI_Improbe";
    rd_comm_t *c;
    rd_p2p_status_t st;
    void *msg;
    int err = check_probe(comm, source, tag, &c, fn);
    if (err)
        return err;
    if (!flag || !message)
        return rd_api_error(c, MPI_ERR_ARG, fn, "flag or message pointer is NULL");
    if ((err = rd_api_check_out(c, status, "status", fn)))
        return err;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        rd_api_proc_null_status(status);
        return MPI_SUCCESS;
    }
    rd_api_lock();
    int rc = rd_p2p_improbe(c, source, tag, flag, &st, &msg);
    if (rc != RD_OK)
        err = probe_failed(c, source, rc, &st, fn);
    else if (*flag && (err = make_message(c, msg, message, fn)) == MPI_SUCCESS)
        probe_status(status, &st);
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Mprobe)
int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    static const char fn[] = "MPI_Mprobe";
    rd_comm_t *c;
    rd_p2p_status_t st;
    void *msg;
    int err = check_probe(comm, source, tag, &c, fn);
    if (err)
        return err;
    if (!message)
        return rd_api_error(c, MPI_ERR_ARG, fn, "message pointer is NULL");
    if ((err = rd_api_check_out(c, status, "status", fn)))
        return err;
    if (source == MPI_PROC_NULL) {
        *message = MPI_MESSAGE_NO_PROC;
        rd_api_proc_null_status(status);
        return MPI_SUCCESS;
    }
    rd_api_lock();
    if ((err = probe_wait(c, source, tag, &st, &msg, fn)) == MPI_SUCCESS &&
        (err = make_message(c, msg, message, fn)) == MPI_SUCCESS)
        probe_status(status, &st);
    rd_api_unlock();
    return err;
}

/* Turns a message handle into a receive request; *message becomes MPI_MESSAGE_NULL. */
static int start_mrecv(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                       rd_request_t **out, const char *fn)
{
    rd_datatype_t *dt;
    int err;
    RD_API_CHECK_INIT(fn);
    if (!message)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "message pointer is NULL");
    if (*message == MPI_MESSAGE_NO_PROC) {
        *out = rd_api_null_peer_request(RD_REQ_RECV, rd_api.self);
        *message = MPI_MESSAGE_NULL;
        return *out ? MPI_SUCCESS : rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    rd_request_t *m = rd_api_req(*message);
    if (!m || !m->ext)
        return rd_api_error(NULL, MPI_ERR_REQUEST, fn, "invalid message handle 0x%x",
                            (unsigned)*message);
    if ((err = rd_api_check_count(m->comm, count, fn)) ||
        (err = rd_api_check_dt(m->comm, datatype, &dt, fn)) ||
        (err = rd_api_check_buf(m->comm, buf, count, dt, fn)))
        return err;
    void *msg = m->ext;
    m->ext = NULL;
    m->buf = buf;
    m->count = (size_t)count;
    m->dt = dt;
    rd_dt_ref(dt);
    rd_p2p_mrecv(m, msg);
    *message = MPI_MESSAGE_NULL;
    *out = m;
    return MPI_SUCCESS;
}

int rd_api_mrecv(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                 MPI_Status *status, const char *fn)
{
    rd_request_t *r;
    RD_API_CHECK_INIT(fn);
    int err = rd_api_check_out(NULL, status, "status", fn);
    if (err)
        return err;
    rd_api_lock();
    err = start_mrecv(buf, count, datatype, message, &r, fn);
    if (err == MPI_SUCCESS)
        err = rd_api_finish_blocking(r, status, fn);
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Mrecv)
int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Status *status)
{
    return rd_api_mrecv(buf, count, datatype, message, status, "MPI_Mrecv");
}

int rd_api_imrecv(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  MPI_Request *request, const char *fn)
{
    rd_request_t *r;
    int err = rd_api_check_out(NULL, request, "request", fn);
    if (err)
        return err;
    rd_api_lock();
    err = start_mrecv(buf, count, datatype, message, &r, fn);
    if (err == MPI_SUCCESS)
        *request = r->handle;
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Imrecv)
int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Request *request)
{
    return rd_api_imrecv(buf, count, datatype, message, request, "MPI_Imrecv");
}

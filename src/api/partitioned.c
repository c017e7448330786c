/*
 * Partitioned communication (MPI-4.0 chapter 4): MPI_Psend_init,
 * MPI_Precv_init, MPI_Pready(_range, _list) and MPI_Parrived; MPI_Start
 * activates them and the Wait/Test family completes them (partitioned.h).
 *
 * The design is the simplest correct one: the whole buffer travels as one
 * message, sent once every partition is ready (the last MPI_Pready starts
 * it), and a partition has arrived once the whole message has. So the two
 * sides may partition the buffer differently, as the standard allows.
 *
 * Matching: partitioned messages must match neither ordinary receives (not
 * even MPI_ANY_TAG ones) nor each other out of order: the n-th
 * MPI_Psend_init to a rank on a communicator with a tag pairs with the n-th
 * MPI_Precv_init from that rank with that tag, whatever order they are
 * started in. So the messages travel in the communicator's collective
 * context, tagged PART_TAG_BIT | tag << 8 | n mod 256 (the collectives'
 * tags stay below PART_TAG_BIT, the communicator constructors' above it).
 * Known limit: tags that differ by a multiple of 2^21, or the 256th next
 * operation of the same tag, would share message tags if in flight at once.
 *
 * While active, the user's request holds a shell request (inner) that
 * waits and tests look at; the message's own p2p request is watched by a
 * progress hook, which completes the shell with the status the user must
 * see (the user's tag, not the wire tag) when the message is done.
 */
#include "api/partitioned.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "p2p/p2p.h"

#define PART_TAG_BIT 0x20000000
#define PART_SEQ_BITS 8
#define PART_TAG_BITS 21

typedef struct part {
    int recv;                  /* a receive: Pready is not allowed */
    int partitions;
    int wire_tag;
    int nready;                /* send: partitions marked ready since MPI_Start */
    uint8_t ready[];           /* send: per partition */
} part_t;

/* ---- init-order sequence numbers, per (context, peer, tag, direction) ---- */

typedef struct seq {
    struct seq *next;
    uint32_t ctx;
    int peer_world, tag, recv;
    unsigned n;
} seq_t;

static seq_t *seqs;

/* The next sequence number of (c, peer, tag) in one direction; -1 on ENOMEM. */
static int next_seq(rd_comm_t *c, int peer, int tag, int recv)
{
    int w = rd_comm_world(c, peer);
    seq_t *s;
    for (s = seqs; s; s = s->next)
        if (s->ctx == c->ctx && s->peer_world == w && s->tag == tag && s->recv == recv)
            break;
    if (!s) {
        if (!(s = calloc(1, sizeof(*s))))
            return -1;
        *s = (seq_t){ .next = seqs, .ctx = c->ctx, .peer_world = w, .tag = tag, .recv = recv };
        seqs = s;
    }
    return (int)(s->n++ & ((1u << PART_SEQ_BITS) - 1));
}

/* ---- messages in flight, watched by the progress hook ---- */

typedef struct flight {
    struct flight *next;
    rd_request_t *shell;       /* what the user's waits see */
    rd_request_t *msg;         /* the p2p operation */
    int user_tag;
} flight_t;

static flight_t *flights;
static int hook_id = -1;

/* Completes the shells of finished messages; the status shows the user's tag. */
static int watch(void)
{
    int n = 0;
    for (flight_t **pf = &flights; *pf;) {
        flight_t *f = *pf;
        if (f->msg->done <= 0) {
            pf = &f->next;
            continue;
        }
        rd_request_t *s = f->shell, *m = f->msg;
        s->st_source = m->st_source;
        s->st_tag = f->user_tag;
        s->st_bytes = m->st_bytes;
        s->peer_world = m->peer_world;
        int err = m->error;
        rd_req_free(m);
        *pf = f->next;
        free(f);
        rd_req_complete(s, err);
        n++;
    }
    if (!flights)
        rd_progress_hook_deactivate(hook_id);
    return n;
}

/* Starts p2p operation m for shell s and watches it; an internal status. */
static int fly(rd_request_t *s, rd_request_t *m, int user_tag)
{
    if (hook_id < 0 && (hook_id = rd_progress_hook_register(watch)) < 0) {
        int rc = hook_id;
        hook_id = -1;
        return rc;
    }
    flight_t *f = malloc(sizeof(*f));
    if (!f)
        return RD_ENOMEM;
    *f = (flight_t){ .next = flights, .shell = s, .msg = m, .user_tag = user_tag };
    flights = f;
    rd_progress_hook_activate(hook_id);
    return RD_OK;
}

/* ---- the requests ---- */

int rd_api_part_is(const rd_request_t *p)
{
    return (p->kind == RD_REQ_PERSIST_SEND || p->kind == RD_REQ_PERSIST_RECV) && p->ext;
}

static part_t *part_of(const rd_request_t *p)
{
    return p->ext;
}

/* Starts the message of p (every partition ready, or a receive). */
static int launch(rd_request_t *p, const char *fn)
{
    part_t *pt = part_of(p);
    rd_request_t *m = rd_req_new(pt->recv ? RD_REQ_RECV : RD_REQ_SEND);
    if (!m)
        return rd_api_error(p->comm, MPI_ERR_NO_MEM, fn, "out of memory for a request");
    int rc = rd_p2p_start(m, p->buf, p->count, p->dt, p->comm, p->peer, pt->wire_tag,
                          RD_MODE_STANDARD, 1);
    if (rc == RD_OK)
        rc = fly(p->inner, m, p->tag);
    if (rc != RD_OK) {
        rd_req_free(m);
        return rd_api_error(p->comm, rd_api_class_of(rc), fn,
                            "rank %d cannot start a partitioned %s rank %d: %s", p->comm->rank,
                            pt->recv ? "receive from" : "send to", p->peer, rd_status_str(rc));
    }
    return MPI_SUCCESS;
}

int rd_api_part_start(rd_request_t *p, const char *fn)
{
    part_t *pt = part_of(p);
    rd_request_t *s = rd_req_new(RD_REQ_SEND);
    if (!s)
        return rd_api_error(p->comm, MPI_ERR_NO_MEM, fn, "out of memory for a request");
    s->comm = p->comm;
    s->peer = p->peer;
    s->tag = p->tag;
    p->inner = s;
    p->done = 0;
    if (!pt->recv) {
        pt->nready = 0;
        memset(pt->ready, 0, (size_t)pt->partitions);
    }
    if (p->peer == MPI_PROC_NULL) {
        s->st_source = MPI_PROC_NULL;
        s->st_tag = MPI_ANY_TAG;
        s->done = 1;
        return MPI_SUCCESS;
    }
    return pt->recv ? launch(p, fn) : MPI_SUCCESS;
}

/* Psend_init and Precv_init. */
static int part_init(int recv, void *buf, int partitions, MPI_Count count,
                     MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request, const char *fn)
{
    rd_comm_t *c;
    rd_datatype_t *dt;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)) || (err = rd_api_check_dt(c, datatype, &dt, fn)))
        return err;
    if (partitions < 1)
        return rd_api_error(c, MPI_ERR_ARG, fn, "partitions %d: there must be at least one",
                            partitions);
    if (count < 0)
        return rd_api_error(c, MPI_ERR_COUNT, fn, "negative count %lld", (long long)count);
    if (count > 0 && (MPI_Count)partitions > (MPI_Count)(SIZE_MAX / 2) / count)
        return rd_api_error(c, MPI_ERR_COUNT, fn, "%d partitions of %lld elements are too many",
                            partitions, (long long)count);
    if (!buf && count > 0 && dt->size > 0)
        return rd_api_error(c, MPI_ERR_BUFFER, fn, "buffer is NULL");
    if (recv && peer == MPI_ANY_SOURCE)
        return rd_api_error(c, MPI_ERR_RANK, fn,
                            "MPI_ANY_SOURCE: a partitioned receive names its source");
    if (recv && tag == MPI_ANY_TAG)
        return rd_api_error(c, MPI_ERR_TAG, fn, "MPI_ANY_TAG: a partitioned receive names its tag");
    if ((err = rd_api_check_dest(c, peer, fn)) || (err = rd_api_check_tag(c, tag, 0, fn)))
        return err;
    if (c->rgroup)
        return rd_api_error(c, MPI_ERR_COMM, fn,
                            "rdmpi does not support partitioned communication on an "
                            "intercommunicator");
    if (info != MPI_INFO_NULL && !rd_handle_get(RD_OBJ_INFO, info))
        return rd_api_error(c, MPI_ERR_INFO, fn, "invalid info handle 0x%x", (unsigned)info);
    if ((err = rd_api_check_out(c, request, "request", fn)))
        return err;
    rd_api_lock();
    rd_request_t *r = rd_req_new(recv ? RD_REQ_PERSIST_RECV : RD_REQ_PERSIST_SEND);
    part_t *pt = calloc(1, sizeof(*pt) + (recv ? 0 : (size_t)partitions));
    int seq = peer == MPI_PROC_NULL ? 0 : next_seq(c, peer, tag, recv);
    if (!r || !pt || seq < 0) {
        if (r)
            rd_req_free(r);
        free(pt);
        rd_api_unlock();
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory for a partitioned request");
    }
    pt->recv = recv;
    pt->partitions = partitions;
    pt->wire_tag = PART_TAG_BIT | (tag & ((1 << PART_TAG_BITS) - 1)) << PART_SEQ_BITS | seq;
    rd_p2p_prepare(r, buf, (size_t)partitions * (size_t)count, dt, c, peer, tag,
                   RD_MODE_STANDARD);
    rd_req_hold_comm(r, c);
    r->ext = pt;
    r->tmp = pt;               /* freed with the request */
    r->done = 1;               /* inactive: waits return at once */
    *request = r->handle;
    rd_api_unlock();
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Psend_init)
int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                    int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return part_init(0, (void *)buf, partitions, count, datatype, dest, tag, comm, info,
                     request, "MPI_Psend_init");
}

RD_WEAK_ALIAS(MPI_Precv_init)
int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                    int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return part_init(1, buf, partitions, count, datatype, source, tag, comm, info, request,
                     "MPI_Precv_init");
}

/* The active partitioned request behind h, of the kind wanted (lock held);
 * NULL after reporting the error in *err. */
static rd_request_t *active_part(MPI_Request h, int recv, int *err, const char *fn)
{
    rd_request_t *p = rd_api_req(h);
    if (!p || !rd_api_part_is(p) || part_of(p)->recv != recv) {
        *err = rd_api_error(NULL, MPI_ERR_REQUEST, fn, "request 0x%x is not a partitioned %s",
                            (unsigned)h, recv ? "receive" : "send");
        return NULL;
    }
    if (!p->inner) {
        *err = rd_api_error(p->comm, MPI_ERR_REQUEST, fn,
                            "request 0x%x is not active (call MPI_Start first)", (unsigned)h);
        return NULL;
    }
    return p;
}

/* Marks partitions[0..n) (or low..high when partitions is NULL) ready. */
static int pready(MPI_Request h, int n, const int *partitions, int low, int high,
                  const char *fn)
{
    int err = MPI_SUCCESS;
    RD_API_CHECK_INIT(fn);
    rd_api_lock();
    rd_request_t *p = active_part(h, 0, &err, fn);
    if (!p)
        goto out;
    part_t *pt = part_of(p);
    if (!partitions)
        n = high - low + 1;
    for (int i = 0; i < n; i++) {
        int k = partitions ? partitions[i] : low + i;
        if (k < 0 || k >= pt->partitions) {
            err = rd_api_error(p->comm, MPI_ERR_ARG, fn, "partition %d is outside 0..%d", k,
                               pt->partitions - 1);
            goto out;
        }
        if (pt->ready[k]) {
            err = rd_api_error(p->comm, MPI_ERR_ARG, fn,
                               "partition %d is already ready since MPI_Start", k);
            goto out;
        }
    }
    for (int i = 0; i < n; i++) {
        pt->ready[partitions ? partitions[i] : low + i] = 1;
        pt->nready++;
    }
    if (n > 0 && pt->nready == pt->partitions && p->peer != MPI_PROC_NULL)
        err = launch(p, fn);
out:
    rd_api_unlock();
    return err;
}

RD_WEAK_ALIAS(MPI_Pready)
int PMPI_Pready(int partition, MPI_Request request)
{
    return pready(request, 1, NULL, partition, partition, "MPI_Pready");
}

RD_WEAK_ALIAS(MPI_Pready_range)
int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    static const char fn[] = "MPI_Pready_range";
    if (partition_low > partition_high)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "partition_low %d is above partition_high %d",
                            partition_low, partition_high);
    return pready(request, 0, NULL, partition_low, partition_high, fn);
}

RD_WEAK_ALIAS(MPI_Pready_list)
int PMPI_Pready_list(int length, int array_of_partitions[], MPI_Request request)
{
    static const char fn[] = "MPI_Pready_list";
    if (length < 0)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "negative length %d", length);
    if (length > 0 && !array_of_partitions)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "array_of_partitions is NULL");
    static const int none[1];
    return pready(request, length, length ? array_of_partitions : none, 0, 0, fn);
}

/* A partition has arrived once the whole message has. */
RD_WEAK_ALIAS(MPI_Parrived)
int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    static const char fn[] = "MPI_Parrived";
    int err = MPI_SUCCESS;
    RD_API_CHECK_INIT(fn);
    if (!flag)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "flag pointer is NULL");
    rd_api_lock();
    rd_request_t *p = rd_api_req(request);
    if (p && rd_api_part_is(p) && part_of(p)->recv && !p->inner) {
        *flag = 1; /* inactive: nothing is pending */
        rd_api_unlock();
        return MPI_SUCCESS;
    }
    p = active_part(request, 1, &err, fn);
    if (p && (partition < 0 || partition >= part_of(p)->partitions))
        err = rd_api_error(p->comm, MPI_ERR_ARG, fn, "partition %d is outside 0..%d", partition,
                           part_of(p)->partitions - 1);
    else if (p) {
        if (p->inner->done <= 0)
            rd_progress();
        *flag = p->inner->done > 0;
    }
    rd_api_unlock();
    return err;
}

/*
 * Shared machinery of the API layer: global state, error reporting through
 * error handlers, argument checks, statuses and the blocking wait loop.
 */
#include "api/api.h"
#include "api/api_tunables.h"
#include "api/errclass_user.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "p2p/p2p.h"
#include "util/env.h"
#include "util/errdetail.h"

rd_api_state_t rd_api = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* ---- error codes ----
 * An error code is its class in the low 8 bits plus, above them, the slot of
 * a saved message naming the function and the reason, so that
 * MPI_Error_string can say more than the class. MPI_Error_class strips the
 * slot. Slots are reused round-robin. */

#define MSG_SLOTS 256
static char msg_slot[MSG_SLOTS][MPI_MAX_ERROR_STRING];
static unsigned msg_next;

int rd_api_class_of(int status)
{
    switch (status) {
    case RD_OK: return MPI_SUCCESS;
    case RD_ENOMEM: return MPI_ERR_NO_MEM;
    case RD_EINVAL: return MPI_ERR_ARG;
    case RD_ETRUNC: return MPI_ERR_TRUNCATE;
    case RD_ENOTSUP: return MPI_ERR_UNSUPPORTED_OPERATION;
    case RD_EPEER: return MPI_ERR_OTHER;
    case RD_EUNREACH: return MPI_ERR_OTHER;
    case RD_ESYNC: return MPI_ERR_RMA_SYNC;
    case RD_ERANGE: return MPI_ERR_RMA_RANGE;
    case RD_ECONFLICT: return MPI_ERR_RMA_CONFLICT;
    case RD_EATTACH: return MPI_ERR_RMA_ATTACH;
    case RD_EFLAVOR: return MPI_ERR_RMA_FLAVOR;
    case RD_ESHARED: return MPI_ERR_RMA_SHARED;
    case RD_ESIZE: return MPI_ERR_OTHER;
    default: return MPI_ERR_INTERN;
    }
}

const char *rd_api_code_message(int code)
{
    unsigned slot = ((unsigned)code >> 8);
    if (slot == 0 || slot > MSG_SLOTS)
        return NULL;
    return msg_slot[slot - 1];
}

static int comm_handle_of(rd_comm_t *c)
{
    return c ? c->handle : MPI_COMM_WORLD;
}

int rd_api_errh_apply(rd_errhandler_t *e, int handle, int code, const char *text)
{
    int kind = e ? e->kind : RD_ERRH_FATAL;
    if (kind == RD_ERRH_RETURN)
        return code;
    if (kind == RD_ERRH_USER) {
        /* Communicator and window handlers have the same shape: handles are ints. */
        int h = handle;
        int ccode = code;
        ((MPI_Comm_errhandler_function *)(void (*)(void))e->fn)(&h, &ccode);
        return code;
    }
    /* MPI_ERRORS_ARE_FATAL / MPI_ERRORS_ABORT: say who, where and why, then end the job. */
    char line[MPI_MAX_ERROR_STRING + 128];
    snprintf(line, sizeof(line), "rdmpi: rank %d: %s\n", rd_api.boot.rank, text);
    ssize_t w = write(STDERR_FILENO, line, strlen(line));
    (void)w;
    /* The launcher repeats the reason, so the job's one closing line says it. */
    char why[MPI_MAX_ERROR_STRING + 32];
    snprintf(why, sizeof(why), "MPI_ERRORS_ARE_FATAL: %s", text);
    if (rd_api.initialized && !rd_api.finalized)
        rd_boot_abort(1, why);
    _exit(1);
}

static int apply_handler(rd_comm_t *c, int code, const char *text)
{
    rd_comm_t *target = c ? c : rd_api.world;
    return rd_api_errh_apply(target ? target->errh : NULL, comm_handle_of(target), code, text);
}

int rd_api_verror_code(int cls, const char *fn, const char *fmt, va_list ap, const char **text)
{
    unsigned slot = msg_next++ % MSG_SLOTS;
    char *m = msg_slot[slot];
    int n = snprintf(m, MPI_MAX_ERROR_STRING, "%s: ", fn);
    if (n > 0 && n < MPI_MAX_ERROR_STRING)
        n += vsnprintf(m + n, MPI_MAX_ERROR_STRING - n, fmt, ap);
    /* What the layer below recorded where it failed (util/errdetail.h). */
    char detail[RD_ERR_DETAIL_MAX];
    if (rd_err_detail_take(detail, sizeof(detail)) > 0 && n > 0 && n < MPI_MAX_ERROR_STRING)
        n += snprintf(m + n, MPI_MAX_ERROR_STRING - n, ": %s", detail);
    if (n > 0 && n < MPI_MAX_ERROR_STRING)
        snprintf(m + n, MPI_MAX_ERROR_STRING - n, " (%s)", rd_api_class_name(cls));
    *text = m;
    return cls | (int)((slot + 1) << 8);
}

int rd_api_error(rd_comm_t *c, int cls, const char *fn, const char *fmt, ...)
{
    const char *m;
    va_list ap;
    va_start(ap, fmt);
    int code = rd_api_verror_code(cls, fn, fmt, ap, &m);
    va_end(ap);
    return apply_handler(c, code, m);
}

int rd_api_raise(rd_comm_t *c, int code, const char *fn)
{
    if (code == MPI_SUCCESS)
        return code;
    const char *saved = rd_api_code_message(code);
    char text[MPI_MAX_ERROR_STRING + 64], added[MPI_MAX_ERROR_STRING];
    if (rd_api_user_error_string(code, added, sizeof(added)))
        snprintf(text, sizeof(text), "%s: error code %d: %s", fn, code,
                 *added ? added : "(added by the program, no string set)");
    else if (saved)
        snprintf(text, sizeof(text), "%s: %s", fn, saved);
    else
        snprintf(text, sizeof(text), "%s: %s", fn, rd_api_class_name(code & 0xff));
    return apply_handler(c, code, text);
}

int rd_api_status_error(rd_comm_t *c, int status, const char *fn)
{
    return rd_api_error(c, rd_api_class_of(status), fn, "%s", rd_status_str(status));
}

int rd_api_peer_rank(const rd_comm_t *c, int world)
{
    for (int i = 0, n = rd_comm_remote_size(c); i < n; i++)
        if (rd_comm_world(c, i) == world)
            return i;
    return -1;
}

int rd_api_request_error(rd_request_t *w, const char *fn)
{
    rd_comm_t *c = w->comm;
    /* A collective's request has no message of its own: the layer below
     * recorded what was truncated. */
    if (w->error == RD_ETRUNC && w->kind == RD_REQ_RECV)
        return rd_api_error(c, MPI_ERR_TRUNCATE, fn,
                            "message from rank %d is longer than the receive buffer (%zu bytes)",
                            w->st_source, w->dt ? w->count * w->dt->size : 0);
    if (w->error == RD_EPEER && c) {
        int gone = rd_api_peer_rank(c, w->peer_world);
        if (w->kind == RD_REQ_RECV && w->peer == RD_ANY_SOURCE)
            return rd_api_error(c, MPI_ERR_OTHER, fn,
                                "rank %d cannot receive from MPI_ANY_SOURCE: rank %d of the "
                                "communicator (job rank %d) failed or disconnected",
                                c->rank, gone, w->peer_world);
        return rd_api_error(c, MPI_ERR_OTHER, fn, "rank %d cannot %s rank %d: rank %d (job rank "
                            "%d) failed or disconnected", c->rank,
                            w->kind == RD_REQ_RECV ? "receive from" : "send to", gone, gone,
                            w->peer_world);
    }
    return rd_api_status_error(c, w->error, fn);
}

void rd_api_note_unsupported(const char *fn)
{
    /* The names already reported; the functions a program lacks are few. */
    static const char *said[64];
    static unsigned nsaid;
    static pthread_mutex_t said_lock = PTHREAD_MUTEX_INITIALIZER;
    long long on = 1;
    if (rd_tunable_int(&rd_api_tunables[RD_API_T_WARN_UNSUPPORTED], &on) != RD_OK || !on)
        return;
    pthread_mutex_lock(&said_lock);
    int first = 1;
    for (unsigned i = 0; i < nsaid && first; i++)
        first = strcmp(said[i], fn) != 0;
    if (first && nsaid < sizeof(said) / sizeof(said[0]))
        said[nsaid++] = fn;
    pthread_mutex_unlock(&said_lock);
    if (!first)
        return;
    char line[256];
    int n = snprintf(line, sizeof(line),
                     "rdmpi: rank %d: %s is not implemented by rdmpi %s: it returns "
                     "MPI_ERR_UNSUPPORTED_OPERATION (RDMPI_WARN_UNSUPPORTED=0 silences this)\n",
                     rd_api.boot.rank, fn, RDMPI_VERSION);
    ssize_t w = write(STDERR_FILENO, line, n < (int)sizeof(line) ? (size_t)n : sizeof(line) - 1);
    (void)w;
}

int rd_api_unsupported(const char *fn)
{
    /* The fatal handlers print the failure themselves. */
    rd_comm_t *w = rd_api.world;
    if (w && w->errh && (w->errh->kind == RD_ERRH_RETURN || w->errh->kind == RD_ERRH_USER))
        rd_api_note_unsupported(fn);
    return rd_api_error(NULL, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                        "not supported by rdmpi %s", RDMPI_VERSION);
}


/* ---- argument checks ---- */

int rd_api_check_comm(MPI_Comm h, rd_comm_t **c, const char *fn)
{
    *c = rd_api_comm(h);
    if (__builtin_expect(*c != NULL, 1))
        return MPI_SUCCESS;
    return rd_api_error(NULL, MPI_ERR_COMM, fn,
                        h == MPI_COMM_NULL ? "communicator is MPI_COMM_NULL"
                                           : "invalid communicator handle 0x%x", (unsigned)h);
}

int rd_api_check_dt(rd_comm_t *c, MPI_Datatype h, rd_datatype_t **dt, const char *fn)
{
    *dt = rd_api_dt(h);
    if (__builtin_expect(*dt != NULL && (*dt)->committed, 1))
        return MPI_SUCCESS;
    if (*dt)
        return rd_api_error(c, MPI_ERR_TYPE, fn, "datatype is not committed (call MPI_Type_commit)");
    return rd_api_error(c, MPI_ERR_TYPE, fn,
                        h == MPI_DATATYPE_NULL ? "datatype is MPI_DATATYPE_NULL"
                                               : "invalid datatype handle 0x%x", (unsigned)h);
}

int rd_api_check_count(rd_comm_t *c, MPI_Count count, const char *fn)
{
    if (__builtin_expect(count >= 0, 1))
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_COUNT, fn, "negative count %lld", (long long)count);
}

/* count elements of dt span count * max(size, |extent|) bytes. */
static int check_span(rd_comm_t *c, MPI_Count count, const rd_datatype_t *dt, const char *fn)
{
    ptrdiff_t ext = rd_dt_extent(dt);
    size_t unit = (size_t)(ext < 0 ? -ext : ext);
    if (dt->size > unit)
        unit = dt->size;
    size_t span;
    if (!__builtin_mul_overflow((size_t)count, unit, &span) && span <= PTRDIFF_MAX)
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_COUNT, fn,
                        "count %lld of a datatype of %zu bytes spans more than the %td bytes "
                        "a buffer can address", (long long)count, unit, (ptrdiff_t)PTRDIFF_MAX);
}

int rd_api_check_buf(rd_comm_t *c, const void *buf, MPI_Count count, rd_datatype_t *dt,
                     const char *fn)
{
    /* NULL is MPI_BOTTOM, legal with absolute-address derived types. */
    if (__builtin_expect((buf != NULL || count == 0 || dt->size == 0 || !dt->builtin) &&
                             rd_api_span_small(count, dt), 1))
        return MPI_SUCCESS;
    if (buf == NULL && count != 0 && dt->size != 0 && dt->builtin)
        return rd_api_error(c, MPI_ERR_BUFFER, fn, "buffer is NULL but count is %lld",
                            (long long)count);
    return check_span(c, count, dt, fn);
}

int rd_api_check_data(rd_comm_t *c, const void *buf, MPI_Count count, MPI_Datatype type,
                      rd_datatype_t **dt, const char *fn)
{
    int err;
    if ((err = rd_api_check_count(c, count, fn)) || (err = rd_api_check_dt(c, type, dt, fn)))
        return err;
    if (buf == MPI_IN_PLACE)
        return rd_api_span_small(count, *dt) ? MPI_SUCCESS : check_span(c, count, *dt, fn);
    return rd_api_check_buf(c, buf, count, *dt, fn);
}

/* The block of count elements of dt at byte offset off (ovf: computing off
 * overflowed) lies within what a buffer can address: its span is
 * MPI_ERR_COUNT, its end MPI_ERR_ARG (a displacement beyond int is too, in
 * rd_api_vcounts). */
static int check_block_span(rd_comm_t *c, int i, MPI_Count count, const rd_datatype_t *dt,
                            int ovf, ptrdiff_t off, const char *what, const char *fn)
{
    ptrdiff_t ext = rd_dt_extent(dt), end;
    size_t unit = (size_t)(ext < 0 ? -ext : ext), span;
    if (dt->size > unit)
        unit = dt->size;
    if (count == 0)
        return MPI_SUCCESS;
    if (__builtin_mul_overflow((size_t)count, unit, &span) || span > PTRDIFF_MAX)
        return rd_api_error(c, MPI_ERR_COUNT, fn,
                            "%s count %lld for rank %d, of a datatype of %zu bytes, spans more "
                            "than the %td bytes a buffer can address", what, (long long)count,
                            i, unit, (ptrdiff_t)PTRDIFF_MAX);
    if (ovf || __builtin_add_overflow(off, (ptrdiff_t)span, &end))
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            "%s displacement for rank %d puts its block of %zu bytes beyond "
                            "the %td bytes a buffer can address", what, i, span,
                            (ptrdiff_t)PTRDIFF_MAX);
    return MPI_SUCCESS;
}

int rd_api_check_counts(rd_comm_t *c, const int *counts, const int *displs,
                        const rd_datatype_t *dt, const char *what, const char *fn)
{
    if (!counts || !displs)
        return rd_api_error(c, MPI_ERR_ARG, fn, "%s counts or displacements array is NULL", what);
    /* Below 2^31 bytes a unit, an int count or displacement times it stays
     * below 2^62, and their sum below PTRDIFF_MAX: no span to check. */
    ptrdiff_t ext = dt ? rd_dt_extent(dt) : 0;
    int spans = dt && (dt->size > INT32_MAX || ext > INT32_MAX || ext < -INT32_MAX);
    for (int i = 0; i < rd_comm_remote_size(c); i++) {
        if (counts[i] < 0)
            return rd_api_error(c, MPI_ERR_COUNT, fn, "negative %s count %d for rank %d", what,
                                counts[i], i);
        ptrdiff_t off = 0;
        int err, ovf = spans && __builtin_mul_overflow((ptrdiff_t)displs[i], ext, &off);
        if (spans && (err = check_block_span(c, i, counts[i], dt, ovf, off, what, fn)))
            return err;
    }
    return MPI_SUCCESS;
}

int rd_api_check_nblocks_span(rd_comm_t *c, MPI_Count count, int nblocks,
                              const rd_datatype_t *dt, const char *fn)
{
    MPI_Count all;
    if (!__builtin_mul_overflow(count, (MPI_Count)nblocks, &all))
        return rd_api_span_small(all, dt) ? MPI_SUCCESS : check_span(c, all, dt, fn);
    return rd_api_error(c, MPI_ERR_COUNT, fn, "count %lld for each of %d ranks spans more than "
                        "a buffer can address", (long long)count, nblocks);
}

int rd_api_check_wblock_span(rd_comm_t *c, int i, MPI_Count count, const rd_datatype_t *dt,
                             MPI_Aint disp, const char *what, const char *fn)
{
    return check_block_span(c, i, count, dt, 0, (ptrdiff_t)disp, what, fn);
}

/* Copies n values of a (MPI_Count or MPI_Aint) array into out; 0 or the rank
 * whose value does not fit an int, plus one. */
static int narrow(const int64_t *in, int n, int *out)
{
    for (int i = 0; i < n; i++) {
        if (in[i] < INT32_MIN || in[i] > INT32_MAX)
            return i + 1;
        out[i] = (int)in[i];
    }
    return 0;
}

int rd_api_vcounts(MPI_Comm comm, int root, rd_api_vcounts_t *v, const MPI_Count *sc,
                   const MPI_Aint *sd, const MPI_Count *rc, const MPI_Aint *rd, const char *fn)
{
    _Static_assert(sizeof(MPI_Count) == 8 && sizeof(MPI_Aint) == 8, "64-bit counts");
    const int64_t *in[4] = { (const int64_t *)sc, (const int64_t *)sd, (const int64_t *)rc,
                             (const int64_t *)rd };
    const int **out[4] = { &v->sc, &v->sd, &v->rc, &v->rd };
    static const char *const what[4] = { "send count", "send displacement", "receive count",
                                         "receive displacement" };
    *v = (rd_api_vcounts_t){ 0 };
    RD_API_CHECK_INIT(fn);
    rd_comm_t *c = rd_api_comm(comm);
    int rooted = root != RD_API_NO_ROOT && root != RD_API_LOCAL_COUNTS;
    if (!c || (rooted && root != MPI_ROOT && (c->rgroup || c->rank != root)) ||
        (!sc && !sd && !rc && !rd))
        return MPI_SUCCESS;
    int n = root == RD_API_LOCAL_COUNTS ? c->size : rd_comm_remote_size(c);
    if (!(v->mem = malloc(4 * (size_t)(n ? n : 1) * sizeof(int))))
        return rd_api_error(c, MPI_ERR_NO_MEM, fn, "out of memory");
    for (int k = 0; k < 4; k++) {
        if (!in[k])
            continue;
        int *to = v->mem + (size_t)k * n;
        int bad = narrow(in[k], n, to);
        if (bad) {
            long long val = (long long)in[k][bad - 1];
            rd_api_vcounts_free(v);
            return rd_api_error(c, k % 2 ? MPI_ERR_ARG : MPI_ERR_COUNT, fn,
                                "%s %lld for rank %d is beyond %d, the most a v-collective "
                                "takes", what[k], val, bad - 1, INT32_MAX);
        }
        *out[k] = to;
    }
    return MPI_SUCCESS;
}

void rd_api_vcounts_free(rd_api_vcounts_t *v)
{
    free(v->mem);
    v->mem = NULL;
}

int rd_api_check_coll_comm(MPI_Comm h, rd_comm_t **c, const char *fn)
{
    return rd_api_check_comm(h, c, fn);
}

int rd_api_check_coll_comm_intra(MPI_Comm h, rd_comm_t **c, const char *fn)
{
    int err = rd_api_check_comm(h, c, fn);
    if (err)
        return err;
    if ((*c)->rgroup)
        return rd_api_error(*c, MPI_ERR_COMM, fn,
                            "this collective is not defined on an intercommunicator");
    return MPI_SUCCESS;
}

int rd_api_check_root(rd_comm_t *c, int root, const char *fn)
{
    if (c->rgroup) {
        if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < c->rgroup->size))
            return MPI_SUCCESS;
        return rd_api_error(c, MPI_ERR_ROOT, fn,
                            "invalid root %d on an intercommunicator: MPI_ROOT at the root, "
                            "MPI_PROC_NULL in the rest of its group, the root's rank (0..%d) "
                            "in the other group", root, c->rgroup->size - 1);
    }
    if (root >= 0 && root < c->size)
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_ROOT, fn,
                        "invalid root %d: the communicator has %d ranks (0..%d)", root, c->size,
                        c->size - 1);
}

int rd_api_check_dest(rd_comm_t *c, int rank, const char *fn)
{
    if (__builtin_expect((rank >= 0 && rank < rd_comm_remote_size(c)) || rank == MPI_PROC_NULL, 1))
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_RANK, fn,
                        "invalid rank %d: the communicator has %d ranks (0..%d) or use MPI_PROC_NULL",
                        rank, rd_comm_remote_size(c), rd_comm_remote_size(c) - 1);
}

int rd_api_check_source(rd_comm_t *c, int rank, const char *fn)
{
    if (__builtin_expect((rank >= 0 && rank < rd_comm_remote_size(c)) || rank == MPI_PROC_NULL ||
                             rank == MPI_ANY_SOURCE, 1))
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_RANK, fn,
                        "invalid source rank %d: the communicator has %d ranks (0..%d), "
                        "or use MPI_ANY_SOURCE / MPI_PROC_NULL",
                        rank, rd_comm_remote_size(c), rd_comm_remote_size(c) - 1);
}

int rd_api_check_tag(rd_comm_t *c, int tag, int any_ok, const char *fn)
{
    if (__builtin_expect((tag >= 0 && tag <= RD_TAG_UB) || (any_ok && tag == MPI_ANY_TAG), 1))
        return MPI_SUCCESS;
    return rd_api_error(c, MPI_ERR_TAG, fn, "invalid tag %d: tags are 0..%d%s", tag, RD_TAG_UB,
                        any_ok ? " or MPI_ANY_TAG" : "");
}

int rd_api_null_arg(rd_comm_t *c, const char *what, const char *fn)
{
    return rd_api_error(c, MPI_ERR_ARG, fn, "%s pointer is NULL", what);
}

/* ---- statuses ---- */

void rd_api_status_set_bytes(MPI_Status *st, MPI_Count bytes)
{
    st->count_lo = (int)(bytes & 0xffffffff);
    st->count_hi_and_cancelled = (st->count_hi_and_cancelled & 1) | (int)((bytes >> 32) << 1);
}

MPI_Count rd_api_status_bytes(const MPI_Status *st)
{
    return (MPI_Count)(unsigned)st->count_lo |
           ((MPI_Count)((unsigned)st->count_hi_and_cancelled >> 1) << 32);
}

void rd_api_proc_null_status(MPI_Status *st)
{
    rd_api_empty_status(st);
    if (st != MPI_STATUS_IGNORE)
        st->MPI_SOURCE = MPI_PROC_NULL;
}

void rd_api_set_status(MPI_Status *st, const rd_request_t *r)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    st->MPI_SOURCE = r->st_source;
    st->MPI_TAG = r->st_tag;
    st->count_hi_and_cancelled = r->cancelled ? 1 : 0;
    rd_api_status_set_bytes(st, (MPI_Count)r->st_bytes);
}

void rd_api_empty_status(MPI_Status *st)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    st->count_lo = 0;
    st->count_hi_and_cancelled = 0;
}

/* ---- waiting ---- */

void rd_api_wait(rd_request_t *r)
{
    rd_p2p_wait(r);
}

static void yield_unlock(void)
{
    rd_api_unlock();
}

static void yield_lock(void)
{
    rd_api_lock();
}

void rd_api_set_multiple(void)
{
    rd_api.multiple = 1;
    rd_p2p_set_yield(yield_unlock, yield_lock);
}

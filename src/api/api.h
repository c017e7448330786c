/*
 * The API layer: every MPI_* entry point checks its arguments, decodes
 * handles, calls the layers below, and turns failures into MPI error codes
 * through the communicator's error handler. Nothing below src/api knows an
 * MPI name.
 *
 * Each function is defined once as PMPI_Name; MPI_Name is a weak alias so
 * that profiling tools can interpose (RD_WEAK_ALIAS). Functions declared in
 * mpi.h but not implemented are generated into unsupported.c and fail loudly
 * with MPI_ERR_UNSUPPORTED_OPERATION.
 */
#ifndef RD_API_API_H
#define RD_API_API_H

#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "boot/boot.h"
#include "core/comm.h"
#include "core/datatype.h"
#include "core/errhandler.h"
#include "core/group.h"
#include "core/handle.h"
#include "core/request.h"
#include "util/status.h"

#define RD_WEAK_ALIAS(name) \
    extern __typeof__(P##name) name __attribute__((weak, alias("P" #name)));

/* Process-wide state of the MPI library. */
typedef struct rd_api_state {
    int initialized, finalized;
    int thread_level;          /* provided level */
    int multiple;              /* thread_level == MPI_THREAD_MULTIPLE: take the lock */
    pthread_mutex_t lock;
    pthread_t main_thread;
    rd_boot_info_t boot;
    rd_comm_t *world, *self;
    double wtime0;
} rd_api_state_t;

extern rd_api_state_t rd_api;

/* The library lock, taken by entry points that touch shared state when the
 * application asked for MPI_THREAD_MULTIPLE. */
static inline void rd_api_lock(void)
{
    if (rd_api.multiple)
        pthread_mutex_lock(&rd_api.lock);
}
static inline void rd_api_unlock(void)
{
    if (rd_api.multiple)
        pthread_mutex_unlock(&rd_api.lock);
}

/* Waits for r with the lock held on entry and exit; other threads get the
 * lock between polls. */
void rd_api_wait(rd_request_t *r);
/* Switches the lock on (MPI_THREAD_MULTIPLE, or a progress thread) and has
 * the waits below the API layer release it between progress passes
 * (rd_p2p_set_yield), as rd_api_wait does. Which collectives may run is
 * decided for the whole job at the start (init.c, agree_threads). */
void rd_api_set_multiple(void);

/* Reports an error of class cls in function fn on communicator c (NULL: the
 * error is not tied to one; MPI_COMM_WORLD's handler applies). Formats the
 * reason, applies the error handler (aborting the job for
 * MPI_ERRORS_ARE_FATAL) and returns the error code to return to the user. */
int rd_api_error(rd_comm_t *c, int cls, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The error code of class cls in function fn with its message (the reason
 * formatted from fmt, then the detail the layer below recorded) saved in a
 * slot; *text points at the message. For errors raised on objects other
 * than communicators (windows). */
int rd_api_verror_code(int cls, const char *fn, const char *fmt, va_list ap, const char **text);
/* Applies error handler e (NULL: MPI_ERRORS_ARE_FATAL) of the object with
 * handle h to code: a user function gets &h and &code; the fatal handlers
 * print text and end the job. Returns code. No lock held: a user function
 * may call MPI. */
int rd_api_errh_apply(rd_errhandler_t *e, int h, int code, const char *text);
/* The bodies of MPI_{Comm,Win}_get/set_errhandler, lock held: the handle
 * of an object's handler cur (NULL: MPI_ERRORS_ARE_FATAL) as a new
 * reference for the caller to free; and making *slot hold e (referenced),
 * the old handler released. */
MPI_Errhandler rd_api_errh_get(rd_errhandler_t *cur);
void rd_api_errh_set(rd_errhandler_t **slot, rd_errhandler_t *e);
/* The body of MPI_{Comm,Win,File,Session}_create_errhandler: a new user
 * handler calling f for objects of kind obj (RD_OBJ_*), its handle in
 * *errhandler; argument errors and ENOMEM reported under fn. */
int rd_api_errh_create(int obj, void (*f)(void), MPI_Errhandler *errhandler, const char *fn);
/* Same, for an internal status code from a lower layer. */
int rd_api_status_error(rd_comm_t *c, int status, const char *fn);
/* The error of a completed request w (w->error != RD_OK): truncation and a
 * failed peer get messages naming the ranks involved. */
int rd_api_request_error(rd_request_t *w, const char *fn);
/* A failed peer (job rank) as a rank of c's remote group, or -1. */
int rd_api_peer_rank(const rd_comm_t *c, int world);
/* Maps an internal status to an MPI error class. */
int rd_api_class_of(int status);
/* The failure of a function declared in mpi.h that rdmpi does not implement. */
int rd_api_unsupported(const char *fn);
/* The same for a file function (MPI_File_*): raised on MPI_FILE_NULL's
 * handler, MPI_ERRORS_RETURN unless the program set another (file_errh.c). */
int rd_api_unsupported_file(const char *fn);
/* The first time a missing function fn is called, says so on stderr (one
 * line; RDMPI_WARN_UNSUPPORTED=0 silences it): a program that ignores the
 * error it returns would otherwise fail later with no hint. */
void rd_api_note_unsupported(const char *fn);
/* The saved message of an error code (NULL if none or reused) and class names. */
const char *rd_api_code_message(int code);
const char *rd_api_class_name(int cls);
/* Whether cls is a predefined error class. */
int rd_api_class_known(int cls);
/* Applies c's error handler to an existing error code (used by wait/test). */
int rd_api_raise(rd_comm_t *c, int code, const char *fn);

/* The runtime under the world model and the sessions (init.c): acquire
 * starts it at the first user (thread level `required`, raised for a later
 * user that asks more; *provided, if given, gets the level in effect);
 * release ends it at the last user. MPI_SUCCESS or an error code. */
int rd_api_runtime_acquire(int required, int *provided, const char *fn);
int rd_api_runtime_release(const char *fn);
/* The level MPI_Init asks for (RDMPI_THREAD_LEVEL, else MPI_THREAD_SINGLE). */
int rd_api_default_thread_level(void);

/* The runtime is running: MPI_Init or MPI_Session_init was called and the
 * last of their finalizes not yet. */
#define RD_API_CHECK_INIT(fn)                                                            \
    do {                                                                                 \
        if (__builtin_expect(!rd_api.initialized || rd_api.finalized, 0))                \
            return rd_api_error(NULL, MPI_ERR_OTHER, fn,                                 \
                                rd_api.finalized ? "called after MPI_Finalize"           \
                                                 : "called before MPI_Init");            \
    } while (0)

/* Handle decoding; NULL when the handle is not a valid object of that kind. */
static inline rd_comm_t *rd_api_comm(MPI_Comm h) { return rd_handle_get(RD_OBJ_COMM, h); }
static inline rd_group_t *rd_api_group(MPI_Group h) { return rd_handle_get(RD_OBJ_GROUP, h); }
static inline rd_datatype_t *rd_api_dt(MPI_Datatype h) { return rd_handle_get(RD_OBJ_DATATYPE, h); }
static inline rd_errhandler_t *rd_api_errh(MPI_Errhandler h) { return rd_handle_get(RD_OBJ_ERRHANDLER, h); }
static inline rd_request_t *rd_api_req(MPI_Request h)
{
    rd_request_t *r = rd_handle_get(RD_OBJ_REQUEST, h);
    return r && r->done >= 0 ? r : NULL;
}

/* Checks shared by the point-to-point entry points. Each returns MPI_SUCCESS
 * or the error code after the handler ran. */
int rd_api_check_comm(MPI_Comm h, rd_comm_t **c, const char *fn);
int rd_api_check_dt(rd_comm_t *c, MPI_Datatype h, rd_datatype_t **dt, const char *fn);
/* Counts are MPI_Count so that the large-count (_c) forms share the checks:
 * a count is non-negative, and count elements of dt span less than
 * PTRDIFF_MAX bytes (what buffers and the layers below can address). */
int rd_api_check_count(rd_comm_t *c, MPI_Count count, const char *fn);
/* count elements of dt surely span at most PTRDIFF_MAX bytes: a count below
 * 2^31 of a type whose size and extent are below 2^32 in magnitude (the
 * common case, in a few compares); anything else takes the exact test,
 * which fails with MPI_ERR_COUNT rather than let count * size wrap. */
static inline int rd_api_span_small(MPI_Count count, const rd_datatype_t *dt)
{
    ptrdiff_t ext = rd_dt_extent(dt);
    return (unsigned long long)count <= INT32_MAX && dt->size <= UINT32_MAX &&
           (size_t)(ext + (ptrdiff_t)UINT32_MAX) <= 2 * (size_t)UINT32_MAX;
}
int rd_api_check_buf(rd_comm_t *c, const void *buf, MPI_Count count, rd_datatype_t *dt,
                     const char *fn);
/* count, datatype and buffer of one (buf, count, datatype) argument; the
 * buffer may be MPI_IN_PLACE (callers reject that where it is not allowed). */
int rd_api_check_data(rd_comm_t *c, const void *buf, MPI_Count count, MPI_Datatype type,
                      rd_datatype_t **dt, const char *fn);
/* The counts and displacements of a collective's v variant ("send" or
 * "receive" in the message): both arrays given, no count negative; one per
 * rank of the remote group on an intercommunicator. With dt (the side's
 * datatype, NULL: not yet known) each block must lie within what a buffer
 * can address: count x extent that overflows is MPI_ERR_COUNT, displacement
 * x extent + count x extent MPI_ERR_ARG. That takes no work beyond the
 * counts' pass, and only for types of 2^31 bytes or more. */
int rd_api_check_counts(rd_comm_t *c, const int *counts, const int *displs,
                        const rd_datatype_t *dt, const char *what, const char *fn);
/* A buffer of one block of count elements of dt per rank, nblocks of them
 * (a rooted collective's root side, the all-to-all ones): their whole span
 * fits, else MPI_ERR_COUNT. A few compares unless the product is large. */
int rd_api_check_nblocks_span(rd_comm_t *c, MPI_Count count, int nblocks,
                              const rd_datatype_t *dt, const char *fn);
static inline int rd_api_check_nblocks(rd_comm_t *c, MPI_Count count, int nblocks,
                                       const rd_datatype_t *dt, const char *fn)
{
    if (__builtin_expect((unsigned long long)count * (unsigned)nblocks <= INT32_MAX &&
                             rd_api_span_small(count, dt), 1))
        return MPI_SUCCESS;
    return rd_api_check_nblocks_span(c, count, nblocks, dt, fn);
}
/* The same for block i of a w variant: count elements of dt at disp bytes
 * (MPI_ERR_COUNT, MPI_ERR_ARG), checked where its datatype is decoded. */
int rd_api_check_wblock_span(rd_comm_t *c, int i, MPI_Count count, const rd_datatype_t *dt,
                             MPI_Aint disp, const char *what, const char *fn);
static inline int rd_api_check_wblock(rd_comm_t *c, int i, MPI_Count count,
                                      const rd_datatype_t *dt, MPI_Aint disp, const char *what,
                                      const char *fn)
{
    /* Below 2^31 each, the block spans less than 2^62 bytes: with a
     * displacement below 2^62 in magnitude its end cannot overflow. */
    ptrdiff_t ext = rd_dt_extent(dt);
    if (__builtin_expect((unsigned long long)count <= INT32_MAX && dt->size <= INT32_MAX &&
                             ext <= INT32_MAX && ext >= -INT32_MAX &&
                             disp > -((MPI_Aint)1 << 62) && disp < ((MPI_Aint)1 << 62), 1))
        return MPI_SUCCESS;
    return rd_api_check_wblock_span(c, i, count, dt, disp, what, fn);
}
/* The count and displacement arrays of a large-count (_c) v-collective on
 * comm as the int arrays src/coll takes, converted once per call: sc/sd
 * (send) and rc/rd (receive), each of one entry per rank of the remote
 * group, or NULL where not significant (NULL stays NULL); with a root
 * (gatherv, scatterv: not RD_API_NO_ROOT) they are significant at the root
 * only (MPI_ROOT on an intercommunicator). An invalid
 * communicator converts nothing (the collective reports it). A count or
 * displacement beyond int fails (MPI_ERR_COUNT / MPI_ERR_ARG naming fn);
 * negative counts are kept for the collective's own checks.
 * root RD_API_LOCAL_COUNTS: no root, one entry per rank of the local group
 * (reduce_scatter's recvcounts, also on an intercommunicator).
 * rd_api_vcounts_free releases the copies. */
#define RD_API_NO_ROOT INT_MIN
#define RD_API_LOCAL_COUNTS (INT_MIN + 1)
typedef struct rd_api_vcounts {
    const int *sc, *sd, *rc, *rd;
    int *mem;
} rd_api_vcounts_t;
int rd_api_vcounts(MPI_Comm comm, int root, rd_api_vcounts_t *v, const MPI_Count *sc,
                   const MPI_Aint *sd, const MPI_Count *rc, const MPI_Aint *rd, const char *fn);
void rd_api_vcounts_free(rd_api_vcounts_t *v);
/* Checks shared by the blocking and nonblocking collectives: the
 * communicator (intra- or intercommunicator; _intra for the collectives
 * MPI defines on intracommunicators only: MPI_ERR_COMM) and the root rank. */
int rd_api_check_coll_comm(MPI_Comm h, rd_comm_t **c, const char *fn);
int rd_api_check_coll_comm_intra(MPI_Comm h, rd_comm_t **c, const char *fn);
/* On an intercommunicator: MPI_ROOT, MPI_PROC_NULL or a remote rank. */
int rd_api_check_root(rd_comm_t *c, int root, const char *fn);
/* dest: a rank of the remote group or MPI_PROC_NULL. */
int rd_api_check_dest(rd_comm_t *c, int rank, const char *fn);
/* source: also MPI_ANY_SOURCE. */
int rd_api_check_source(rd_comm_t *c, int rank, const char *fn);
/* send tags: 0..MPI_TAG_UB; receive tags: also MPI_ANY_TAG. */
int rd_api_check_tag(rd_comm_t *c, int tag, int any_ok, const char *fn);
/* An out-argument the function writes through (a status, a request, a
 * flag): NULL is MPI_ERR_ARG naming what, as MPICH reports it.
 * MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are not NULL in this ABI
 * ((MPI_Status *)1), so they pass. */
int rd_api_null_arg(rd_comm_t *c, const char *what, const char *fn);
static inline int rd_api_check_out(rd_comm_t *c, const void *p, const char *what, const char *fn)
{
    return __builtin_expect(p != NULL, 1) ? MPI_SUCCESS : rd_api_null_arg(c, what, fn);
}

/* The largest tag (MPI_TAG_UB attribute). */
#define RD_TAG_UB 0x3fffffff

/* Fills an MPI_Status from a completed request (st may be MPI_STATUS_IGNORE). */
void rd_api_set_status(MPI_Status *st, const rd_request_t *r);
/* Status of a null or inactive request (MPI_ANY_SOURCE, MPI_ANY_TAG, count 0). */
void rd_api_empty_status(MPI_Status *st);
/* Status of a probe or receive from MPI_PROC_NULL (source MPI_PROC_NULL). */
void rd_api_proc_null_status(MPI_Status *st);
/* Encodes a byte count in a status the way MPICH does. */
void rd_api_status_set_bytes(MPI_Status *st, MPI_Count bytes);
MPI_Count rd_api_status_bytes(const MPI_Status *st);

/* Registers the predefined datatypes / error handlers / groups (at MPI_Init). */
int rd_api_types_init(void);
int rd_api_errh_init(void);
int rd_api_group_init(void);
void rd_api_group_fini(void);
/* A new reference to g with a handle (lock held); group comparison (MPI_IDENT...). */
int rd_api_group_handle(rd_group_t *g);
int rd_api_group_compare(const rd_group_t *a, const rd_group_t *b);

/* Progresses until every buffered send has left the attached buffer. */
void rd_api_bsend_drain(void);

/* Creates a communicator over group g with a fresh context id agreed over
 * parent (collective over parent). *out is NULL for ranks not in g. */
int rd_api_comm_create_from(rd_comm_t *parent, rd_group_t *g, rd_comm_t **out);
/* Frees a communicator as MPI_Comm_free does (attributes deleted). */
int rd_api_comm_free(rd_comm_t *c);

#endif

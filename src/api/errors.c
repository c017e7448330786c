/*
 * Error handlers and error codes: the predefined handlers, user handlers on
 * communicators (MPI_Comm_create/set/get_errhandler and their MPI-1 names),
 * MPI_Comm_call_errhandler, and turning a code back into a class and a text
 * (MPI_Error_class, MPI_Error_string).
 *
 * An error code made by rd_api_error is its class in the low 8 bits plus the
 * slot of a saved message above them (see api.c), so MPI_Error_string can
 * name the function and the reason, not only the class.
 */
#include "api/api.h"
#include "api/errclass_user.h"

#include <stdio.h>
#include <string.h>


/* The largest class rdmpi knows (the last one in mpi.h). */
#define LAST_CLASS MPI_T_ERR_NOT_SUPPORTED
/* Message slots in api.c: a code's slot is 1..RD_MSG_SLOTS (0 = no message). */
#define RD_MSG_SLOTS 256

/* ---- predefined handlers ----
 * Static objects under MPICH's handle values. Their reference count starts
 * so high that MPI_Comm_get_errhandler / MPI_Errhandler_free pairs never
 * bring it to zero, so they are never freed. */

#define BUILTIN_REFS (1 << 30)

static rd_errhandler_t errh_fatal = {
    .handle = MPI_ERRORS_ARE_FATAL, .refs = BUILTIN_REFS, .kind = RD_ERRH_FATAL,
    .obj = RD_OBJ_COMM,
};
static rd_errhandler_t errh_return = {
    .handle = MPI_ERRORS_RETURN, .refs = BUILTIN_REFS, .kind = RD_ERRH_RETURN,
    .obj = RD_OBJ_COMM,
};
static rd_errhandler_t errh_abort = {
    .handle = MPI_ERRORS_ABORT, .refs = BUILTIN_REFS, .kind = RD_ERRH_ABORT,
    .obj = RD_OBJ_COMM,
};

int rd_api_errh_init(void)
{
    rd_errhandler_t *all[] = { &errh_fatal, &errh_return, &errh_abort };
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        all[i]->refs = BUILTIN_REFS;
        int rc = rd_handle_builtin_set(RD_OBJ_ERRHANDLER, all[i]->handle, all[i]);
        if (rc != RD_OK)
            return rc;
    }
    return RD_OK;
}

static int is_builtin(const rd_errhandler_t *e)
{
    return e == &errh_fatal || e == &errh_return || e == &errh_abort;
}

MPI_Errhandler rd_api_errh_get(rd_errhandler_t *cur)
{
    rd_errhandler_t *e = cur ? cur : &errh_fatal;
    /* A new reference: the standard has the caller free it. */
    rd_errh_ref(e);
    return e->handle;
}

void rd_api_errh_set(rd_errhandler_t **slot, rd_errhandler_t *e)
{
    rd_errhandler_t *old = *slot;
    rd_errh_ref(e);
    *slot = e;
    rd_errh_release(old);
}

/* ---- shared bodies of the MPI-2 and MPI-1 names ---- */

int rd_api_errh_create(int obj, void (*f)(void), MPI_Errhandler *errhandler, const char *fn)
{
    if (!f)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "error handler function is NULL");
    if (!errhandler)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "errhandler pointer is NULL");
    rd_api_lock();
    rd_errhandler_t *e = rd_errh_new(RD_ERRH_USER, obj, (rd_errh_fn)f);
    if (e && !(e->handle = rd_handle_alloc(RD_OBJ_ERRHANDLER, e))) {
        rd_errh_release(e);
        e = NULL;
    }
    rd_api_unlock();
    if (!e)
        return rd_api_error(NULL, MPI_ERR_NO_MEM, fn, "out of memory for a new error handler");
    *errhandler = e->handle;
    return MPI_SUCCESS;
}

static int create_errhandler(MPI_Comm_errhandler_function *f, MPI_Errhandler *errhandler,
                             const char *fn)
{
    RD_API_CHECK_INIT(fn);
    return rd_api_errh_create(RD_OBJ_COMM, (void (*)(void))f, errhandler, fn);
}

static int set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler, const char *fn)
{
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    rd_errhandler_t *e = rd_api_errh(errhandler);
    if (!e)
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            errhandler == MPI_ERRHANDLER_NULL
                                ? "error handler is MPI_ERRHANDLER_NULL"
                                : "invalid error handler handle 0x%x",
                            (unsigned)errhandler);
    if (e->obj != RD_OBJ_COMM)
        return rd_api_error(c, MPI_ERR_ARG, fn,
                            "error handler 0x%x was not created for communicators "
                            "(use MPI_Comm_create_errhandler)",
                            (unsigned)errhandler);
    rd_api_lock();
    rd_api_errh_set(&c->errh, e);
    rd_api_unlock();
    return MPI_SUCCESS;
}

static int get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler, const char *fn)
{
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    if (!errhandler)
        return rd_api_error(c, MPI_ERR_ARG, fn, "errhandler pointer is NULL");
    rd_api_lock();
    *errhandler = rd_api_errh_get(c->errh);
    rd_api_unlock();
    return MPI_SUCCESS;
}

/* ---- MPI functions ---- */

RD_WEAK_ALIAS(MPI_Comm_create_errhandler)
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                MPI_Errhandler *errhandler)
{
    return create_errhandler(comm_errhandler_fn, errhandler, "MPI_Comm_create_errhandler");
}

RD_WEAK_ALIAS(MPI_Errhandler_create)
int PMPI_Errhandler_create(MPI_Comm_errhandler_function *comm_errhandler_fn,
                           MPI_Errhandler *errhandler)
{
    return create_errhandler(comm_errhandler_fn, errhandler, "MPI_Errhandler_create");
}

RD_WEAK_ALIAS(MPI_Comm_set_errhandler)
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return set_errhandler(comm, errhandler, "MPI_Comm_set_errhandler");
}

RD_WEAK_ALIAS(MPI_Errhandler_set)
int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return set_errhandler(comm, errhandler, "MPI_Errhandler_set");
}

RD_WEAK_ALIAS(MPI_Comm_get_errhandler)
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return get_errhandler(comm, errhandler, "MPI_Comm_get_errhandler");
}

RD_WEAK_ALIAS(MPI_Errhandler_get)
int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return get_errhandler(comm, errhandler, "MPI_Errhandler_get");
}

/* Freeing a predefined handler only clears the caller's handle, as in MPICH:
 * MPI_Comm_get_errhandler may hand out MPI_ERRORS_ARE_FATAL, and the
 * standard has the caller free what it got. */
RD_WEAK_ALIAS(MPI_Errhandler_free)
int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Errhandler_free";
    RD_API_CHECK_INIT(fn);
    if (!errhandler)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "errhandler pointer is NULL");
    rd_errhandler_t *e = rd_api_errh(*errhandler);
    if (!e)
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            *errhandler == MPI_ERRHANDLER_NULL
                                ? "error handler is MPI_ERRHANDLER_NULL"
                                : "invalid error handler handle 0x%x",
                            (unsigned)*errhandler);
    rd_api_lock();
    if (!is_builtin(e))
        rd_errh_release(e);
    rd_api_unlock();
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

/* Calls comm's handler on errorcode; the handler's outcome is not this
 * call's result (MPI_SUCCESS unless the handler aborts the job). The
 * handler may call MPI, so no lock is held. */
RD_WEAK_ALIAS(MPI_Comm_call_errhandler)
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    static const char fn[] = "MPI_Comm_call_errhandler";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    rd_api_raise(c, errorcode, fn);
    return MPI_SUCCESS;
}

/* ---- codes, classes and their texts ---- */

/* Name and meaning of every class, for MPI_Error_string. */
#define CLASS(cls, text) { cls, #cls, text }
static const struct class_info {
    int cls;
    const char *name, *text;
} classes[] = {
    CLASS(MPI_SUCCESS, "No error"),
    CLASS(MPI_ERR_BUFFER, "Invalid buffer pointer"),
    CLASS(MPI_ERR_COUNT, "Invalid count argument"),
    CLASS(MPI_ERR_TYPE, "Invalid datatype argument"),
    CLASS(MPI_ERR_TAG, "Invalid tag argument"),
    CLASS(MPI_ERR_COMM, "Invalid communicator"),
    CLASS(MPI_ERR_RANK, "Invalid rank"),
    CLASS(MPI_ERR_ROOT, "Invalid root"),
    CLASS(MPI_ERR_GROUP, "Invalid group"),
    CLASS(MPI_ERR_OP, "Invalid reduce operation"),
    CLASS(MPI_ERR_TOPOLOGY, "Invalid topology"),
    CLASS(MPI_ERR_DIMS, "Invalid dimension argument"),
    CLASS(MPI_ERR_ARG, "Invalid argument"),
    CLASS(MPI_ERR_UNKNOWN, "Unknown error"),
    CLASS(MPI_ERR_TRUNCATE, "Message truncated"),
    CLASS(MPI_ERR_OTHER, "Other MPI error"),
    CLASS(MPI_ERR_INTERN, "Internal MPI error"),
    CLASS(MPI_ERR_IN_STATUS, "Error code is in status"),
    CLASS(MPI_ERR_PENDING, "Pending request"),
    CLASS(MPI_ERR_REQUEST, "Invalid request handle"),
    CLASS(MPI_ERR_ACCESS, "Permission denied"),
    CLASS(MPI_ERR_AMODE, "Invalid file access mode"),
    CLASS(MPI_ERR_BAD_FILE, "Invalid file name"),
    CLASS(MPI_ERR_CONVERSION, "Data conversion failed"),
    CLASS(MPI_ERR_DUP_DATAREP, "Data representation already defined"),
    CLASS(MPI_ERR_FILE_EXISTS, "File exists"),
    CLASS(MPI_ERR_FILE_IN_USE, "File in use by some process"),
    CLASS(MPI_ERR_FILE, "Invalid file handle"),
    CLASS(MPI_ERR_INFO, "Invalid info object"),
    CLASS(MPI_ERR_INFO_KEY, "Info key too long"),
    CLASS(MPI_ERR_INFO_VALUE, "Info value too long"),
    CLASS(MPI_ERR_INFO_NOKEY, "Info key not defined"),
    CLASS(MPI_ERR_IO, "I/O error"),
    CLASS(MPI_ERR_NAME, "Service name not published"),
    CLASS(MPI_ERR_NO_MEM, "Out of memory"),
    CLASS(MPI_ERR_NOT_SAME, "Arguments not identical on all processes"),
    CLASS(MPI_ERR_NO_SPACE, "Not enough space"),
    CLASS(MPI_ERR_NO_SUCH_FILE, "File does not exist"),
    CLASS(MPI_ERR_PORT, "Invalid port name"),
    CLASS(MPI_ERR_QUOTA, "Quota exceeded"),
    CLASS(MPI_ERR_READ_ONLY, "Read-only file or file system"),
    CLASS(MPI_ERR_SERVICE, "Service name could not be unpublished"),
    CLASS(MPI_ERR_SPAWN, "Could not spawn processes"),
    CLASS(MPI_ERR_UNSUPPORTED_DATAREP, "Unsupported data representation"),
    CLASS(MPI_ERR_UNSUPPORTED_OPERATION, "Operation not supported"),
    CLASS(MPI_ERR_WIN, "Invalid window"),
    CLASS(MPI_ERR_BASE, "Invalid base address"),
    CLASS(MPI_ERR_LOCKTYPE, "Invalid lock type"),
    CLASS(MPI_ERR_KEYVAL, "Invalid attribute key"),
    CLASS(MPI_ERR_RMA_CONFLICT, "Conflicting accesses to a window"),
    CLASS(MPI_ERR_RMA_SYNC, "Wrong synchronization of RMA calls"),
    CLASS(MPI_ERR_SIZE, "Invalid size argument"),
    CLASS(MPI_ERR_DISP, "Invalid displacement argument"),
    CLASS(MPI_ERR_ASSERT, "Invalid assert argument"),
    CLASS(MPI_ERR_RMA_RANGE, "Target memory is outside the window"),
    CLASS(MPI_ERR_RMA_ATTACH, "Memory cannot be attached to the window"),
    CLASS(MPI_ERR_RMA_SHARED, "Memory cannot be shared"),
    CLASS(MPI_ERR_RMA_FLAVOR, "Wrong window flavor"),
    CLASS(MPI_T_ERR_MEMORY, "Out of memory (MPI_T)"),
    CLASS(MPI_T_ERR_NOT_INITIALIZED, "MPI_T not initialized"),
    CLASS(MPI_T_ERR_CANNOT_INIT, "MPI_T cannot be initialized"),
    CLASS(MPI_T_ERR_INVALID_INDEX, "Invalid MPI_T index"),
    CLASS(MPI_T_ERR_INVALID_ITEM, "Invalid MPI_T item"),
    CLASS(MPI_T_ERR_INVALID_HANDLE, "Invalid MPI_T handle"),
    CLASS(MPI_T_ERR_OUT_OF_HANDLES, "No more MPI_T handles"),
    CLASS(MPI_T_ERR_OUT_OF_SESSIONS, "No more MPI_T sessions"),
    CLASS(MPI_T_ERR_INVALID_SESSION, "Invalid MPI_T session"),
    CLASS(MPI_T_ERR_CVAR_SET_NOT_NOW, "Control variable cannot be set now"),
    CLASS(MPI_T_ERR_CVAR_SET_NEVER, "Control variable can never be set"),
    CLASS(MPI_T_ERR_PVAR_NO_STARTSTOP, "Performance variable cannot be started or stopped"),
    CLASS(MPI_T_ERR_PVAR_NO_WRITE, "Performance variable cannot be written"),
    CLASS(MPI_T_ERR_PVAR_NO_ATOMIC, "Performance variable cannot be read and reset atomically"),
    CLASS(MPI_T_ERR_INVALID_NAME, "Invalid MPI_T variable or category name"),
    CLASS(MPI_T_ERR_INVALID, "Invalid use of the MPI_T interface"),
    CLASS(MPI_ERR_SESSION, "Invalid session"),
    CLASS(MPI_ERR_PROC_ABORTED, "Communication with an aborted process"),
    CLASS(MPI_ERR_VALUE_TOO_LARGE, "Value too large for the output argument"),
    CLASS(MPI_T_ERR_NOT_SUPPORTED, "MPI_T feature not supported"),
};

static const struct class_info *class_info(int cls)
{
    for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
        if (classes[i].cls == cls)
            return &classes[i];
    return NULL;
}

const char *rd_api_class_name(int cls)
{
    const struct class_info *ci = class_info(cls);
    return ci ? ci->name : "MPI_ERR_UNKNOWN";
}

int rd_api_class_known(int cls)
{
    return cls >= 0 && cls <= 0xff && class_info(cls);
}

/* Whether code is one rdmpi could have produced: a known class, with or
 * without a message slot. */
static int valid_code(int code)
{
    return code >= 0 && ((unsigned)code >> 8) <= RD_MSG_SLOTS && class_info(code & 0xff);
}

/* The saved message of code if it still belongs to code: slots are reused
 * round-robin, so a stale slot may hold a later error of another class. Every
 * message ends with " (<class name>)". */
static const char *saved_message(int code)
{
    const char *m = rd_api_code_message(code);
    if (!m || !*m)
        return NULL;
    const char *name = rd_api_class_name(code & 0xff);
    size_t lm = strlen(m), ln = strlen(name);
    if (lm < ln + 3 || m[lm - ln - 2] != '(' || strncmp(m + lm - ln - 1, name, ln) != 0 ||
        m[lm - 1] != ')')
        return NULL;
    return m;
}

RD_WEAK_ALIAS(MPI_Error_class)
int PMPI_Error_class(int errorcode, int *errorclass)
{
    static const char fn[] = "MPI_Error_class";
    if (!errorclass)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "errorclass pointer is NULL");
    if (rd_api_user_error_class(errorcode, errorclass))
        return MPI_SUCCESS;
    if (!valid_code(errorcode))
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "invalid error code %d: not a code returned by rdmpi "
                            "(classes are 0..%d)",
                            errorcode, LAST_CLASS);
    *errorclass = errorcode & 0xff;
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Error_string)
int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    static const char fn[] = "MPI_Error_string";
    if (!string || !resultlen)
        return rd_api_error(NULL, MPI_ERR_ARG, fn, "string or resultlen pointer is NULL");
    if (rd_api_user_error_string(errorcode, string, MPI_MAX_ERROR_STRING)) {
        *resultlen = (int)strlen(string);
        return MPI_SUCCESS;
    }
    if (!valid_code(errorcode))
        return rd_api_error(NULL, MPI_ERR_ARG, fn,
                            "invalid error code %d: not a code returned by rdmpi "
                            "(classes are 0..%d)",
                            errorcode, LAST_CLASS);
    const struct class_info *ci = class_info(errorcode & 0xff);
    const char *m = errorcode > 0xff ? saved_message(errorcode) : NULL;
    int n;
    if (m)
        n = snprintf(string, MPI_MAX_ERROR_STRING, "%s, %s", ci->text, m);
    else if (errorcode == MPI_SUCCESS)
        n = snprintf(string, MPI_MAX_ERROR_STRING, "%s", ci->text);
    else
        n = snprintf(string, MPI_MAX_ERROR_STRING, "%s (%s)", ci->text, ci->name);
    if (n < 0)
        n = 0;
    *resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
    return MPI_SUCCESS;
}

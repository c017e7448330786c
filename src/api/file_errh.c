/*
 * Errors on files. rdmpi has no MPI-IO, so the only file handle is
 * MPI_FILE_NULL, but its error handler matters: the standard makes it the
 * handler of MPI_File_open and of every file call, and makes it
 * MPI_ERRORS_RETURN unless the program sets another (MPI-3.1 13.7). So a
 * failing MPI_File_open returns MPI_ERR_UNSUPPORTED_OPERATION to a program
 * that can do without files (parallel HDF5 falls back to other drivers)
 * instead of ending the job. MPI_File_create/set/get/call_errhandler work
 * on MPI_FILE_NULL; every other file function fails the same way as
 * MPI_File_open (the generated stubs call rd_api_unsupported_file).
 */
#include "api/api.h"

#include <stdarg.h>
#include <stdio.h>

/* The handler of MPI_FILE_NULL; NULL: MPI_ERRORS_RETURN. */
static rd_errhandler_t *file_null_errh;

static rd_errhandler_t *file_errh(void)
{
    return file_null_errh ? file_null_errh : rd_api_errh(MPI_ERRORS_RETURN);
}

/* Applies MPI_FILE_NULL's handler to code (no lock held: a user function may
 * call MPI). A user function gets a pointer to the MPI_File handle, which is
 * a pointer, unlike the int handles of communicators and windows. */
static int apply(int code, const char *text)
{
    rd_api_lock();
    rd_errhandler_t *e = file_errh();
    rd_errh_ref(e);
    rd_api_unlock();
    if (e->kind == RD_ERRH_USER) {
        MPI_File fh = MPI_FILE_NULL;
        int ccode = code;
        ((MPI_File_errhandler_function *)(void (*)(void))e->fn)(&fh, &ccode);
    } else {
        rd_api_errh_apply(e, 0, code, text);
    }
    rd_api_lock();
    rd_errh_release(e);
    rd_api_unlock();
    return code;
}

static int file_error(int cls, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int file_error(int cls, const char *fn, const char *fmt, ...)
{
    const char *m;
    va_list ap;
    va_start(ap, fmt);
    int code = rd_api_verror_code(cls, fn, fmt, ap, &m);
    va_end(ap);
    return apply(code, m);
}

int rd_api_unsupported_file(const char *fn)
{
    rd_api_note_unsupported(fn);
    return file_error(MPI_ERR_UNSUPPORTED_OPERATION, fn,
                      "MPI-IO (files) is not supported by rdmpi %s", RDMPI_VERSION);
}

/* The file argument of the error-handler calls: MPI_FILE_NULL is the only
 * file there is. */
static int check_file(MPI_File file, const char *fn)
{
    if (file == MPI_FILE_NULL)
        return MPI_SUCCESS;
    return file_error(MPI_ERR_FILE, fn, "invalid file handle %p: rdmpi opens no files, "
                      "only MPI_FILE_NULL exists", (void *)file);
}

RD_WEAK_ALIAS(MPI_File_open)
int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    static const char fn[] = "MPI_File_open";
    rd_comm_t *c;
    int err;
    (void)amode, (void)info;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    if (!filename || !fh)
        return file_error(MPI_ERR_ARG, fn, "filename or fh pointer is NULL");
    *fh = MPI_FILE_NULL;
    rd_api_note_unsupported(fn);
    return file_error(MPI_ERR_UNSUPPORTED_OPERATION, fn,
                      "cannot open '%s': MPI-IO (files) is not supported by rdmpi %s", filename,
                      RDMPI_VERSION);
}

RD_WEAK_ALIAS(MPI_File_create_errhandler)
int PMPI_File_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn,
                                MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_File_create_errhandler";
    RD_API_CHECK_INIT(fn);
    return rd_api_errh_create(RD_OBJ_FILE, (void (*)(void))file_errhandler_fn, errhandler, fn);
}

RD_WEAK_ALIAS(MPI_File_set_errhandler)
int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    static const char fn[] = "MPI_File_set_errhandler";
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_file(file, fn)))
        return err;
    rd_errhandler_t *e = rd_api_errh(errhandler);
    if (!e)
        return file_error(MPI_ERR_ARG, fn,
                          errhandler == MPI_ERRHANDLER_NULL ? "error handler is MPI_ERRHANDLER_NULL"
                                                            : "invalid error handler handle 0x%x",
                          (unsigned)errhandler);
    /* The predefined handlers fit every kind of object. */
    if (e->obj != RD_OBJ_FILE && RD_HANDLE_KIND(e->handle) != RD_HANDLE_KIND_BUILTIN)
        return file_error(MPI_ERR_ARG, fn,
                          "error handler 0x%x was not created for files "
                          "(use MPI_File_create_errhandler)", (unsigned)errhandler);
    rd_api_lock();
    rd_errhandler_t *old = file_null_errh;
    rd_errh_ref(e);
    file_null_errh = e;
    if (old)
        rd_errh_release(old);
    rd_api_unlock();
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_File_get_errhandler)
int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_File_get_errhandler";
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_file(file, fn)))
        return err;
    if (!errhandler)
        return file_error(MPI_ERR_ARG, fn, "errhandler pointer is NULL");
    rd_api_lock();
    rd_errhandler_t *e = file_errh();
    /* A new reference: the standard has the caller free it (MPI_Errhandler_free). */
    rd_errh_ref(e);
    *errhandler = e->handle;
    rd_api_unlock();
    return MPI_SUCCESS;
}

/* Calls the file's handler on errorcode; the handler's outcome is not this
 * call's result (MPI_SUCCESS unless the handler aborts the job). */
RD_WEAK_ALIAS(MPI_File_call_errhandler)
int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
    static const char fn[] = "MPI_File_call_errhandler";
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = check_file(fh, fn)))
        return err;
    if (errorcode == MPI_SUCCESS)
        return MPI_SUCCESS;
    const char *saved = rd_api_code_message(errorcode);
    char text[MPI_MAX_ERROR_STRING + 64];
    snprintf(text, sizeof(text), "%s: %s", fn,
             saved ? saved : rd_api_class_name(errorcode & 0xff));
    apply(errorcode, text);
    return MPI_SUCCESS;
}

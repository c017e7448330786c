/*
 * Errors on windows: decoding MPI_Win handles, raising an error through the
 * window's own error handler (MPI_ERRORS_ARE_FATAL unless the user set
 * another, as the standard says for windows), and the window error-handler
 * calls (MPI_Win_create/set/get/call_errhandler).
 *
 * A window handler is an error-handler object made for windows (its obj is
 * RD_OBJ_WIN); the predefined handlers fit every kind of object.
 */
#include "api/win.h"

#include <stdarg.h>
#include <stdio.h>

/* ---- what the window entry points share ---- */

int rd_api_check_win(MPI_Win h, rd_win_t **w, const char *fn)
{
    *w = rd_api_win(h);
    if (__builtin_expect(*w != NULL, 1))
        return MPI_SUCCESS;
    /* No window to take a handler from: MPI_COMM_WORLD's applies, as in MPICH. */
    return rd_api_error(NULL, MPI_ERR_WIN, fn,
                        h == MPI_WIN_NULL ? "window is MPI_WIN_NULL"
                                          : "invalid window handle 0x%x", (unsigned)h);
}

/* Applies w's handler (w NULL: MPI_COMM_WORLD's) to code. */
static int apply(rd_win_t *w, int code, const char *text)
{
    if (w)
        return rd_api_errh_apply(w->errh, w->handle, code, text);
    rd_comm_t *c = rd_api.world;
    return rd_api_errh_apply(c ? c->errh : NULL, MPI_COMM_WORLD, code, text);
}

int rd_api_win_error(rd_win_t *w, int cls, const char *fn, const char *fmt, ...)
{
    const char *m;
    va_list ap;
    va_start(ap, fmt);
    int code = rd_api_verror_code(cls, fn, fmt, ap, &m);
    va_end(ap);
    return apply(w, code, m);
}

int rd_api_win_status_error(rd_win_t *w, int status, const char *fn)
{
    int rank = w && w->comm ? w->comm->rank : rd_api.boot.rank;
    return rd_api_win_error(w, rd_api_class_of(status), fn, "rank %d of the window: %s", rank,
                            rd_status_str(status));
}

int rd_api_win_raise(rd_win_t *w, int code, const char *fn)
{
    if (code == MPI_SUCCESS)
        return code;
    const char *saved = rd_api_code_message(code);
    char text[MPI_MAX_ERROR_STRING + 64];
    snprintf(text, sizeof(text), "%s: %s", fn, saved ? saved : rd_api_class_name(code & 0xff));
    return apply(w, code, text);
}

/* ---- MPI functions ---- */

RD_WEAK_ALIAS(MPI_Win_create_errhandler)
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                               MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Win_create_errhandler";
    RD_API_CHECK_INIT(fn);
    return rd_api_errh_create(RD_OBJ_WIN, (void (*)(void))win_errhandler_fn, errhandler, fn);
}

static int is_predefined(const rd_errhandler_t *e)
{
    return RD_HANDLE_KIND(e->handle) == RD_HANDLE_KIND_BUILTIN;
}

RD_WEAK_ALIAS(MPI_Win_set_errhandler)
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    static const char fn[] = "MPI_Win_set_errhandler";
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    rd_errhandler_t *e = rd_api_errh(errhandler);
    if (!e)
        return rd_api_win_error(w, MPI_ERR_ARG, fn,
                                errhandler == MPI_ERRHANDLER_NULL
                                    ? "error handler is MPI_ERRHANDLER_NULL"
                                    : "invalid error handler handle 0x%x",
                                (unsigned)errhandler);
    if (e->obj != RD_OBJ_WIN && !is_predefined(e))
        return rd_api_win_error(w, MPI_ERR_ARG, fn,
                                "error handler 0x%x was not created for windows "
                                "(use MPI_Win_create_errhandler)",
                                (unsigned)errhandler);
    rd_api_lock();
    rd_api_errh_set(&w->errh, e);
    rd_api_unlock();
    return MPI_SUCCESS;
}

RD_WEAK_ALIAS(MPI_Win_get_errhandler)
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    static const char fn[] = "MPI_Win_get_errhandler";
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    if (!errhandler)
        return rd_api_win_error(w, MPI_ERR_ARG, fn, "errhandler pointer is NULL");
    rd_api_lock();
    *errhandler = rd_api_errh_get(w->errh);
    rd_api_unlock();
    return MPI_SUCCESS;
}

/* Calls win's handler on errorcode; the handler's outcome is not this
 * call's result (MPI_SUCCESS unless the handler aborts the job). The
 * handler may call MPI, so no lock is held. */
RD_WEAK_ALIAS(MPI_Win_call_errhandler)
int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    static const char fn[] = "MPI_Win_call_errhandler";
    rd_win_t *w;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_win(win, &w, fn)))
        return err;
    rd_api_win_raise(w, errorcode, fn);
    return MPI_SUCCESS;
}

/*
 * rma_errhandler: error handlers on windows. A new window has
 * MPI_ERRORS_ARE_FATAL; MPI_Win_create_errhandler makes a handler that
 * MPI_Win_set_errhandler installs and MPI_Win_get_errhandler returns;
 * MPI_Win_call_errhandler calls it with the window and the given code; an
 * erroneous MPI_Put (bad rank) calls it with an MPI_ERR_RANK code and the
 * call returns that code; MPI_ERRORS_RETURN installed afterwards is what
 * get returns and the handler is not called any more. The communicator's
 * handler is not involved (it stays MPI_ERRORS_ARE_FATAL). On a
 * Win_allocate and a Win_create_dynamic window.
 */
#include "mtest.h"

#include <stdlib.h>

static int calls;
static MPI_Win expected_win;
static int last_code;

static void handler(MPI_Win *win, int *code, ...)
{
    calls++;
    MT_CHECK(*win == expected_win, "handler called with another window");
    last_code = *code;
}

static void run(int dynamic)
{
    MPI_Win win;
    MPI_Errhandler eh, got;
    int *buf = NULL, v = 1, rc;
    const char *fn = dynamic ? "Win_create_dynamic" : "Win_allocate";

    if (dynamic)
        MT_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    else
        MT_OK(MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                               &buf, &win));
    expected_win = win;
    MT_OK(MPI_Win_get_errhandler(win, &got));
    MT_CHECK(got == MPI_ERRORS_ARE_FATAL, "%s: a new window's handler is not "
             "MPI_ERRORS_ARE_FATAL", fn);
    if (got != MPI_ERRORS_ARE_FATAL)
        MPI_Errhandler_free(&got);

    MT_OK(MPI_Win_create_errhandler(handler, &eh));
    MT_OK(MPI_Win_set_errhandler(win, eh));
    MT_OK(MPI_Win_get_errhandler(win, &got));
    MT_CHECK(got == eh, "%s: MPI_Win_get_errhandler does not return the handler set", fn);
    MT_OK(MPI_Errhandler_free(&got));

    calls = 0;
    MT_OK(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    MT_CHECK(calls == 1 && last_code == MPI_ERR_OTHER, "%s: MPI_Win_call_errhandler: %d calls, "
             "code %d, expected 1 with MPI_ERR_OTHER", fn, calls, last_code);

    /* A real error: the handler sees the code, the call returns it. */
    calls = 0;
    MT_OK(MPI_Win_lock_all(0, win));
    rc = MPI_Put(&v, 1, MPI_INT, MTest_size + 1, 0, 1, MPI_INT, win);
    MT_OK(MPI_Win_unlock_all(win));
    MT_CHECK(calls == 1, "%s: bad-rank put called the handler %d times, expected 1", fn, calls);
    MT_CHECK(calls == 0 || MTest_Errclass(last_code) == MPI_ERR_RANK, "%s: handler got code of "
             "class %d (%s), expected MPI_ERR_RANK", fn, MTest_Errclass(last_code),
             MTest_Errstr(last_code));
    MT_ERRCLASS(rc, MPI_ERR_RANK, "bad-rank put with a user handler");

    /* The handler stays valid while installed even after it is freed. */
    MT_OK(MPI_Errhandler_free(&eh));
    MT_CHECK(eh == MPI_ERRHANDLER_NULL, "%s: MPI_Errhandler_free left the handle", fn);
    calls = 0;
    MT_OK(MPI_Win_call_errhandler(win, MPI_ERR_ARG));
    MT_CHECK(calls == 1 && last_code == MPI_ERR_ARG, "%s: call_errhandler after free: %d calls",
             fn, calls);

    MT_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    MT_OK(MPI_Win_get_errhandler(win, &got));
    MT_CHECK(got == MPI_ERRORS_RETURN, "%s: get after setting MPI_ERRORS_RETURN", fn);
    calls = 0;
    MT_OK(MPI_Win_lock_all(0, win));
    rc = MPI_Put(&v, 1, MPI_INT, -7, 0, 1, MPI_INT, win);
    MT_OK(MPI_Win_unlock_all(win));
    MT_ERRCLASS(rc, MPI_ERR_RANK, "bad-rank put with MPI_ERRORS_RETURN");
    MT_CHECK(calls == 0, "%s: the replaced handler was called %d times", fn, calls);
    rc = MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
    MT_CHECK(MTest_Errclass(rc) == MPI_ERR_OTHER || rc == MPI_SUCCESS, "%s: "
             "MPI_Win_call_errhandler with MPI_ERRORS_RETURN returned %d", fn, rc);

    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got);
    MT_CHECK(got == MPI_ERRORS_ARE_FATAL, "%s: COMM_WORLD's handler changed", fn);
    MT_OK(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    run(0);
    run(1);
    return MTest_Finalize();
}

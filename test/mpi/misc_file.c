/*
 * misc_file: error handlers of files. MPI_FILE_NULL's handler is
 * MPI_ERRORS_RETURN by default, whatever MPI_COMM_WORLD's is, so
 * MPI_File_open (which fails: rdmpi has no MPI-IO) returns
 * MPI_ERR_UNSUPPORTED_OPERATION with fh = MPI_FILE_NULL instead of ending
 * the job, and so do the other file functions. MPI_File_create / set / get /
 * call_errhandler on MPI_FILE_NULL: a user handler gets the file and the
 * code from MPI_File_open, MPI_File_call_errhandler and MPI_File_f2c of a
 * handle that is not MPI_FILE_NULL's. Argument errors: a
 * communicator handler set on a file, an invalid file handle.
 * The first call of a missing function prints one line naming it on stderr
 * (captured here), the second does not; with arg=quiet the program runs
 * under RDMPI_WARN_UNSUPPORTED=0 and expects no line at all.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int calls, last_code;
static MPI_File last_file = (MPI_File)1;

static void file_handler(MPI_File *fh, int *code, ...)
{
    calls++;
    last_code = *code;
    last_file = *fh;
}

static void comm_handler(MPI_Comm *c, int *code, ...)
{
    (void)c, (void)code;
}

/* Runs MPI_File_delete with stderr going to a file; returns what it printed
 * (static buffer) and the call's code in *rc. */
static const char *captured(int *rc)
{
    static char out[1024];
    char path[] = "/tmp/misc_file_XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    fflush(stderr);
    dup2(fd, 2);
    *rc = MPI_File_delete("/nonexistent/misc_file", MPI_INFO_NULL);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t n = pread(fd, out, sizeof out - 1, 0);
    out[n > 0 ? n : 0] = 0;
    close(fd);
    unlink(path);
    return out;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    int quiet = argc > 1 && strcmp(argv[1], "quiet") == 0;
    MPI_File fh = (MPI_File)1;
    MPI_Errhandler eh, got, ceh;
    int rc;

    /* MPI_COMM_WORLD keeps MPI_ERRORS_ARE_FATAL: files do not use it. */
    MPI_File_get_errhandler(MPI_FILE_NULL, &got);
    MT_CHECK(got == MPI_ERRORS_RETURN, "default file handler 0x%x, expected MPI_ERRORS_RETURN",
             (unsigned)got);
    MT_OK(MPI_Errhandler_free(&got));
    rc = MPI_File_open(MPI_COMM_WORLD, "misc_file.tmp", MPI_MODE_RDWR | MPI_MODE_CREATE,
                       MPI_INFO_NULL, &fh);
    MT_ERRCLASS(rc, MPI_ERR_UNSUPPORTED_OPERATION, "MPI_File_open");
    MT_CHECK(fh == MPI_FILE_NULL, "fh after a failed open is not MPI_FILE_NULL");
    MT_ERRCLASS(MPI_File_close(&fh), MPI_ERR_UNSUPPORTED_OPERATION, "MPI_File_close");

    /* Stderr: one line naming the function at its first call only. */
    const char *out = captured(&rc);
    MT_ERRCLASS(rc, MPI_ERR_UNSUPPORTED_OPERATION, "MPI_File_delete");
    if (quiet)
        MT_CHECK(out[0] == 0, "RDMPI_WARN_UNSUPPORTED=0 but stderr has '%s'", out);
    else
        MT_CHECK(strstr(out, "MPI_File_delete") && strchr(out, '\n') == out + strlen(out) - 1,
                 "first call: stderr '%s', expected one line naming MPI_File_delete", out);
    out = captured(&rc);
    MT_CHECK(out[0] == 0, "second call: stderr '%s', expected nothing", out);

    /* The null handle converts; another one fails through the file handler. */
    MT_CHECK(MPI_File_c2f(MPI_FILE_NULL) == 0, "MPI_File_c2f(MPI_FILE_NULL) != 0");
    MT_CHECK(MPI_File_f2c(0) == MPI_FILE_NULL, "MPI_File_f2c(0) != MPI_FILE_NULL");

    /* A user handler on MPI_FILE_NULL. */
    MT_OK(MPI_File_create_errhandler(file_handler, &eh));
    MT_OK(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
    MT_OK(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
    MT_CHECK(got == eh, "get_errhandler 0x%x, expected 0x%x", (unsigned)got, (unsigned)eh);
    MT_OK(MPI_Errhandler_free(&got));
    rc = MPI_File_open(MPI_COMM_SELF, "misc_file.tmp", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MT_CHECK(calls == 1 && last_code == rc && last_file == MPI_FILE_NULL,
             "handler after File_open: calls %d code %d (returned %d)", calls, last_code, rc);
    int cls, code;
    MT_OK(MPI_Error_class(rc, &cls));
    MT_CHECK(cls == MPI_ERR_UNSUPPORTED_OPERATION, "File_open class %d", cls);
    MT_OK(MPI_Add_error_class(&cls));
    MT_OK(MPI_Add_error_code(cls, &code));
    MT_OK(MPI_File_call_errhandler(MPI_FILE_NULL, code));
    MT_CHECK(calls == 2 && last_code == code, "handler after call_errhandler: calls %d code %d",
             calls, last_code);
    MT_CHECK(MPI_File_f2c(5) == MPI_FILE_NULL && calls == 3, "MPI_File_f2c(5): %d calls", calls);

    /* Argument errors, returned by MPI_ERRORS_RETURN again. */
    MT_OK(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    MT_OK(MPI_Comm_create_errhandler(comm_handler, &ceh));
    MT_ERRCLASS(MPI_File_set_errhandler(MPI_FILE_NULL, ceh), MPI_ERR_ARG,
                "a communicator handler on a file");
    MT_ERRCLASS(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRHANDLER_NULL), MPI_ERR_ARG,
                "MPI_ERRHANDLER_NULL");
    MT_ERRCLASS(MPI_File_get_errhandler((MPI_File)&fh, &got), MPI_ERR_FILE, "invalid file");
    MT_ERRCLASS(MPI_File_get_errhandler(MPI_FILE_NULL, NULL), MPI_ERR_ARG, "NULL errhandler");
    MT_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    MT_ERRCLASS(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh), MPI_ERR_ARG,
                "a file handler on a communicator");
    MT_CHECK(calls == 3, "the user handler ran after it was replaced (%d calls)", calls);
    MT_OK(MPI_Errhandler_free(&eh));
    MT_OK(MPI_Errhandler_free(&ceh));
    return MTest_Finalize();
}

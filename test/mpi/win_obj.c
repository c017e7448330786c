/*
 * win_obj: the window as an MPI object, without moving data. The
 * predefined attributes of each flavor (as MPICH returns them), window
 * keyvals (delete callbacks on replace, delete and MPI_Win_free; keyvals of
 * the wrong object kind refused), error handlers (the default is
 * MPI_ERRORS_ARE_FATAL; a window handler sees errors raised on its window;
 * MPI_Win_call_errhandler; an invalid window goes to MPI_COMM_WORLD's
 * handler), names, the group, and the info hints in effect.
 * With the argument "fatal": an error on a window whose handler was left
 * alone ends the job, though MPI_COMM_WORLD returns errors.
 */
#include "err_common.h"

#include <stdlib.h>

static int deletes;            /* delete callback calls */
static void *last_deleted;     /* the value it was given last */
static MPI_Win deleted_on;     /* and the window */

static int count_delete(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)keyval;
    (void)extra;
    deletes++;
    last_deleted = value;
    deleted_on = win;
    return MPI_SUCCESS;
}

static int handler_calls, handler_code;
static MPI_Win handler_win;

static void win_handler(MPI_Win *win, int *code, ...)
{
    handler_calls++;
    handler_win = *win;
    handler_code = *code;
}

/* The predefined attributes of w: base, size, disp_unit, flavor, unified. */
static void check_predefined(MPI_Win w, void *base, MPI_Aint size, int disp_unit, int flavor,
                             const char *what)
{
    void *got_base;
    MPI_Aint *got_size;
    int *got_int, flag;

    MT_OK(MPI_Win_get_attr(w, MPI_WIN_BASE, &got_base, &flag));
    MT_CHECK(flag && got_base == base, "%s: MPI_WIN_BASE %p (flag %d), want %p", what, got_base,
             flag, base);
    MT_OK(MPI_Win_get_attr(w, MPI_WIN_SIZE, &got_size, &flag));
    MT_CHECK(flag && *got_size == size, "%s: MPI_WIN_SIZE %ld, want %ld", what,
             flag ? (long)*got_size : -1L, (long)size);
    MT_OK(MPI_Win_get_attr(w, MPI_WIN_DISP_UNIT, &got_int, &flag));
    MT_CHECK(flag && *got_int == disp_unit, "%s: MPI_WIN_DISP_UNIT %d, want %d", what,
             flag ? *got_int : -1, disp_unit);
    MT_OK(MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &got_int, &flag));
    MT_CHECK(flag && *got_int == flavor, "%s: MPI_WIN_CREATE_FLAVOR %d, want %d", what,
             flag ? *got_int : -1, flavor);
    MT_OK(MPI_Win_get_attr(w, MPI_WIN_MODEL, &got_int, &flag));
    MT_CHECK(flag && *got_int == MPI_WIN_UNIFIED, "%s: MPI_WIN_MODEL %d, want MPI_WIN_UNIFIED",
             what, flag ? *got_int : -1);
}

static void check_hint(MPI_Win w, const char *key, const char *want, const char *what)
{
    MPI_Info info;
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;

    MT_OK(MPI_Win_get_info(w, &info));
    MT_OK(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag));
    if (!want)
        MT_CHECK(!flag, "%s: hint %s is reported (\"%s\"), want it ignored", what, key, value);
    else
        MT_CHECK(flag && !strcmp(value, want), "%s: hint %s is \"%s\", want \"%s\"", what, key,
                 flag ? value : "(unset)", want);
    MT_OK(MPI_Info_free(&info));
}

static void set_hint(MPI_Win w, const char *key, const char *value)
{
    MPI_Info info;
    MT_OK(MPI_Info_create(&info));
    MT_OK(MPI_Info_set(info, key, value));
    MT_OK(MPI_Win_set_info(w, info));
    MT_OK(MPI_Info_free(&info));
}

static void test_flavors(void)
{
    int buf[8];
    void *mem;
    MPI_Win w;

    MT_OK(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    check_predefined(w, buf, sizeof(buf), sizeof(int), MPI_WIN_FLAVOR_CREATE, "Win_create");
    MT_OK(MPI_Win_free(&w));
    MT_CHECK(w == MPI_WIN_NULL, "MPI_Win_free left the handle set");

    MT_OK(MPI_Win_allocate(64, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w));
    check_predefined(w, mem, 64, 8, MPI_WIN_FLAVOR_ALLOCATE, "Win_allocate");
    MT_OK(MPI_Win_free(&w));

    MT_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    check_predefined(w, NULL, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, "Win_create_dynamic");
    MT_OK(MPI_Win_free(&w));
}

static void test_attributes(void)
{
    int buf[4], a = 1, b = 2, flag, kv, ckv;
    void *got;
    MPI_Win w;

    MT_OK(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    MT_OK(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    MT_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &kv, NULL));

    MT_OK(MPI_Win_get_attr(w, kv, &got, &flag));
    MT_CHECK(!flag, "an attribute never set is found");
    MT_OK(MPI_Win_set_attr(w, kv, &a));
    MT_OK(MPI_Win_set_attr(w, kv, &b));
    MT_CHECK(deletes == 1 && last_deleted == &a && deleted_on == w,
             "replacing a value: %d delete calls, want 1 on the old value and this window",
             deletes);
    MT_OK(MPI_Win_get_attr(w, kv, &got, &flag));
    MT_CHECK(flag && got == &b, "get after replace: flag %d", flag);
    MT_OK(MPI_Win_delete_attr(w, kv));
    MT_CHECK(deletes == 2 && last_deleted == &b, "delete: %d delete calls, want 2", deletes);
    MT_OK(MPI_Win_delete_attr(w, kv));
    MT_CHECK(deletes == 2, "deleting an unset attribute ran the callback");

    /* Predefined attributes cannot be set or deleted; keyvals of another
     * kind of object are refused both ways. */
    MT_ERRCLASS(MPI_Win_set_attr(w, MPI_WIN_BASE, &a), MPI_ERR_KEYVAL, "set MPI_WIN_BASE");
    MT_ERRCLASS(MPI_Win_delete_attr(w, MPI_WIN_SIZE), MPI_ERR_KEYVAL, "delete MPI_WIN_SIZE");
    MT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckv, NULL));
    MT_ERRCLASS(MPI_Win_set_attr(w, ckv, &a), MPI_ERR_KEYVAL, "communicator keyval on a window");
    MT_ERRCLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, &a), MPI_ERR_KEYVAL,
                "window keyval on a communicator");
    MT_ERRCLASS(MPI_Win_get_attr(w, MPI_TAG_UB, &got, &flag), MPI_ERR_KEYVAL,
                "MPI_TAG_UB on a window");
    MT_OK(MPI_Comm_free_keyval(&ckv));

    /* What is still set at MPI_Win_free is deleted then, even after the
     * keyval was freed. */
    MT_OK(MPI_Win_set_attr(w, kv, &a));
    MT_OK(MPI_Win_free_keyval(&kv));
    MT_CHECK(kv == MPI_KEYVAL_INVALID, "MPI_Win_free_keyval left the keyval set");
    MPI_Win freed = w;
    MT_OK(MPI_Win_free(&w));
    MT_CHECK(deletes == 3 && last_deleted == &a && deleted_on == freed,
             "MPI_Win_free: %d delete calls, want 3", deletes);
}

static void test_errhandlers(void)
{
    int buf[4];
    MPI_Win w;
    MPI_Errhandler e, got;

    MT_OK(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    MT_OK(MPI_Win_get_errhandler(w, &got));
    MT_CHECK(got == MPI_ERRORS_ARE_FATAL, "default window handler 0x%x, want "
             "MPI_ERRORS_ARE_FATAL", (unsigned)got);
    MT_OK(MPI_Errhandler_free(&got));

    MT_OK(MPI_Win_create_errhandler(win_handler, &e));
    MT_OK(MPI_Win_set_errhandler(w, e));
    MT_OK(MPI_Win_get_errhandler(w, &got));
    MT_CHECK(got == e, "MPI_Win_get_errhandler gave 0x%x, want 0x%x", (unsigned)got,
             (unsigned)e);
    MT_OK(MPI_Errhandler_free(&got));
    /* The window keeps its reference after the user frees the handle. */
    MT_OK(MPI_Errhandler_free(&e));

    MT_OK(MPI_Win_call_errhandler(w, MPI_ERR_OTHER));
    MT_CHECK(handler_calls == 1 && handler_win == w && handler_code == MPI_ERR_OTHER,
             "MPI_Win_call_errhandler: %d calls, code %d", handler_calls, handler_code);

    /* An error raised on the window goes to its handler, which returns; the
     * code names the function. */
    int rc = MPI_Win_set_attr(w, MPI_KEYVAL_INVALID, buf);
    MT_ERRCLASS(rc, MPI_ERR_KEYVAL, "set with MPI_KEYVAL_INVALID");
    MT_CHECK(handler_calls == 2 && handler_win == w && handler_code == rc,
             "an error on the window: %d handler calls, code %d (want %d)", handler_calls,
             handler_code, rc);
    char s[MPI_MAX_ERROR_STRING];
    int len;
    MT_OK(MPI_Error_string(rc, s, &len));
    MT_CHECK(strstr(s, "MPI_Win_set_attr") != NULL, "message \"%s\" does not name the function",
             s);

    /* A communicator handler does not fit a window. */
    MPI_Errhandler ce;
    MT_OK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &ce));
    MPI_Errhandler cu;
    MT_OK(MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)win_handler, &cu));
    MT_OK(MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    MT_ERRCLASS(MPI_Win_set_errhandler(w, cu), MPI_ERR_ARG, "communicator handler on a window");
    MT_OK(MPI_Errhandler_free(&cu));
    MT_OK(MPI_Errhandler_free(&ce));
    MT_OK(MPI_Win_free(&w));

    /* An invalid window: MPI_COMM_WORLD's handler (MPI_ERRORS_RETURN here). */
    char name[MPI_MAX_OBJECT_NAME];
    MT_ERRCLASS(MPI_Win_get_name(MPI_WIN_NULL, name, &len), MPI_ERR_WIN, "MPI_WIN_NULL");
#if GARBAGE_HANDLES
    MT_ERRCLASS(MPI_Win_fence(0, (MPI_Win)GARBAGE_INT), MPI_ERR_WIN, "a garbage window");
#endif
}

static void test_name_group(void)
{
    int buf[4], len, cmp;
    char name[MPI_MAX_OBJECT_NAME], longname[2 * MPI_MAX_OBJECT_NAME];
    MPI_Win w;
    MPI_Group g, wg;

    MT_OK(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    MT_OK(MPI_Win_get_name(w, name, &len));
    MT_CHECK(len == 0 && name[0] == '\0', "a new window is named \"%s\"", name);
    MT_OK(MPI_Win_set_name(w, "halo"));
    MT_OK(MPI_Win_get_name(w, name, &len));
    MT_CHECK(len == 4 && !strcmp(name, "halo"), "name \"%s\" (%d), want \"halo\"", name, len);
    memset(longname, 'x', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    MT_OK(MPI_Win_set_name(w, longname));
    MT_OK(MPI_Win_get_name(w, name, &len));
    MT_CHECK(len == MPI_MAX_OBJECT_NAME - 1 && (int)strlen(name) == len,
             "a long name is kept as %d characters, want %d", len, MPI_MAX_OBJECT_NAME - 1);

    MT_OK(MPI_Win_get_group(w, &wg));
    MT_OK(MPI_Comm_group(MPI_COMM_WORLD, &g));
    MT_OK(MPI_Group_compare(g, wg, &cmp));
    MT_CHECK(cmp == MPI_IDENT, "window group compares %d to the communicator's", cmp);
    MT_OK(MPI_Group_free(&g));
    MT_OK(MPI_Group_free(&wg));
    MT_OK(MPI_Win_free(&w));
}

static void test_info(void)
{
    int buf[4];
    void *mem;
    MPI_Win w;
    MPI_Info info;

    /* Defaults, as MPICH reports them. */
    MT_OK(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    check_hint(w, "no_locks", "false", "default");
    check_hint(w, "accumulate_ordering", "rar,raw,war,waw", "default");
    check_hint(w, "accumulate_ops", "same_op_no_op", "default");
    check_hint(w, "same_size", "false", "default");
    check_hint(w, "same_disp_unit", "false", "default");
    check_hint(w, "alloc_shared_noncontig", "false", "default");

    /* Set later: reported; unknown keys ignored. */
    set_hint(w, "no_locks", "true");
    check_hint(w, "no_locks", "true", "set_info");
    set_hint(w, "accumulate_ordering", "rar,waw");
    check_hint(w, "accumulate_ordering", "rar,waw", "set_info");
    set_hint(w, "accumulate_ops", "same_op");
    check_hint(w, "accumulate_ops", "same_op", "set_info");
    set_hint(w, "rdmpi_no_such_hint", "1");
    check_hint(w, "rdmpi_no_such_hint", NULL, "an unknown key");
    MT_OK(MPI_Win_free(&w));

    /* Given at creation. */
    MT_OK(MPI_Info_create(&info));
    MT_OK(MPI_Info_set(info, "no_locks", "true"));
    MT_OK(MPI_Info_set(info, "accumulate_ordering", "none"));
    MT_OK(MPI_Info_set(info, "same_size", "true"));
    MT_OK(MPI_Win_allocate(16, 4, info, MPI_COMM_WORLD, &mem, &w));
    MT_OK(MPI_Info_free(&info));
    check_hint(w, "no_locks", "true", "at creation");
    check_hint(w, "accumulate_ordering", "none", "at creation");
    check_hint(w, "same_size", "true", "at creation");
    check_hint(w, "same_disp_unit", "false", "at creation");
    MT_OK(MPI_Win_free(&w));
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    if (argc > 1 && !strcmp(argv[1], "fatal")) {
        int buf[4];
        MPI_Win w;
        MT_OK(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w));
        MPI_Win_set_attr(w, MPI_KEYVAL_INVALID, buf);
        MT_FAIL("an error on a window with MPI_ERRORS_ARE_FATAL returned");
        return MTest_Finalize();
    }
    test_flavors();
    test_attributes();
    test_errhandlers();
    test_name_group();
    test_info();
    return MTest_Finalize();
}

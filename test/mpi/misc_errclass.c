/*
 * misc_errclass: MPI_Add_error_class / MPI_Add_error_code /
 * MPI_Add_error_string. Added classes and codes are distinct, above
 * MPI_ERR_LASTCODE and at most MPI_LASTUSEDCODE; MPI_Error_class maps a
 * code to its class (added or predefined), MPI_Error_string gives the string
 * set (empty before one is set, replaced by a second call); a user error
 * handler called with an added code receives it unchanged. Argument errors:
 * a code for something that is not a class, a string for a predefined code,
 * a string too long, NULL pointers. MPICH's MPIX_Delete_error_class / code /
 * string remove them again (a class only once its codes are gone) and the
 * numbers are reused.
 */
#include "mtest.h"

#include <string.h>

#define NCLASSES 5
#define NCODES 3

static int handled_code;

static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handled_code = *code;
}

static int last_used(void)
{
    int *v = NULL, flag = 0;
    MT_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag));
    MT_CHECK(flag && v, "MPI_LASTUSEDCODE not set");
    return flag && v ? *v : 0;
}

static void check_string(int code, const char *want, const char *what)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = -1;
    MT_OK(MPI_Error_string(code, s, &len));
    MT_CHECK(strcmp(s, want) == 0 && len == (int)strlen(want),
             "%s: string '%s' (len %d), expected '%s'", what, s, len, want);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls[NCLASSES], code[NCLASSES][NCODES], c;
    char s[MPI_MAX_ERROR_STRING];

    MT_CHECK(last_used() >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE below MPI_ERR_LASTCODE");
    for (int i = 0; i < NCLASSES; i++) {
        MT_OK(MPI_Add_error_class(&cls[i]));
        MT_CHECK(cls[i] > MPI_ERR_LASTCODE, "class %d = %d is not above MPI_ERR_LASTCODE", i,
                 cls[i]);
        MT_CHECK(cls[i] <= last_used(), "class %d above MPI_LASTUSEDCODE", i);
        check_string(cls[i], "", "a new class");
        for (int j = 0; j < NCODES; j++) {
            MT_OK(MPI_Add_error_code(cls[i], &code[i][j]));
            MT_CHECK(code[i][j] <= last_used(), "code %d/%d above MPI_LASTUSEDCODE", i, j);
            check_string(code[i][j], "", "a new code");
            snprintf(s, sizeof s, "class %d code %d", i, j);
            MT_OK(MPI_Add_error_string(code[i][j], s));
        }
        snprintf(s, sizeof s, "class %d", i);
        MT_OK(MPI_Add_error_string(cls[i], s));
    }
    for (int i = 0; i < NCLASSES; i++) {
        MT_OK(MPI_Error_class(cls[i], &c));
        MT_CHECK(c == cls[i], "class of class %d: %d, expected %d", i, c, cls[i]);
        snprintf(s, sizeof s, "class %d", i);
        check_string(cls[i], s, "class string");
        for (int j = 0; j < NCODES; j++) {
            for (int k = 0; k < NCLASSES; k++)
                MT_CHECK(code[i][j] != cls[k], "code %d/%d equals class %d", i, j, k);
            if (j > 0)
                MT_CHECK(code[i][j] != code[i][j - 1], "codes %d/%d and %d repeat", i, j, j - 1);
            MT_OK(MPI_Error_class(code[i][j], &c));
            MT_CHECK(c == cls[i], "class of code %d/%d: %d, expected %d", i, j, c, cls[i]);
            snprintf(s, sizeof s, "class %d code %d", i, j);
            check_string(code[i][j], s, "code string");
        }
    }
    /* A second string replaces the first. */
    MT_OK(MPI_Add_error_string(code[0][0], "replaced"));
    check_string(code[0][0], "replaced", "replaced string");

    /* A code in a predefined class. */
    int argcode;
    MT_OK(MPI_Add_error_code(MPI_ERR_ARG, &argcode));
    MT_OK(MPI_Error_class(argcode, &c));
    MT_CHECK(c == MPI_ERR_ARG, "class of a code added to MPI_ERR_ARG: %d", c);

    /* A user handler gets the added code as it is. */
    MPI_Errhandler eh;
    MT_OK(MPI_Comm_create_errhandler(handler, &eh));
    MT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    MT_OK(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code[1][2]));
    MT_CHECK(handled_code == code[1][2], "handler got %d, expected %d", handled_code,
             code[1][2]);
    MT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MT_OK(MPI_Errhandler_free(&eh));

    /* Argument errors. */
    int junk;
    MT_ERRCLASS(MPI_Add_error_code(code[0][1], &junk), MPI_ERR_ARG, "code of a code");
    MT_ERRCLASS(MPI_Add_error_code(MPI_SUCCESS, &junk), MPI_ERR_ARG, "code of MPI_SUCCESS");
    MT_ERRCLASS(MPI_Add_error_code(-3, &junk), MPI_ERR_ARG, "code of class -3");
    MT_ERRCLASS(MPI_Add_error_code(cls[0], NULL), MPI_ERR_ARG, "NULL errorcode");
    MT_ERRCLASS(MPI_Add_error_class(NULL), MPI_ERR_ARG, "NULL errorclass");
    MT_ERRCLASS(MPI_Add_error_string(MPI_ERR_TYPE, "no"), MPI_ERR_ARG,
                "string of a predefined class");
    MT_ERRCLASS(MPI_Add_error_string(cls[0], NULL), MPI_ERR_ARG, "NULL string");
    char longstr[MPI_MAX_ERROR_STRING + 8];
    memset(longstr, 'x', sizeof longstr - 1);
    longstr[sizeof longstr - 1] = 0;
    MT_ERRCLASS(MPI_Add_error_string(cls[0], longstr), MPI_ERR_ARG, "string too long");
    snprintf(s, sizeof s, "class %d", 0);
    check_string(cls[0], s, "string after failed calls");

    /* Removal (MPICH's MPIX_Delete_error_*): a class with codes stays; once
     * its codes are gone it goes, and adding again reuses the numbers, so
     * adding and removing many times never runs out. */
    MT_ERRCLASS(MPIX_Delete_error_class(cls[1]), MPI_ERR_ARG, "delete a class with codes");
    for (int j = 0; j < NCODES; j++) {
        MT_OK(MPIX_Delete_error_string(code[1][j]));
        check_string(code[1][j], "", "string after MPIX_Delete_error_string");
        MT_OK(MPIX_Delete_error_code(code[1][j]));
    }
    MT_OK(MPIX_Delete_error_class(cls[1]));
    MT_ERRCLASS(MPI_Error_class(code[1][0], &c), MPI_ERR_ARG, "class of a deleted code");
    MT_ERRCLASS(MPIX_Delete_error_code(code[1][0]), MPI_ERR_ARG, "delete a code twice");
    MT_ERRCLASS(MPIX_Delete_error_class(MPI_ERR_ARG), MPI_ERR_ARG, "delete a predefined class");
    for (int round = 0; round < 1000; round++) {
        int k, kc;
        MT_OK(MPI_Add_error_class(&k));
        MT_OK(MPI_Add_error_code(k, &kc));
        MT_OK(MPI_Add_error_string(kc, "transient"));
        if (round == 0)
            MT_CHECK(k == cls[1], "a new class did not reuse the deleted number");
        MT_OK(MPIX_Delete_error_code(kc));
        MT_OK(MPIX_Delete_error_class(k));
    }
    return MTest_Finalize();
}

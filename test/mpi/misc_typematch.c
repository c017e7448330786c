/*
 * misc_typematch: MPI_Type_match_size and MPI_Type_create_f90_integer /
 * _real / _complex. Each returned type has the size asked for (or of the
 * kind that covers the precision and range), carries data through a
 * send-receive, and the f90 ones have the MPI_COMBINER_F90_* envelope with
 * their arguments, the same handle for the same arguments, and cannot be
 * freed. Invalid classes, sizes, precisions and ranges are MPI_ERR_ARG.
 * MPI_Pcontrol returns MPI_SUCCESS with or without extra arguments.
 */
#include "mtest.h"

#include <string.h>

static void check_size(MPI_Datatype t, int want, const char *what)
{
    int size = -1;
    MT_OK(MPI_Type_size(t, &size));
    MT_CHECK(size == want, "%s: size %d, expected %d", what, size, want);
    /* The type moves data: 3 elements to self. */
    unsigned char sbuf[3 * 32], rbuf[3 * 32];
    MTest_Fill(sbuf, sizeof sbuf, 5);
    memset(rbuf, 0, sizeof rbuf);
    MT_OK(MPI_Sendrecv(sbuf, 3, t, 0, 7, rbuf, 3, t, 0, 7, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    MT_CHECK(memcmp(sbuf, rbuf, (size_t)(3 * want)) == 0, "%s: data differs after sendrecv", what);
}

static void match(int cls, int size, const char *what)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MT_OK(MPI_Type_match_size(cls, size, &t));
    MT_CHECK(t != MPI_DATATYPE_NULL, "%s: no type", what);
    if (t != MPI_DATATYPE_NULL)
        check_size(t, size, what);
}

static void check_f90(MPI_Datatype t, int combiner, int ni, const int *ints, int size,
                      const char *what)
{
    int n_i = -1, n_a = -1, n_t = -1, comb = -1, got[2] = { -5, -5 };
    check_size(t, size, what);
    MT_OK(MPI_Type_get_envelope(t, &n_i, &n_a, &n_t, &comb));
    MT_CHECK(comb == combiner && n_i == ni && n_a == 0 && n_t == 0,
             "%s: envelope combiner %d ni %d na %d nt %d, expected %d %d 0 0", what, comb, n_i,
             n_a, n_t, combiner, ni);
    if (comb == combiner && n_i == ni) {
        MT_OK(MPI_Type_get_contents(t, 2, 0, 0, got, NULL, NULL));
        for (int i = 0; i < ni; i++)
            MT_CHECK(got[i] == ints[i], "%s: contents[%d] %d, expected %d", what, i, got[i],
                     ints[i]);
    }
    MPI_Datatype copy = t;
    MT_ERRCLASS(MPI_Type_free(&copy), MPI_ERR_TYPE, "MPI_Type_free of an f90 type");
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    match(MPI_TYPECLASS_REAL, sizeof(float), "real float");
    match(MPI_TYPECLASS_REAL, sizeof(double), "real double");
    match(MPI_TYPECLASS_REAL, sizeof(long double), "real long double");
    match(MPI_TYPECLASS_INTEGER, 1, "integer 1");
    match(MPI_TYPECLASS_INTEGER, 2, "integer 2");
    match(MPI_TYPECLASS_INTEGER, 4, "integer 4");
    match(MPI_TYPECLASS_INTEGER, 8, "integer 8");
    match(MPI_TYPECLASS_COMPLEX, 8, "complex 8");
    match(MPI_TYPECLASS_COMPLEX, 16, "complex 16");

    /* A matched integer type reduces as an integer. */
    MPI_Datatype it;
    MT_OK(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &it));
    int one = 1, sum = 0;
    MT_OK(MPI_Allreduce(&one, &sum, 1, it, MPI_SUM, MPI_COMM_WORLD));
    MT_CHECK(sum == MTest_size, "Allreduce on the matched int: %d, expected %d", sum, MTest_size);

    MPI_Datatype t;
    MT_ERRCLASS(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t), MPI_ERR_ARG, "real size 3");
    MT_ERRCLASS(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 16 * 1024, &t), MPI_ERR_ARG,
                "integer size 16K");
    MT_ERRCLASS(MPI_Type_match_size(42, 4, &t), MPI_ERR_ARG, "typeclass 42");
    MT_ERRCLASS(MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, NULL), MPI_ERR_ARG, "NULL datatype");

    /* f90 integers: range 1..2 -> 1 byte, ..4 -> 2, ..9 -> 4, ..18 -> 8. */
    static const struct { int r, size; } ints[] = { { 1, 1 }, { 4, 2 }, { 5, 4 }, { 9, 4 },
                                                   { 10, 8 }, { 18, 8 } };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        MPI_Datatype a, b;
        char what[64];
        snprintf(what, sizeof what, "f90_integer r=%d", ints[i].r);
        MT_OK(MPI_Type_create_f90_integer(ints[i].r, &a));
        MT_OK(MPI_Type_create_f90_integer(ints[i].r, &b));
        MT_CHECK(a == b, "%s: two calls gave 0x%x and 0x%x", what, (unsigned)a, (unsigned)b);
        check_f90(a, MPI_COMBINER_F90_INTEGER, 1, &ints[i].r, ints[i].size, what);
    }
    MT_ERRCLASS(MPI_Type_create_f90_integer(40, &t), MPI_ERR_ARG, "f90_integer r=40");
    MT_ERRCLASS(MPI_Type_create_f90_integer(-1, &t), MPI_ERR_ARG, "f90_integer r=-1");

    /* f90 reals: (6,37) 4 bytes, (15,307) 8; either may be MPI_UNDEFINED. */
    static const struct { int p, r, size; } reals[] = {
        { 6, 37, 4 }, { 3, MPI_UNDEFINED, 4 }, { MPI_UNDEFINED, 30, 4 }, { 7, 37, 8 },
        { 15, 300, 8 }, { 6, 38, 8 }, { MPI_UNDEFINED, 307, 8 },
    };
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
        MPI_Datatype a, b, c;
        int pr[2] = { reals[i].p, reals[i].r };
        char what[64];
        snprintf(what, sizeof what, "f90_real p=%d r=%d", reals[i].p, reals[i].r);
        MT_OK(MPI_Type_create_f90_real(reals[i].p, reals[i].r, &a));
        MT_OK(MPI_Type_create_f90_real(reals[i].p, reals[i].r, &b));
        MT_CHECK(a == b, "%s: two calls gave 0x%x and 0x%x", what, (unsigned)a, (unsigned)b);
        check_f90(a, MPI_COMBINER_F90_REAL, 2, pr, reals[i].size, what);
        snprintf(what, sizeof what, "f90_complex p=%d r=%d", reals[i].p, reals[i].r);
        MT_OK(MPI_Type_create_f90_complex(reals[i].p, reals[i].r, &c));
        MT_CHECK(c != a, "%s: same handle as the real type", what);
        check_f90(c, MPI_COMBINER_F90_COMPLEX, 2, pr, 2 * reals[i].size, what);
    }
    /* A real f90 type reduces as a real: 0.5 from every rank. */
    MPI_Datatype dt;
    MT_OK(MPI_Type_create_f90_real(15, 300, &dt));
    double half = 0.5, dsum = 0;
    MT_OK(MPI_Allreduce(&half, &dsum, 1, dt, MPI_SUM, MPI_COMM_WORLD));
    MT_CHECK(dsum == 0.5 * MTest_size, "Allreduce on f90 real: %g", dsum);
    MT_ERRCLASS(MPI_Type_create_f90_real(40, MPI_UNDEFINED, &t), MPI_ERR_ARG, "f90_real p=40");
    MT_ERRCLASS(MPI_Type_create_f90_real(MPI_UNDEFINED, 5000, &t), MPI_ERR_ARG,
                "f90_real r=5000");
    MT_ERRCLASS(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &t), MPI_ERR_ARG,
                "f90_real both undefined");
    MT_ERRCLASS(MPI_Type_create_f90_complex(6, 37, NULL), MPI_ERR_ARG, "f90_complex NULL");

    /* Profiling control: a no-op that succeeds, whatever the level. */
    MT_CHECK(MPI_Pcontrol(0) == MPI_SUCCESS, "MPI_Pcontrol(0) failed");
    MT_CHECK(MPI_Pcontrol(1) == MPI_SUCCESS, "MPI_Pcontrol(1) failed");
    MT_CHECK(MPI_Pcontrol(3, "extra", 42) == MPI_SUCCESS, "MPI_Pcontrol(3, ...) failed");
    return MTest_Finalize();
}

/*
 * misc_external: MPI_Pack_external / Unpack_external / Pack_external_size
 * with "external32". The bytes are checked against the representation
 * (big-endian, table 13.2 sizes: MPI_LONG 4 bytes, MPI_WCHAR 2,
 * MPI_LONG_DOUBLE IEEE binary128), derived types (a struct with padding, a
 * strided vector, pair types) round-trip, and sizes add up. Argument
 * errors: an unknown representation, a short buffer, a negative count, an
 * uncommitted type, a long that does not fit 4 bytes.
 */
#include "mtest.h"

#include <string.h>

static unsigned char buf[256];

/* Packs (in, count, t), n bytes, whose first sizeof want bytes must be
 * want; returns the position. */
#define pack_check(in, count, t, want, n, what) \
    pack_check_(in, count, t, want, (int)sizeof(want), n, what)
static MPI_Aint pack_check_(const void *in, int count, MPI_Datatype t, const unsigned char *want,
                            int nwant, int n, const char *what)
{
    MPI_Aint pos = 0, size = -1;
    memset(buf, 0xee, sizeof buf);
    MT_OK(MPI_Pack_external_size("external32", count, t, &size));
    MT_CHECK(size == n, "%s: Pack_external_size %ld, expected %d", what, (long)size, n);
    MT_OK(MPI_Pack_external("external32", in, count, t, buf, sizeof buf, &pos));
    MT_CHECK(pos == n, "%s: position %ld, expected %d", what, (long)pos, n);
    if (want)
        for (int i = 0; i < nwant; i++)
            if (buf[i] != want[i]) {
                MT_FAIL("%s: byte %d is 0x%02x, expected 0x%02x", what, i, buf[i], want[i]);
                break;
            }
    return pos;
}

static void unpack(void *out, int count, MPI_Datatype t, MPI_Aint n, const char *what)
{
    MPI_Aint pos = 0;
    MT_OK(MPI_Unpack_external("external32", buf, n, &pos, out, count, t));
    MT_CHECK(pos == n, "%s: unpack position %ld, expected %ld", what, (long)pos, (long)n);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Aint n;

    int ints[3] = { 1, -2, 0x01020304 }, iback[3];
    static const unsigned char xints[] = { 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 1, 2, 3, 4 };
    n = pack_check(ints, 3, MPI_INT, xints, 12, "MPI_INT");
    unpack(iback, 3, MPI_INT, n, "MPI_INT");
    MT_CHECK(memcmp(ints, iback, sizeof ints) == 0, "MPI_INT round trip");

    long longs[2] = { -5, 0x7fffffff }, lback[2];
    static const unsigned char xlongs[] = { 0xff, 0xff, 0xff, 0xfb, 0x7f, 0xff, 0xff, 0xff };
    n = pack_check(longs, 2, MPI_LONG, xlongs, 8, "MPI_LONG");
    unpack(lback, 2, MPI_LONG, n, "MPI_LONG");
    MT_CHECK(lback[0] == -5 && lback[1] == 0x7fffffff, "MPI_LONG round trip %ld %ld", lback[0],
             lback[1]);

    double d = 1.0, dback;
    static const unsigned char xd[] = { 0x3f, 0xf0, 0, 0, 0, 0, 0, 0 };
    n = pack_check(&d, 1, MPI_DOUBLE, xd, 8, "MPI_DOUBLE");
    unpack(&dback, 1, MPI_DOUBLE, n, "MPI_DOUBLE");
    MT_CHECK(dback == 1.0, "MPI_DOUBLE round trip %g", dback);

    float cf[2] = { 1.0f, 2.0f };
    static const unsigned char xcf[] = { 0x3f, 0x80, 0, 0, 0x40, 0, 0, 0 };
    pack_check(cf, 1, MPI_C_FLOAT_COMPLEX, xcf, 8, "MPI_C_FLOAT_COMPLEX");

    wchar_t w = 0x263a;
    static const unsigned char xw[] = { 0x26, 0x3a };
    pack_check(&w, 1, MPI_WCHAR, xw, 2, "MPI_WCHAR");

    long double ld[2] = { 1.0L, -2.5L }, ldback[2];
    static const unsigned char xld[] = { 0x3f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                         0xc0, 0x00, 0x40 };
    n = pack_check_(ld, 2, MPI_LONG_DOUBLE, NULL, 0, 32, "MPI_LONG_DOUBLE");
    MT_CHECK(memcmp(buf, xld, 16) == 0 && memcmp(buf + 16, xld + 16, 3) == 0,
             "MPI_LONG_DOUBLE: not IEEE binary128 1.0 and -2.5");
    unpack(ldback, 2, MPI_LONG_DOUBLE, n, "MPI_LONG_DOUBLE");
    MT_CHECK(ldback[0] == 1.0L && ldback[1] == -2.5L, "MPI_LONG_DOUBLE round trip");

    /* Pair types: the value, then the int, no padding. */
    struct { double v; int i; } di = { 2.0, 7 }, diback;
    static const unsigned char xdi[] = { 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7 };
    n = pack_check(&di, 1, MPI_DOUBLE_INT, xdi, 12, "MPI_DOUBLE_INT");
    unpack(&diback, 1, MPI_DOUBLE_INT, n, "MPI_DOUBLE_INT");
    MT_CHECK(diback.v == 2.0 && diback.i == 7, "MPI_DOUBLE_INT round trip");
    struct { long v; int i; } li = { -1, 3 }, liback;
    static const unsigned char xli[] = { 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 3 };
    n = pack_check(&li, 1, MPI_LONG_INT, xli, 8, "MPI_LONG_INT");
    unpack(&liback, 1, MPI_LONG_INT, n, "MPI_LONG_INT");
    MT_CHECK(liback.v == -1 && liback.i == 3, "MPI_LONG_INT round trip");
    pack_check_(&li, 1, MPI_SHORT_INT, NULL, 0, 6, "MPI_SHORT_INT");

    /* A struct with padding: 1 + 4 + 8 bytes. */
    struct s { char c; int i; double d; } sv[2] = { { 'a', 258, 0.5 }, { 'b', -1, -4.0 } },
                                          sback[2];
    int bl[3] = { 1, 1, 1 };
    MPI_Aint disp[3] = { offsetof(struct s, c), offsetof(struct s, i), offsetof(struct s, d) };
    MPI_Datatype tys[3] = { MPI_CHAR, MPI_INT, MPI_DOUBLE }, st, stx;
    MT_OK(MPI_Type_create_struct(3, bl, disp, tys, &st));
    MT_OK(MPI_Type_create_resized(st, 0, sizeof(struct s), &stx));
    MT_OK(MPI_Type_commit(&stx));
    static const unsigned char xs[] = { 'a', 0, 0, 1, 2, 0x3f, 0xe0, 0, 0, 0, 0, 0, 0 };
    n = pack_check(sv, 2, stx, xs, 26, "struct");
    memset(sback, 0, sizeof sback);
    unpack(sback, 2, stx, n, "struct");
    MT_CHECK(sback[1].c == 'b' && sback[1].i == -1 && sback[1].d == -4.0 && sback[0].i == 258,
             "struct round trip");

    /* A strided vector of shorts: every other one. */
    short sh[6] = { 1, 100, 2, 100, 3, 100 }, shback[6] = { 0 };
    MPI_Datatype vec;
    MT_OK(MPI_Type_vector(3, 1, 2, MPI_SHORT, &vec));
    MT_OK(MPI_Type_commit(&vec));
    static const unsigned char xsh[] = { 0, 1, 0, 2, 0, 3 };
    n = pack_check(sh, 1, vec, xsh, 6, "vector");
    unpack(shback, 1, vec, n, "vector");
    MT_CHECK(shback[0] == 1 && shback[2] == 2 && shback[4] == 3 && shback[1] == 0,
             "vector round trip");

    /* Argument errors. */
    MPI_Aint pos = 0, size;
    MT_ERRCLASS(MPI_Pack_external("native", ints, 1, MPI_INT, buf, sizeof buf, &pos),
                MPI_ERR_UNSUPPORTED_DATAREP, "datarep native");
    MT_ERRCLASS(MPI_Pack_external("external32", ints, 3, MPI_INT, buf, 11, &pos),
                MPI_ERR_TRUNCATE, "11-byte buffer");
    MT_ERRCLASS(MPI_Pack_external_size("external32", -1, MPI_INT, &size), MPI_ERR_COUNT,
                "negative count");
    MT_ERRCLASS(MPI_Pack_external_size("external32", 1, st, &size), MPI_ERR_TYPE,
                "uncommitted type");
    long big = 1L << 40;
    MT_ERRCLASS(MPI_Pack_external("external32", &big, 1, MPI_LONG, buf, sizeof buf, &pos),
                MPI_ERR_CONVERSION, "a long beyond 32 bits");
    MT_CHECK(pos == 0, "position moved by failed calls: %ld", (long)pos);
    MT_OK(MPI_Type_free(&st));
    MT_OK(MPI_Type_free(&stx));
    MT_OK(MPI_Type_free(&vec));
    return MTest_Finalize();
}

/*
 * comm_info: info objects. Set / get / valuelen / nkeys / nthkey (keys in
 * the order first set, overwrite keeps the place), longest legal key and
 * value, truncation by Info_get, delete, dup independence, free, the error
 * classes (MPI_ERR_INFO_KEY, MPI_ERR_INFO_VALUE, MPI_ERR_INFO_NOKEY,
 * MPI_ERR_ARG for nthkey out of range), MPI_INFO_ENV, and hints on a
 * communicator (Comm_set_info / Comm_get_info, copied by Comm_dup, replaced
 * by Comm_dup_with_info).
 */
#include "mtest.h"

#include <string.h>

static void check_value(MPI_Info info, const char *key, const char *expect, const char *what)
{
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = -1, len = -1;
    MT_OK(MPI_Info_get_valuelen(info, key, &len, &flag));
    if (!expect) {
        MT_CHECK(flag == 0, "%s: key %s present", what, key);
        return;
    }
    MT_CHECK(flag && len == (int)strlen(expect), "%s: valuelen of %s: flag %d len %d", what, key,
             flag, len);
    flag = -1;
    MT_OK(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag));
    MT_CHECK(flag && !strcmp(v, expect), "%s: %s = '%s', expected '%s'", what, key,
             flag ? v : "(unset)", expect);
}

/* Communicator hints: MPI-4.0 lets Comm_get_info return only the hints the
 * library uses (MPICH and rdmpi drop unknown ones); if the key is there, it
 * must have the value set. */
static void check_hint(MPI_Info info, const char *key, const char *expect, const char *what)
{
    int flag = 0, len = -1;
    MT_OK(MPI_Info_get_valuelen(info, key, &len, &flag));
    if (flag)
        check_value(info, key, expect, what);
}

static void check_keys(MPI_Info info, int n, const char **keys, const char *what)
{
    int nk = -1;
    MT_OK(MPI_Info_get_nkeys(info, &nk));
    MT_CHECK(nk == n, "%s: %d keys, expected %d", what, nk, n);
    for (int i = 0; i < n && i < nk; i++) {
        char k[MPI_MAX_INFO_KEY + 1] = "";
        MT_OK(MPI_Info_get_nthkey(info, i, k));
        MT_CHECK(!strcmp(k, keys[i]), "%s: key %d is '%s', expected '%s'", what, i, k, keys[i]);
    }
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Info info, copy;
    static char longkey[MPI_MAX_INFO_KEY + 2], longval[MPI_MAX_INFO_VAL + 2];

    MT_OK(MPI_Info_create(&info));
    check_keys(info, 0, NULL, "empty");
    MT_OK(MPI_Info_set(info, "alpha", "1"));
    MT_OK(MPI_Info_set(info, "beta", "two"));
    MT_OK(MPI_Info_set(info, "gamma", ""));
    MT_OK(MPI_Info_set(info, "alpha", "one"));
    const char *k3[] = { "alpha", "beta", "gamma" };
    check_keys(info, 3, k3, "three keys");
    check_value(info, "alpha", "one", "overwritten");
    check_value(info, "beta", "two", "set");
    check_value(info, "gamma", "", "empty value");
    check_value(info, "delta", NULL, "never set");

    /* longest legal key and value (on their own object: MPICH 4.0's
     * Info_get_nthkey returns such a key cut by one character) */
    {
        MPI_Info big;
        memset(longkey, 'k', MPI_MAX_INFO_KEY);
        memset(longval, 'v', MPI_MAX_INFO_VAL);
        MT_OK(MPI_Info_create(&big));
        MT_OK(MPI_Info_set(big, longkey, longval));
        check_value(big, longkey, longval, "longest key and value");
        MT_OK(MPI_Info_free(&big));
    }
    MT_OK(MPI_Info_set(info, "zeta", "last"));

    /* truncation: valuelen characters and a NUL (the contents only: MPICH
     * also returns MPI_ERR_INFO_VALUE here, MPI-3.1 says the value is
     * truncated) */
    {
        char v[8];
        int flag = 0;
        memset(v, 'x', sizeof(v));
        MPI_Info_get(info, "beta", 2, v, &flag);
        MT_CHECK(flag && !strcmp(v, "tw"), "truncated get: flag %d '%.7s'", flag, v);
    }

    /* dup is independent */
    MT_OK(MPI_Info_dup(info, &copy));
    MT_OK(MPI_Info_delete(info, "beta"));
    MT_OK(MPI_Info_set(copy, "epsilon", "5"));
    check_value(info, "beta", NULL, "deleted");
    check_value(copy, "beta", "two", "dup keeps the deleted key");
    check_value(info, "epsilon", NULL, "set on the dup only");
    const char *k3b[] = { "alpha", "gamma", "zeta" };
    check_keys(info, 3, k3b, "after delete");

    /* errors */
    longkey[MPI_MAX_INFO_KEY] = 'k';
    longval[MPI_MAX_INFO_VAL] = 'v';
    MT_ERRCLASS(MPI_Info_set(info, longkey, "v"), MPI_ERR_INFO_KEY, "key too long");
    MT_ERRCLASS(MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY, "empty key");
    MT_ERRCLASS(MPI_Info_set(info, "k", longval), MPI_ERR_INFO_VALUE, "value too long");
    MT_ERRCLASS(MPI_Info_delete(info, "nosuchkey"), MPI_ERR_INFO_NOKEY, "delete of a missing key");
    {
        int flag, len;
        char v[4];
        MT_ERRCLASS(MPI_Info_get(info, longkey, 3, v, &flag), MPI_ERR_INFO_KEY,
                    "get with a key too long");
        MT_ERRCLASS(MPI_Info_get_valuelen(info, longkey, &len, &flag), MPI_ERR_INFO_KEY,
                    "valuelen with a key too long");
    }
    {
        char k[MPI_MAX_INFO_KEY + 1];
        MT_ERRCLASS(MPI_Info_get_nthkey(info, 3, k), MPI_ERR_ARG, "nthkey n = nkeys");
        MT_ERRCLASS(MPI_Info_get_nthkey(info, -1, k), MPI_ERR_ARG, "nthkey n = -1");
    }
    check_keys(info, 3, k3b, "after the errors");

    MT_OK(MPI_Info_free(&copy));
    MT_CHECK(copy == MPI_INFO_NULL, "freed info is not MPI_INFO_NULL");

    /* MPI_INFO_ENV can be read and copied */
    {
        int n = -1, n2 = -2;
        MPI_Info env;
        MT_OK(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
        MT_CHECK(n >= 0, "MPI_INFO_ENV has %d keys", n);
        MT_OK(MPI_Info_dup(MPI_INFO_ENV, &env));
        MT_OK(MPI_Info_get_nkeys(env, &n2));
        MT_CHECK(n == n2, "dup of MPI_INFO_ENV has %d keys, expected %d", n2, n);
        MT_OK(MPI_Info_free(&env));
    }

    /* hints on a communicator */
    {
        MPI_Comm c, d, e;
        MPI_Info got, hints;
        MT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        MT_OK(MPI_Info_create(&hints));
        MT_OK(MPI_Info_set(hints, "mpi_assert_no_any_tag", "true"));
        MT_OK(MPI_Info_set(hints, "rdmpi_unknown_hint", "yes"));
        MT_OK(MPI_Comm_set_info(c, hints));
        MT_OK(MPI_Info_set(hints, "mpi_assert_no_any_tag", "false"));
        MT_OK(MPI_Comm_get_info(c, &got));
        check_hint(got, "mpi_assert_no_any_tag", "true", "Comm_get_info");
        check_value(got, "rdmpi_unknown_hint", NULL, "Comm_get_info (an unknown key)");
        MT_OK(MPI_Info_free(&got));
        MT_OK(MPI_Comm_dup(c, &d));
        MT_OK(MPI_Comm_get_info(d, &got));
        check_hint(got, "mpi_assert_no_any_tag", "true", "Comm_get_info of a dup");
        MT_OK(MPI_Info_free(&got));
        MT_OK(MPI_Comm_dup_with_info(c, hints, &e));
        MT_OK(MPI_Comm_get_info(e, &got));
        check_hint(got, "mpi_assert_no_any_tag", "false", "Comm_get_info of dup_with_info");
        check_value(got, "rdmpi_unknown_hint", NULL, "Comm_get_info of dup_with_info (unknown)");
        MT_OK(MPI_Info_free(&got));
        MTest_Check_comm_works(e, "dup_with_info");
        MT_OK(MPI_Info_free(&hints));
        MT_OK(MPI_Comm_free(&e));
        MT_OK(MPI_Comm_free(&d));
        MT_OK(MPI_Comm_free(&c));
    }

    MT_OK(MPI_Info_free(&info));
    return MTest_Finalize();
}

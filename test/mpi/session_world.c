/*
 * session_world: sessions together with the world model (MPI-4.0 11.3). A
 * session opened before MPI_Init keeps its communicator working through
 * MPI_Init and after MPI_Finalize (the runtime ends with the last user);
 * sessions opened and closed inside MPI_Init .. MPI_Finalize, several at
 * once, leave MPI_COMM_WORLD working; MPI_Initialized / MPI_Finalized follow
 * the world model only; an invalid session handle is an MPI_ERR_SESSION
 * error on the default handler; MPI_Info_create_env gives the same object
 * before MPI_Init, inside it and after MPI_Finalize.
 */
#include "mtest.h"

#include <string.h>

/* Every key of a equals the same key of b, and both have as many keys. */
static int same_info(MPI_Info a, MPI_Info b)
{
    int na, nb, flag;
    MPI_Info_get_nkeys(a, &na);
    MPI_Info_get_nkeys(b, &nb);
    if (na != nb)
        return 0;
    for (int i = 0; i < na; i++) {
        char key[MPI_MAX_INFO_KEY + 1], va[256], vb[256];
        int la = sizeof(va), lb = sizeof(vb);
        MPI_Info_get_nthkey(a, i, key);
        MPI_Info_get_string(a, key, &la, va, &flag);
        MPI_Info_get_string(b, key, &lb, vb, &flag);
        if (!flag || strcmp(va, vb))
            return 0;
    }
    return 1;
}

/* A communicator over mpi://WORLD of session s checked with a reduction. */
static void use_session(MPI_Session s, const char *tag, int size)
{
    MPI_Group g;
    MPI_Comm c;
    int one = 1, n = 0;
    MT_OK(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MT_OK(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    MT_OK(MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, c));
    MT_CHECK(n == size, "%s: %d processes counted, expected %d", tag, n, size);
    MT_OK(MPI_Comm_free(&c));
    MT_OK(MPI_Group_free(&g));
}

int main(int argc, char **argv)
{
    MPI_Session early, a, b;
    MPI_Group g;
    MPI_Comm ec;
    MPI_Info env0, env1, env2;
    int flag, size, rank;

    MT_OK(MPI_Info_create_env(argc, argv, &env0));
    MT_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &early));
    MT_OK(MPI_Group_from_session_pset(early, "mpi://WORLD", &g));
    MT_OK(MPI_Comm_create_from_group(g, "early", MPI_INFO_NULL, MPI_ERRORS_RETURN, &ec));
    MT_OK(MPI_Group_free(&g));

    MTest_Init(&argc, &argv);
    MT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MT_OK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MT_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MT_OK(MPI_Initialized(&flag));
    MT_CHECK(flag, "MPI_Initialized is false after MPI_Init");
    MT_OK(MPI_Info_create_env(argc, argv, &env1));
    MT_CHECK(same_info(env0, env1), "MPI_Info_create_env differs before and after MPI_Init");

    /* sessions inside the world model, two at once, then one again */
    MT_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &a));
    MT_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &b));
    use_session(a, "a", size);
    use_session(b, "b", size);
    MT_OK(MPI_Session_finalize(&a));
    use_session(b, "b again", size);
    MT_OK(MPI_Session_finalize(&b));
    MT_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &a));
    use_session(a, "a again", size);
    MT_OK(MPI_Session_finalize(&a));

    /* an invalid session is an error of the default handler */
    int rc = MPI_Session_finalize(&a);
    MT_CHECK(MTest_Errclass(rc) == MPI_ERR_SESSION, "finalize of MPI_SESSION_NULL: class %d",
             MTest_Errclass(rc));
    int n;
    rc = MPI_Session_get_num_psets((MPI_Session)0x12345, MPI_INFO_NULL, &n);
    MT_CHECK(MTest_Errclass(rc) == MPI_ERR_SESSION, "invalid session: class %d",
             MTest_Errclass(rc));

    /* the world still works */
    int sum = 0;
    MT_OK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MT_CHECK(sum == size * (size - 1) / 2, "world sum %d", sum);

    int errs = MTest_Finalize();

    /* the early session outlives the world model */
    MT_OK(MPI_Finalized(&flag));
    MT_CHECK(flag, "MPI_Finalized is false after MPI_Finalize");
    int in = rank + 1, max = 0;
    MT_OK(MPI_Allreduce(&in, &max, 1, MPI_INT, MPI_MAX, ec));
    MT_CHECK(max == size, "after MPI_Finalize: max %d, expected %d", max, size);
    MT_OK(MPI_Comm_free(&ec));
    MT_OK(MPI_Session_finalize(&early));

    MT_OK(MPI_Info_create_env(argc, argv, &env2));
    MT_CHECK(same_info(env0, env2), "MPI_Info_create_env differs after MPI_Finalize");
    MT_OK(MPI_Info_free(&env0));
    MT_OK(MPI_Info_free(&env1));
    MT_OK(MPI_Info_free(&env2));
    return errs || MTest_errs ? 1 : 0;
}

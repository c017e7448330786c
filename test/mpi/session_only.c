/*
 * session_only: the sessions model without MPI_Init (MPI-4.0 11.3). Info
 * objects before the runtime starts, MPI_Session_init with a thread level
 * hint and MPI_Session_get_info, the process sets mpi://WORLD and
 * mpi://SELF (names, lengths, mpi_size, groups, names without case),
 * MPI_Comm_create_from_group on both with data checks, two sessions at
 * once, MPI_Intercomm_create_from_groups between the even and odd ranks,
 * session error handlers (create, set, get, call; a user handler sees the
 * session) and argument errors, info objects after the last finalize.
 * The verdict is gathered over a communicator made from mpi://WORLD.
 */
#include "mtest.h"

#include <stdlib.h>
#include <string.h>

static int handler_calls;
static MPI_Session handler_session;
static int handler_class;

static void session_handler(MPI_Session *s, int *code, ...)
{
    handler_calls++;
    handler_session = *s;
    MPI_Error_class(*code, &handler_class);
}

static void check_psets(MPI_Session s, int size)
{
    int n = 0, len, flag;
    MT_OK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    MT_CHECK(n >= 2, "%d process sets, expected at least 2", n);
    int world = 0, self = 0;
    for (int i = 0; i < n; i++) {
        char name[64], val[32];
        len = 0;
        MT_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
        MT_CHECK(len > 1 && len <= (int)sizeof(name), "pset %d: length %d", i, len);
        MT_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        MT_CHECK((int)strlen(name) + 1 == len, "pset %d: \"%s\" with length %d", i, name, len);
        MPI_Info info;
        MT_OK(MPI_Session_get_pset_info(s, name, &info));
        MT_OK(MPI_Info_get(info, "mpi_size", sizeof(val) - 1, val, &flag));
        MT_CHECK(flag, "pset %s: no mpi_size", name);
        MPI_Group g;
        int gsize = -1;
        MT_OK(MPI_Group_from_session_pset(s, name, &g));
        MT_OK(MPI_Group_size(g, &gsize));
        MT_CHECK(flag && atoi(val) == gsize, "pset %s: mpi_size %s, group of %d", name, val,
                 gsize);
        if (!strcmp(name, "mpi://WORLD")) {
            world = 1;
            MT_CHECK(gsize == size, "mpi://WORLD has %d processes, expected %d", gsize, size);
        } else if (!strcmp(name, "mpi://SELF")) {
            self = 1;
            MT_CHECK(gsize == 1, "mpi://SELF has %d processes", gsize);
        }
        MT_OK(MPI_Group_free(&g));
        MT_OK(MPI_Info_free(&info));
    }
    MT_CHECK(world && self, "mpi://WORLD %d, mpi://SELF %d", world, self);
    /* a truncated name still reports the whole length */
    char small[4];
    len = sizeof(small);
    MT_OK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, small));
    MT_CHECK(len > (int)sizeof(small) && strlen(small) == sizeof(small) - 1,
             "truncated name: length %d, \"%s\"", len, small);
}

static void check_errors(MPI_Session s)
{
    MPI_Errhandler eh, got;
    MPI_Group g;
    int len = 0;
    MT_OK(MPI_Session_create_errhandler(session_handler, &eh));
    MT_OK(MPI_Session_set_errhandler(s, eh));
    MT_OK(MPI_Session_get_errhandler(s, &got));
    MT_CHECK(got == eh, "get_errhandler gave 0x%x, set 0x%x", (unsigned)got, (unsigned)eh);
    MT_OK(MPI_Errhandler_free(&got));
    MT_OK(MPI_Errhandler_free(&eh));

    handler_calls = 0;
    int rc = MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g);
    MT_CHECK(rc != MPI_SUCCESS && handler_calls == 1 && handler_session == s &&
                 handler_class == MPI_ERR_ARG,
             "unknown pset: rc %d, %d handler calls, class %d", rc, handler_calls, handler_class);
    rc = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 99, &len, NULL);
    MT_CHECK(rc != MPI_SUCCESS && handler_calls == 2, "n = 99: rc %d, %d calls", rc,
             handler_calls);
    rc = MPI_Session_get_num_psets(s, MPI_INFO_NULL, NULL);
    MT_CHECK(rc != MPI_SUCCESS && handler_calls == 3, "NULL npset: rc %d", rc);
    MT_OK(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    MT_CHECK(handler_calls == 4 && handler_class == MPI_ERR_OTHER,
             "call_errhandler: %d calls, class %d", handler_calls, handler_class);

    MT_OK(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    rc = MPI_Session_get_pset_info(s, "no-such-set", &(MPI_Info){ 0 });
    MT_CHECK(MTest_Errclass(rc) == MPI_ERR_ARG, "unknown pset info: class %d",
             MTest_Errclass(rc));
    /* a communicator error handler is not a session one */
    MT_OK(MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)session_handler, &eh));
    rc = MPI_Session_set_errhandler(s, eh);
    MT_CHECK(MTest_Errclass(rc) == MPI_ERR_ARG, "comm handler on a session: class %d",
             MTest_Errclass(rc));
    MT_OK(MPI_Errhandler_free(&eh));
}

int main(int argc, char **argv)
{
    MPI_Info sinfo, got;
    MPI_Session s, s2;
    MPI_Group wg, sg;
    MPI_Comm wc, sc, c2;
    char val[64];
    int flag, rank, size;

    /* info objects before any runtime */
    MT_OK(MPI_Info_create(&sinfo));
    MT_OK(MPI_Info_set(sinfo, "thread_level", "MPI_THREAD_MULTIPLE"));
    MT_OK(MPI_Info_set(sinfo, "my_key", "my_value"));

    MT_OK(MPI_Session_init(sinfo, MPI_ERRORS_RETURN, &s));
    MT_OK(MPI_Session_get_info(s, &got));
    MT_OK(MPI_Info_get(got, "thread_level", sizeof(val) - 1, val, &flag));
    MT_CHECK(flag && !strcmp(val, "MPI_THREAD_MULTIPLE"), "thread_level %s",
             flag ? val : "(none)");
    MT_OK(MPI_Info_free(&got));
    MT_OK(MPI_Info_free(&sinfo));
    flag = 1;
    MT_OK(MPI_Initialized(&flag));
    MT_CHECK(!flag, "MPI_Initialized is true without MPI_Init");

    MT_OK(MPI_Group_from_session_pset(s, "mpi://WORLD", &wg));
    MT_OK(MPI_Comm_create_from_group(wg, "org.rdmpi.test.world", MPI_INFO_NULL,
                                     MPI_ERRORS_RETURN, &wc));
    MT_OK(MPI_Comm_rank(wc, &rank));
    MT_OK(MPI_Comm_size(wc, &size));
    MTest_rank = rank;
    check_psets(s, size);

    /* collectives and point-to-point on the new communicator */
    int sum = -1, left, right = (rank + 1) % size;
    MT_OK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, wc));
    MT_CHECK(sum == size * (size - 1) / 2, "sum of ranks %d", sum);
    MT_OK(MPI_Sendrecv(&rank, 1, MPI_INT, right, 5, &left, 1, MPI_INT, (rank + size - 1) % size,
                       5, wc, MPI_STATUS_IGNORE));
    MT_CHECK(left == (rank + size - 1) % size, "ring: got %d", left);
    MPI_Errhandler eh;
    MT_OK(MPI_Comm_get_errhandler(wc, &eh));
    MT_CHECK(eh == MPI_ERRORS_RETURN, "the new communicator's handler is 0x%x", (unsigned)eh);
    MT_OK(MPI_Errhandler_free(&eh));

    /* mpi://self, named without case */
    MT_OK(MPI_Group_from_session_pset(s, "mpi://self", &sg));
    MT_OK(MPI_Comm_create_from_group(sg, "self", MPI_INFO_NULL, MPI_ERRORS_RETURN, &sc));
    int in = 42 + rank, out = -1;
    MT_OK(MPI_Sendrecv(&in, 1, MPI_INT, 0, 1, &out, 1, MPI_INT, 0, 1, sc, MPI_STATUS_IGNORE));
    MT_CHECK(out == 42 + rank, "self: got %d", out);

    /* a second session and a second communicator over the same group */
    MT_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2));
    MPI_Group wg2;
    MT_OK(MPI_Group_from_session_pset(s2, "mpi://WORLD", &wg2));
    MT_OK(MPI_Comm_create_from_group(wg2, "second", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c2));
    int bc = rank == 0 ? 777 : 0;
    MT_OK(MPI_Bcast(&bc, 1, MPI_INT, 0, c2));
    MT_CHECK(bc == 777, "bcast on the second session's communicator: %d", bc);
    MT_OK(MPI_Comm_free(&c2));
    MT_OK(MPI_Group_free(&wg2));
    MT_OK(MPI_Session_finalize(&s2));
    MT_CHECK(s2 == MPI_SESSION_NULL, "finalized session is not MPI_SESSION_NULL");

    /* even ranks against odd ranks */
    if (size >= 2) {
        int ne = (size + 1) / 2, no = size / 2, *ev = malloc(ne * sizeof(int)),
            *od = malloc(no * sizeof(int));
        for (int i = 0; i < size; i++)
            (i % 2 ? od : ev)[i / 2] = i;
        MPI_Group ge, go;
        MPI_Comm ic;
        MT_OK(MPI_Group_incl(wg, ne, ev, &ge));
        MT_OK(MPI_Group_incl(wg, no, od, &go));
        int even = rank % 2 == 0;
        MT_OK(MPI_Intercomm_create_from_groups(even ? ge : go, 0, even ? go : ge, 0, "evenodd",
                                               MPI_INFO_NULL, MPI_ERRORS_RETURN, &ic));
        int flag2 = 0, rsize = 0, lrank;
        MT_OK(MPI_Comm_test_inter(ic, &flag2));
        MT_OK(MPI_Comm_remote_size(ic, &rsize));
        MT_OK(MPI_Comm_rank(ic, &lrank));
        MT_CHECK(flag2 && rsize == (even ? no : ne) && lrank == rank / 2,
                 "intercommunicator: inter %d, remote size %d, rank %d", flag2, rsize, lrank);
        /* local rank 0 of each side swaps its world rank with the other */
        if (lrank == 0) {
            int mine = rank, theirs = -1;
            MT_OK(MPI_Sendrecv(&mine, 1, MPI_INT, 0, 3, &theirs, 1, MPI_INT, 0, 3, ic,
                               MPI_STATUS_IGNORE));
            MT_CHECK(theirs == (even ? 1 : 0), "leader got %d", theirs);
        }
        /* argument errors: overlapping groups, a bad leader */
        MPI_Comm bad;
        int rc = MPI_Intercomm_create_from_groups(wg, 0, wg, 0, "x", MPI_INFO_NULL,
                                                  MPI_ERRORS_RETURN, &bad);
        MT_CHECK(MTest_Errclass(rc) == MPI_ERR_GROUP, "overlapping groups: class %d",
                 MTest_Errclass(rc));
        rc = MPI_Intercomm_create_from_groups(even ? ge : go, 99, even ? go : ge, 0, "x",
                                              MPI_INFO_NULL, MPI_ERRORS_RETURN, &bad);
        MT_CHECK(MTest_Errclass(rc) == MPI_ERR_RANK, "leader 99: class %d", MTest_Errclass(rc));
        MT_OK(MPI_Comm_free(&ic));
        MT_OK(MPI_Group_free(&ge));
        MT_OK(MPI_Group_free(&go));
        free(ev);
        free(od);
    }

    /* constructor argument errors go to the handler given for the new
     * communicator */
    MPI_Comm bad;
    int rc = MPI_Comm_create_from_group(MPI_GROUP_NULL, "x", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                        &bad);
    MT_CHECK(MTest_Errclass(rc) == MPI_ERR_GROUP, "MPI_GROUP_NULL: class %d", MTest_Errclass(rc));
    rc = MPI_Comm_create_from_group(wg, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN, &bad);
    MT_CHECK(MTest_Errclass(rc) == MPI_ERR_ARG, "NULL tag: class %d", MTest_Errclass(rc));

    check_errors(s);

    /* the verdict, then the end of the runtime */
    int errs = MTest_errs, all = 0;
    MT_OK(MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, wc));
    MT_OK(MPI_Comm_free(&wc));
    MT_OK(MPI_Comm_free(&sc));
    MT_OK(MPI_Group_free(&wg));
    MT_OK(MPI_Group_free(&sg));
    MT_OK(MPI_Session_finalize(&s));

    /* info objects after the runtime ended */
    MPI_Info after;
    MT_OK(MPI_Info_create(&after));
    MT_OK(MPI_Info_set(after, "k", "v"));
    MT_OK(MPI_Info_get(after, "k", sizeof(val) - 1, val, &flag));
    MT_CHECK(flag && !strcmp(val, "v"), "info after the end: %s", flag ? val : "(none)");
    MT_OK(MPI_Info_free(&after));
    flag = 1;
    MT_OK(MPI_Finalized(&flag));
    MT_CHECK(!flag, "MPI_Finalized is true without MPI_Init");

    all += MTest_errs - errs;
    if (rank == 0)
        printf(all ? " Found %d errors\n" : " No Errors\n", all);
    return all ? 1 : 0;
}

/*
 * misc_greq: generalized requests and status helpers. MPI_Grequest_start /
 * complete: the request is not done before MPI_Grequest_complete; Wait and
 * Test report the status query_fn fills (source, tag, count set with
 * MPI_Status_set_elements_x, cancelled) and its error, call free_fn once
 * with extra_state; MPI_Request_get_status asks query_fn without freeing;
 * MPI_Cancel calls cancel_fn with whether the request completed; a request
 * freed before completion gets free_fn at MPI_Grequest_complete; Waitall
 * reports a failing query_fn as MPI_ERR_IN_STATUS. MPI_Status_set_elements_x
 * beyond 2^31, and the status conversions C <-> Fortran. Argument
 * errors: MPI_Grequest_complete on MPI_REQUEST_NULL or an ordinary request,
 * NULL callbacks, statuses that are IGNORE.
 */
#include "mtest.h"

#include <string.h>

typedef struct state {
    int queries, frees, cancels, cancel_complete;
    int query_err;        /* what query_fn returns */
    int src;
} state_t;

static int query_fn(void *extra, MPI_Status *st)
{
    state_t *s = extra;
    s->queries++;
    st->MPI_SOURCE = s->src;
    st->MPI_TAG = 7;
    MPI_Status_set_elements_x(st, MPI_INT, 5);
    MPI_Status_set_cancelled(st, s->cancels > 0);
    return s->query_err;
}

static int free_fn(void *extra)
{
    ((state_t *)extra)->frees++;
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    state_t *s = extra;
    s->cancels++;
    s->cancel_complete = complete;
    return MPI_SUCCESS;
}

static MPI_Request start(state_t *s, int src)
{
    MPI_Request r = MPI_REQUEST_NULL;
    memset(s, 0, sizeof *s);
    s->src = src;
    MT_OK(MPI_Grequest_start(query_fn, free_fn, cancel_fn, s, &r));
    return r;
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    state_t s, s2;
    MPI_Status st;
    int flag = -1, count = -1;

    /* Not done until completed; Wait reports query_fn's status. */
    MPI_Request r = start(&s, 3);
    MT_OK(MPI_Test(&r, &flag, &st));
    MT_CHECK(flag == 0 && r != MPI_REQUEST_NULL, "Test before complete: flag %d", flag);
    MT_OK(MPI_Request_get_status(r, &flag, &st));
    MT_CHECK(flag == 0 && s.queries == 0, "get_status before complete: flag %d queries %d",
             flag, s.queries);
    MT_OK(MPI_Grequest_complete(r));
    MT_OK(MPI_Request_get_status(r, &flag, &st));
    MT_CHECK(flag == 1 && s.queries == 1 && s.frees == 0 && st.MPI_SOURCE == 3,
             "get_status after complete: flag %d queries %d frees %d source %d", flag,
             s.queries, s.frees, st.MPI_SOURCE);
    MT_OK(MPI_Wait(&r, &st));
    MT_CHECK(r == MPI_REQUEST_NULL, "request not MPI_REQUEST_NULL after Wait");
    MT_CHECK(s.queries == 2 && s.frees == 1, "Wait: queries %d frees %d", s.queries, s.frees);
    MT_OK(MPI_Get_count(&st, MPI_INT, &count));
    MT_CHECK(st.MPI_SOURCE == 3 && st.MPI_TAG == 7 && count == 5,
             "Wait status: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, count);

    /* Test completes it too; MPI_STATUS_IGNORE still runs both callbacks. */
    r = start(&s, 1);
    MT_OK(MPI_Grequest_complete(r));
    MT_OK(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    MT_CHECK(flag == 1 && r == MPI_REQUEST_NULL && s.queries == 1 && s.frees == 1,
             "Test after complete: flag %d queries %d frees %d", flag, s.queries, s.frees);

    /* Cancel before and after completion. */
    r = start(&s, 0);
    MT_OK(MPI_Cancel(&r));
    MT_CHECK(s.cancels == 1 && s.cancel_complete == 0, "cancel: %d calls, complete %d",
             s.cancels, s.cancel_complete);
    MT_OK(MPI_Grequest_complete(r));
    MT_OK(MPI_Cancel(&r));
    MT_CHECK(s.cancels == 2 && s.cancel_complete == 1, "cancel after complete: complete %d",
             s.cancel_complete);
    MT_OK(MPI_Wait(&r, &st));
    MT_OK(MPI_Test_cancelled(&st, &flag));
    MT_CHECK(flag == 1, "query_fn's cancelled flag not reported");

    /* Freed before it completes: free_fn runs at MPI_Grequest_complete. */
    r = start(&s, 0);
    MPI_Request keep = r;
    MT_OK(MPI_Request_free(&r));
    MT_CHECK(s.frees == 0, "free_fn ran before completion");
    MT_OK(MPI_Grequest_complete(keep));
    MT_CHECK(s.frees == 1 && s.queries == 0, "after complete of a freed request: frees %d "
             "queries %d", s.frees, s.queries);

    /* A failing query_fn: Wait returns its error, Waitall MPI_ERR_IN_STATUS. */
    r = start(&s, 0);
    s.query_err = MPI_ERR_OTHER;
    MT_OK(MPI_Grequest_complete(r));
    MT_ERRCLASS(MPI_Wait(&r, &st), MPI_ERR_OTHER, "Wait with a failing query_fn");
    MT_CHECK(s.frees == 1, "free_fn ran %d times after a failing query", s.frees);
    MPI_Request rs[2];
    MPI_Status sts[2];
    rs[0] = start(&s, 0);
    rs[1] = start(&s2, 0);
    s2.query_err = MPI_ERR_OTHER;
    MT_OK(MPI_Grequest_complete(rs[0]));
    MT_OK(MPI_Grequest_complete(rs[1]));
    MT_ERRCLASS(MPI_Waitall(2, rs, sts), MPI_ERR_IN_STATUS, "Waitall");
    MT_CHECK(sts[0].MPI_ERROR == MPI_SUCCESS && sts[1].MPI_ERROR == MPI_ERR_OTHER,
             "Waitall statuses' errors %d %d", sts[0].MPI_ERROR, sts[1].MPI_ERROR);
    MT_CHECK(s.frees == 1 && s2.frees == 1 && rs[0] == MPI_REQUEST_NULL &&
             rs[1] == MPI_REQUEST_NULL, "Waitall did not free both");

    /* Argument errors. */
    MPI_Request ord;
    int x = 0;
    MT_ERRCLASS(MPI_Grequest_complete(MPI_REQUEST_NULL), MPI_ERR_REQUEST, "MPI_REQUEST_NULL");
    MT_OK(MPI_Irecv(&x, 1, MPI_INT, 0, 1, MPI_COMM_SELF, &ord));
    MT_ERRCLASS(MPI_Grequest_complete(ord), MPI_ERR_REQUEST, "an ordinary request");
    MT_OK(MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_SELF));
    MT_OK(MPI_Wait(&ord, MPI_STATUS_IGNORE));
    MT_ERRCLASS(MPI_Grequest_start(NULL, free_fn, cancel_fn, NULL, &r), MPI_ERR_ARG,
                "NULL query_fn");

    /* Counts beyond an int. */
    MPI_Count big = (MPI_Count)1 << 33, got = 0;
    MT_OK(MPI_Status_set_elements_x(&st, MPI_BYTE, big));
    MT_OK(MPI_Get_elements_x(&st, MPI_BYTE, &got));
    MT_CHECK(got == big, "Get_elements_x %lld, expected %lld", (long long)got, (long long)big);
    MT_OK(MPI_Get_count(&st, MPI_BYTE, &count));
    MT_CHECK(count == MPI_UNDEFINED, "Get_count of 2^33 bytes: %d", count);
    MT_OK(MPI_Status_set_elements_x(&st, MPI_DOUBLE, 3));
    MT_OK(MPI_Get_elements_x(&st, MPI_DOUBLE, &got));
    MT_CHECK(got == 3, "set_elements_x 3 doubles: %lld", (long long)got);
    MT_ERRCLASS(MPI_Status_set_elements_x(&st, MPI_INT, -1), MPI_ERR_COUNT, "negative count");
    MT_ERRCLASS(MPI_Status_set_elements_x(MPI_STATUS_IGNORE, MPI_INT, 1), MPI_ERR_ARG,
                "MPI_STATUS_IGNORE");

    /* Conversions C <-> Fortran (the f08 ones are in misc_status_f08). */
    MPI_Status c = { 0 }, back;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    c.MPI_SOURCE = 11, c.MPI_TAG = 12, c.MPI_ERROR = MPI_ERR_TAG;
    MPI_Status_set_elements_x(&c, MPI_BYTE, big + 5);
    MPI_Status_set_cancelled(&c, 1);
    MT_OK(MPI_Status_c2f(&c, f));
    MT_CHECK(f[MPI_F_SOURCE] == 11 && f[MPI_F_TAG] == 12 && f[MPI_F_ERROR] == MPI_ERR_TAG,
             "Fortran status fields %d %d %d", f[MPI_F_SOURCE], f[MPI_F_TAG], f[MPI_F_ERROR]);
    MT_OK(MPI_Status_f2c(f, &back));
    MT_CHECK(memcmp(&c, &back, sizeof c) == 0, "C -> F -> C changed the status");
    MT_ERRCLASS(MPI_Status_c2f(MPI_STATUS_IGNORE, f), MPI_ERR_ARG, "c2f of MPI_STATUS_IGNORE");
    MT_ERRCLASS(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &back), MPI_ERR_ARG,
                "f2c of MPI_F_STATUS_IGNORE");
    return MTest_Finalize();
}

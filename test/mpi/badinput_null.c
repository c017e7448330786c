/*
 * badinput_null: a NULL status or request pointer where MPI wants one (not
 * MPI_STATUS_IGNORE, a distinct value) is MPI_ERR_ARG with
 * MPI_ERRORS_RETURN, in every point-to-point, probe, wait/test, persistent
 * and nonblocking collective entry point, and the call changes nothing: the
 * message it would have received is still there, the request it would have
 * completed still completes.
 */
#include "err_common.h"

#define TAG 7

static MPI_Comm self;

/* A message of value v to this rank on self. */
static void post(int v)
{
    MT_OK(MPI_Send(&v, 1, MPI_INT, 0, TAG, self));
}

/* The message posted last is still there and holds v. */
static void expect_pending(int v, const char *what)
{
    int w = -1;
    MPI_Status st;
    MT_OK(MPI_Recv(&w, 1, MPI_INT, 0, TAG, self, &st));
    MT_CHECK(w == v && st.MPI_TAG == TAG, "%s: message after the failed call holds %d, not %d",
             what, w, v);
}

static void receives(void)
{
    int v = 1, w = 0, flag = 0;
    MPI_Message m;
    post(1);
    MT_ERRCLASS(MPI_Recv(&w, 1, MPI_INT, 0, TAG, self, NULL), MPI_ERR_ARG, "Recv(status NULL)");
    MT_ERRCLASS(MPI_Recv_c(&w, 1, MPI_INT, 0, TAG, self, NULL), MPI_ERR_ARG,
                "Recv_c(status NULL)");
    MT_ERRCLASS(MPI_Probe(0, TAG, self, NULL), MPI_ERR_ARG, "Probe(status NULL)");
    MT_ERRCLASS(MPI_Iprobe(0, TAG, self, &flag, NULL), MPI_ERR_ARG, "Iprobe(status NULL)");
    MT_ERRCLASS(MPI_Mprobe(0, TAG, self, &m, NULL), MPI_ERR_ARG, "Mprobe(status NULL)");
    MT_ERRCLASS(MPI_Improbe(0, TAG, self, &flag, &m, NULL), MPI_ERR_ARG, "Improbe(status NULL)");
    MT_ERRCLASS(MPI_Probe(MPI_PROC_NULL, TAG, self, NULL), MPI_ERR_ARG,
                "Probe(MPI_PROC_NULL, status NULL)");
    expect_pending(1, "receives and probes");

    /* A matched message survives an Mrecv that fails. */
    post(2);
    MT_OK(MPI_Mprobe(0, TAG, self, &m, MPI_STATUS_IGNORE));
    MT_ERRCLASS(MPI_Mrecv(&w, 1, MPI_INT, &m, NULL), MPI_ERR_ARG, "Mrecv(status NULL)");
    MT_CHECK(m != MPI_MESSAGE_NULL, "a failed Mrecv consumed the message");
    MT_OK(MPI_Mrecv(&w, 1, MPI_INT, &m, MPI_STATUS_IGNORE));
    MT_CHECK(w == 2, "Mrecv after a failed one got %d, not 2", w);

    /* Sendrecv fails before sending. */
    MT_ERRCLASS(MPI_Sendrecv(&v, 1, MPI_INT, 0, TAG, &w, 1, MPI_INT, 0, TAG, self, NULL),
                MPI_ERR_ARG, "Sendrecv(status NULL)");
    MT_ERRCLASS(MPI_Sendrecv_replace(&v, 1, MPI_INT, 0, TAG, 0, TAG, self, NULL), MPI_ERR_ARG,
                "Sendrecv_replace(status NULL)");
    MT_OK(MPI_Iprobe(0, TAG, self, &flag, MPI_STATUS_IGNORE));
    MT_CHECK(!flag, "a failed Sendrecv sent its message");
}

static void completions(void)
{
    int w = 0, flag = 0, index = 0, outcount = 0, indices[1];
    MPI_Request r;
    MPI_Status st;
    MT_OK(MPI_Irecv(&w, 1, MPI_INT, 0, TAG, self, &r));
    MT_ERRCLASS(MPI_Wait(&r, NULL), MPI_ERR_ARG, "Wait(status NULL)");
    MT_ERRCLASS(MPI_Test(&r, &flag, NULL), MPI_ERR_ARG, "Test(status NULL)");
    MT_ERRCLASS(MPI_Waitany(1, &r, &index, NULL), MPI_ERR_ARG, "Waitany(status NULL)");
    MT_ERRCLASS(MPI_Testany(1, &r, &index, &flag, NULL), MPI_ERR_ARG, "Testany(status NULL)");
    MT_ERRCLASS(MPI_Waitany(0, NULL, &index, NULL), MPI_ERR_ARG,
                "Waitany(no requests, status NULL)");
    MT_ERRCLASS(MPI_Waitall(1, &r, NULL), MPI_ERR_ARG, "Waitall(statuses NULL)");
    MT_ERRCLASS(MPI_Testall(1, &r, &flag, NULL), MPI_ERR_ARG, "Testall(statuses NULL)");
    MT_ERRCLASS(MPI_Waitsome(1, &r, &outcount, indices, NULL), MPI_ERR_ARG,
                "Waitsome(statuses NULL)");
    MT_ERRCLASS(MPI_Testsome(1, &r, &outcount, indices, NULL), MPI_ERR_ARG,
                "Testsome(statuses NULL)");
    MT_ERRCLASS(MPI_Request_get_status(r, &flag, NULL), MPI_ERR_ARG,
                "Request_get_status(status NULL)");
    /* No request array: nothing is written, so no status is needed. */
    MT_OK(MPI_Waitall(0, NULL, NULL));
    MT_CHECK(r != MPI_REQUEST_NULL, "a failed call freed the request");
    post(3);
    MT_OK(MPI_Wait(&r, &st));
    MT_CHECK(w == 3 && st.MPI_TAG == TAG, "receive after the failed calls got %d", w);
}

static void requests(void)
{
    int v = 4, w = 0, flag = 0;
    MPI_Message m;
    MPI_Comm dup;
    MT_ERRCLASS(MPI_Isend(&v, 1, MPI_INT, 0, TAG, self, NULL), MPI_ERR_ARG, "Isend(request NULL)");
    MT_ERRCLASS(MPI_Issend(&v, 1, MPI_INT, 0, TAG, self, NULL), MPI_ERR_ARG,
                "Issend(request NULL)");
    MT_ERRCLASS(MPI_Ibsend(&v, 1, MPI_INT, 0, TAG, self, NULL), MPI_ERR_ARG,
                "Ibsend(request NULL)");
    MT_ERRCLASS(MPI_Isend_c(&v, 1, MPI_INT, 0, TAG, self, NULL), MPI_ERR_ARG,
                "Isend_c(request NULL)");
    MT_ERRCLASS(MPI_Send_init(&v, 1, MPI_INT, 0, TAG, self, NULL), MPI_ERR_ARG,
                "Send_init(request NULL)");
    MT_ERRCLASS(MPI_Isendrecv(&v, 1, MPI_INT, 0, TAG, &w, 1, MPI_INT, 0, TAG, self, NULL),
                MPI_ERR_ARG, "Isendrecv(request NULL)");
    MT_OK(MPI_Iprobe(0, TAG, self, &flag, MPI_STATUS_IGNORE));
    MT_CHECK(!flag, "a failed nonblocking send sent its message");
    MT_ERRCLASS(MPI_Irecv(&w, 1, MPI_INT, 0, TAG, self, NULL), MPI_ERR_ARG, "Irecv(request NULL)");
    MT_ERRCLASS(MPI_Recv_init(&w, 1, MPI_INT, 0, TAG, self, NULL), MPI_ERR_ARG,
                "Recv_init(request NULL)");
    MT_ERRCLASS(MPI_Psend_init(&v, 1, 1, MPI_INT, 0, TAG, self, MPI_INFO_NULL, NULL),
                MPI_ERR_ARG, "Psend_init(request NULL)");
    MT_ERRCLASS(MPI_Ibcast(&v, 1, MPI_INT, 0, self, NULL), MPI_ERR_ARG, "Ibcast(request NULL)");
    MT_ERRCLASS(MPI_Iallreduce(&v, &w, 1, MPI_INT, MPI_SUM, self, NULL), MPI_ERR_ARG,
                "Iallreduce(request NULL)");
    MT_ERRCLASS(MPI_Ibarrier(self, NULL), MPI_ERR_ARG, "Ibarrier(request NULL)");
    MT_ERRCLASS(MPI_Bcast_init(&v, 1, MPI_INT, 0, self, MPI_INFO_NULL, NULL), MPI_ERR_ARG,
                "Bcast_init(request NULL)");
    MT_ERRCLASS(MPI_Comm_idup(self, &dup, NULL), MPI_ERR_ARG, "Comm_idup(request NULL)");
    MT_ERRCLASS(MPI_Wait(NULL, MPI_STATUS_IGNORE), MPI_ERR_ARG, "Wait(request NULL)");
    MT_ERRCLASS(MPI_Test(NULL, &flag, MPI_STATUS_IGNORE), MPI_ERR_ARG, "Test(request NULL)");
    MT_ERRCLASS(MPI_Start(NULL), MPI_ERR_ARG, "Start(request NULL)");
    MT_ERRCLASS(MPI_Request_free(NULL), MPI_ERR_ARG, "Request_free(request NULL)");
    MT_ERRCLASS(MPI_Cancel(NULL), MPI_ERR_ARG, "Cancel(request NULL)");

    /* Imrecv leaves the matched message to a later receive. */
    post(5);
    MT_OK(MPI_Mprobe(0, TAG, self, &m, MPI_STATUS_IGNORE));
    MT_ERRCLASS(MPI_Imrecv(&w, 1, MPI_INT, &m, NULL), MPI_ERR_ARG, "Imrecv(request NULL)");
    MT_OK(MPI_Mrecv(&w, 1, MPI_INT, &m, MPI_STATUS_IGNORE));
    MT_CHECK(w == 5, "Mrecv after a failed Imrecv got %d, not 5", w);
}

int main(int argc, char **argv)
{
    MTest_Init(&argc, &argv);
    errors_return();
    self = MPI_COMM_SELF;
    receives();
    completions();
    requests();
    MTest_Check_comm_works(MPI_COMM_WORLD, "NULL statuses and requests");
    return MTest_Finalize();
}

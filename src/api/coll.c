/*
 * Collective entry points. Algorithms live in src/coll.
 */
#include "api/api.h"

#include "coll/coll.h"

RD_WEAK_ALIAS(MPI_Barrier)
int PMPI_Barrier(MPI_Comm comm)
{
    static const char fn[] = "MPI_Barrier";
    rd_comm_t *c;
    int err;
    RD_API_CHECK_INIT(fn);
    if ((err = rd_api_check_comm(comm, &c, fn)))
        return err;
    if (c->rgroup)
        return rd_api_error(c, MPI_ERR_COMM, fn, "intercommunicator barriers are not supported");
    rd_api_lock();
    int rc = rd_coll_barrier(c);
    rd_api_unlock();
    return rc == RD_OK ? MPI_SUCCESS : rd_api_status_error(c, rc, fn);
}

/* MPI_Barrier (see coll.h): shared-memory signals on one node, else the
 * dissemination algorithm of coll_steps.c. */
#include "coll/coll.h"

#include "coll/coll_node.h"
#include "coll/coll_steps.h"
#include "coll/coll_util.h"
#include "util/status.h"

int rd_coll_barrier(rd_comm_t *c)
{
    /* All on one node: a gather / release through shared-memory counters
     * (coll_node.h), cheaper than messages, and the lowest rank leaves first. */
    if (rd_coll_tune()->barrier_signal) {
        int rc = rd_coll_node_barrier(c);
        if (rc != RD_ENOTSUP)
            return rc;
    }
    rd_coll_run_t run;
    rd_coll_run_init(&run, c, RD_TAG_BARRIER);
    rd_coll_steps_barrier(&run.steps);
    return rd_coll_run_end(&run);
}

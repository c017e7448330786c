/* Core binding with hwloc (see binding.h). */
#include "binding.h"

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>

static struct {
    hwloc_topology_t topo;
    hwloc_bitmap_t *sets;   /* one cpuset per local rank when binding */
    int n;
} bind;

int rd_mpirun_binding_init(rd_mpirun_bind_t req, int nlocal)
{
    int ncores;

    if (req == RD_MPIRUN_BIND_NONE)
        return 0;
    /* The default topology holds only the cores this process is allowed
     * to run on (cgroups, taskset), which is what we want to spread over. */
    if (hwloc_topology_init(&bind.topo) != 0 || hwloc_topology_load(bind.topo) != 0) {
        fprintf(stderr, "mpirun: hwloc cannot read the topology of this host\n");
        return -1;
    }
    ncores = hwloc_get_nbobjs_by_type(bind.topo, HWLOC_OBJ_CORE);
    if (ncores < nlocal) {
        if (req == RD_MPIRUN_BIND_CORE)
            fprintf(stderr, "mpirun: warning: %d ranks but %d cores: ranks are not bound\n",
                    nlocal, ncores);
        return 0;
    }
    bind.sets = calloc(nlocal, sizeof(*bind.sets));
    if (!bind.sets)
        return -1;
    for (int i = 0; i < nlocal; i++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(bind.topo, HWLOC_OBJ_CORE, i);
        bind.sets[i] = core ? hwloc_bitmap_dup(core->cpuset) : NULL;
        if (!bind.sets[i]) {
            fprintf(stderr, "mpirun: hwloc: no cpuset for core %d\n", i);
            return -1;
        }
        bind.n++;
    }
    return 0;
}

int rd_mpirun_binding_active(void)
{
    return bind.n > 0;
}

int rd_mpirun_binding_apply(int local_rank)
{
    if (local_rank < 0 || local_rank >= bind.n)
        return 0;
    /* The child of fork is single-threaded, so binding this thread binds
     * the process; HWLOC_CPUBIND_THREAD is a plain sched_setaffinity and
     * does not walk /proc like a whole-process binding would. */
    return hwloc_set_cpubind(bind.topo, bind.sets[local_rank], HWLOC_CPUBIND_THREAD) == 0 ? 0 : -1;
}

void rd_mpirun_binding_fini(void)
{
    for (int i = 0; i < bind.n; i++)
        hwloc_bitmap_free(bind.sets[i]);
    free(bind.sets);
    bind.sets = NULL;
    bind.n = 0;
    if (bind.topo) {
        hwloc_topology_destroy(bind.topo);
        bind.topo = NULL;
    }
}

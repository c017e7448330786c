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
    int ncores, nobjs;
    hwloc_bitmap_t mine = NULL;

    if (req == RD_MPIRUN_BIND_NONE)
        return 0;
    if (hwloc_topology_init(&bind.topo) != 0 || hwloc_topology_load(bind.topo) != 0) {
        fprintf(stderr, "mpirun: hwloc cannot read the topology of this host\n");
        return -1;
    }
    /* The topology leaves out what cgroups forbid, but not what our own
     * affinity mask (taskset, a batch system's binding) does: spread over
     * the cores holding a CPU of that mask, each rank bound to those CPUs
     * of its core. The calling thread's mask is the one mpirun (or its
     * daemon) inherited: nothing in mpirun binds itself. */
    mine = hwloc_bitmap_alloc();
    if (!mine || hwloc_get_cpubind(bind.topo, mine, HWLOC_CPUBIND_THREAD) != 0) {
        hwloc_bitmap_free(mine);
        mine = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(bind.topo));
        if (!mine) {
            fprintf(stderr, "mpirun: hwloc: out of memory\n");
            return -1;
        }
    }
    nobjs = hwloc_get_nbobjs_by_type(bind.topo, HWLOC_OBJ_CORE);
    ncores = 0;
    for (int i = 0; i < nobjs; i++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(bind.topo, HWLOC_OBJ_CORE, i);
        if (core && hwloc_bitmap_intersects(core->cpuset, mine))
            ncores++;
    }
    /* More ranks than cores: by default bound only when every core gets
     * the same number of ranks. Two ranks bound to each of 2 cores hand
     * the CPU to each other when they wait (sched_yield passes it within
     * a core's run queue); left to the scheduler, two waiting ranks may
     * share one core while the two they wait for share the other (np=4
     * MPI_Alltoall 256 KiB: 294 us bound, 349 us not, medians of 15).
     * With an uneven count a fixed placement would load some cores more
     * than others, which the scheduler avoids. --bind-to core binds
     * round-robin whatever the count. */
    if (ncores == 0 || (ncores < nlocal && req == RD_MPIRUN_BIND_AUTO && nlocal % ncores != 0)) {
        hwloc_bitmap_free(mine);
        return 0;
    }
    bind.sets = calloc(nlocal, sizeof(*bind.sets));
    if (!bind.sets) {
        hwloc_bitmap_free(mine);
        return -1;
    }
    bind.n = nlocal;   /* rd_mpirun_binding_fini frees what is set */
    /* Local rank k on the (k mod ncores)-th usable core. */
    int k = 0;
    for (int i = 0; k < ncores && k < nlocal && i < nobjs; i++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(bind.topo, HWLOC_OBJ_CORE, i);
        if (!core || !hwloc_bitmap_intersects(core->cpuset, mine))
            continue;
        bind.sets[k] = hwloc_bitmap_alloc();
        if (!bind.sets[k] || hwloc_bitmap_and(bind.sets[k], core->cpuset, mine) != 0) {
            fprintf(stderr, "mpirun: hwloc: no cpuset for core %d\n", i);
            hwloc_bitmap_free(mine);
            return -1;
        }
        k++;
    }
    for (; k < nlocal; k++)
        if (!(bind.sets[k] = hwloc_bitmap_dup(bind.sets[k % ncores]))) {
            fprintf(stderr, "mpirun: hwloc: out of memory\n");
            hwloc_bitmap_free(mine);
            return -1;
        }
    hwloc_bitmap_free(mine);
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

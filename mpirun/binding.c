/* Placement and binding of a host's ranks with hwloc (see binding.h). */
#include "binding.h"

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest description of a binding. */
#define RD_MPIRUN_BIND_DESC_MAX 256

static struct {
    hwloc_topology_t topo;
    hwloc_bitmap_t mine;    /* the CPUs mpirun (or its daemon) may use */
    hwloc_bitmap_t *sets;   /* one cpuset per local rank when binding */
    char **desc;            /* "core 1 (cpus 1)" per local rank */
    int n;
} bind;

static hwloc_obj_type_t hw_type(rd_mpirun_obj_t t)
{
    switch (t) {
    case RD_MPIRUN_OBJ_SOCKET:
        return HWLOC_OBJ_PACKAGE;
    case RD_MPIRUN_OBJ_NUMA:
        return HWLOC_OBJ_NUMANODE;
    case RD_MPIRUN_OBJ_HWTHREAD:
        return HWLOC_OBJ_PU;
    case RD_MPIRUN_OBJ_NODE:
        return HWLOC_OBJ_MACHINE;
    case RD_MPIRUN_OBJ_CORE:
    default:
        return HWLOC_OBJ_CORE;
    }
}

static const char *type_name(hwloc_obj_type_t t)
{
    switch (t) {
    case HWLOC_OBJ_PACKAGE:
        return "socket";
    case HWLOC_OBJ_NUMANODE:
        return "numa";
    case HWLOC_OBJ_PU:
        return "hwthread";
    case HWLOC_OBJ_MACHINE:
        return "node";
    default:
        return "core";
    }
}

/* The objects of type t holding a CPU we may use, in logical order, and
 * (within != NULL) lying inside within; their number. out gets the first
 * max of them. */
static int usable(hwloc_obj_type_t t, hwloc_const_cpuset_t within, hwloc_obj_t *out, int max)
{
    int n = 0, all = hwloc_get_nbobjs_by_type(bind.topo, t);

    for (int i = 0; i < all; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(bind.topo, t, i);
        if (!o || !o->cpuset || !hwloc_bitmap_intersects(o->cpuset, bind.mine) ||
            (within && !hwloc_bitmap_isincluded(o->cpuset, within)))
            continue;
        if (n < max)
            out[n] = o;
        n++;
    }
    return n;
}

/* The object of type t a rank placed on p (the j-th rank there) binds to:
 * the j-th (round-robin) of the t objects inside p, else the t object
 * holding p, else p itself. */
static hwloc_obj_t bind_obj(hwloc_obj_t p, int j, hwloc_obj_type_t t)
{
    int n = usable(t, p->cpuset, NULL, 0);

    if (n > 0) {
        hwloc_obj_t in[n];
        usable(t, p->cpuset, in, n);
        return in[j % n];
    }
    int all = hwloc_get_nbobjs_by_type(bind.topo, t);
    for (int i = 0; i < all; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(bind.topo, t, i);
        if (o && o->cpuset && hwloc_bitmap_isincluded(p->cpuset, o->cpuset))
            return o;
    }
    return p;
}

static int load(void)
{
    if (bind.topo)
        return 0;
    if (hwloc_topology_init(&bind.topo) != 0 || hwloc_topology_load(bind.topo) != 0) {
        fprintf(stderr, "mpirun: hwloc cannot read the topology of this host\n");
        return -1;
    }
    /* The topology leaves out what cgroups forbid, but not what our own
     * affinity mask (taskset, a batch system's binding) does: only CPUs
     * of that mask are used. The calling thread's mask is the one mpirun
     * (or its daemon) inherited: nothing in mpirun binds itself. */
    bind.mine = hwloc_bitmap_alloc();
    if (!bind.mine || hwloc_get_cpubind(bind.topo, bind.mine, HWLOC_CPUBIND_THREAD) != 0) {
        hwloc_bitmap_free(bind.mine);
        bind.mine = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(bind.topo));
        if (!bind.mine) {
            fprintf(stderr, "mpirun: hwloc: out of memory\n");
            return -1;
        }
    }
    return 0;
}

int rd_mpirun_binding_count(rd_mpirun_obj_t obj)
{
    if (load() != 0)
        return -1;
    return usable(hw_type(obj), NULL, NULL, 0);
}

/* The bind type --bind-to asks for; HWLOC_OBJ_TYPE_MAX for none. */
static hwloc_obj_type_t bind_type(const rd_mpirun_opts_t *o)
{
    switch (o->bind) {
    case RD_MPIRUN_BIND_NONE:
        return HWLOC_OBJ_TYPE_MAX;
    case RD_MPIRUN_BIND_SOCKET:
        return HWLOC_OBJ_PACKAGE;
    case RD_MPIRUN_BIND_NUMA:
        return HWLOC_OBJ_NUMANODE;
    case RD_MPIRUN_BIND_HWTHREAD:
        return HWLOC_OBJ_PU;
    case RD_MPIRUN_BIND_CORE:
        return HWLOC_OBJ_CORE;
    case RD_MPIRUN_BIND_AUTO:
    default:
        /* Bound to what the ranks are spread over; spread over the
         * whole host (ppr:N:node), not bound. */
        if (o->map_given)
            return o->map_obj == RD_MPIRUN_OBJ_NODE ? HWLOC_OBJ_TYPE_MAX : hw_type(o->map_obj);
        return HWLOC_OBJ_CORE;
    }
}

int rd_mpirun_binding_init(const rd_mpirun_opts_t *o, int nlocal)
{
    hwloc_obj_type_t mt = hw_type(o->map_obj), bt = bind_type(o);
    int nobj;

    if (bt == HWLOC_OBJ_TYPE_MAX && !o->report_bindings)
        return 0;
    if (load() != 0)
        return -1;
    bind.desc = calloc((size_t)nlocal, sizeof(*bind.desc));
    if (!bind.desc)
        return -1;
    bind.n = nlocal;   /* rd_mpirun_binding_fini frees what is set */
    nobj = usable(mt, NULL, NULL, 0);
    /* More ranks than cores: by default bound only when every core gets
     * the same number of ranks. Two ranks bound to each of 2 cores hand
     * the CPU to each other when they wait (sched_yield passes it within
     * a core's run queue); left to the scheduler, two waiting ranks may
     * share one core while the two they wait for share the other. With an
     * uneven count a fixed placement would load some cores more than
     * others, which the scheduler avoids. --bind-to core binds
     * round-robin whatever the count. */
    if (nobj == 0 || bt == HWLOC_OBJ_TYPE_MAX ||
        (!o->map_given && o->bind == RD_MPIRUN_BIND_AUTO && nobj < nlocal && nlocal % nobj != 0))
        return 0;
    hwloc_obj_t objs[nobj];
    usable(mt, NULL, objs, nobj);
    bind.sets = calloc((size_t)nlocal, sizeof(*bind.sets));
    if (!bind.sets)
        return -1;
    for (int k = 0; k < nlocal; k++) {
        /* ppr:N: N ranks on an object before the next; else round-robin. */
        int idx = o->ppr > 0 ? (k / o->ppr) % nobj : k % nobj;
        int j = o->ppr > 0 ? k % o->ppr : k / nobj;
        hwloc_obj_t b = bind_obj(objs[idx], j, bt);
        char cpus[RD_MPIRUN_BIND_DESC_MAX / 2];

        bind.sets[k] = hwloc_bitmap_alloc();
        if (!bind.sets[k] || hwloc_bitmap_and(bind.sets[k], b->cpuset, bind.mine) != 0) {
            fprintf(stderr, "mpirun: hwloc: no cpuset for local rank %d\n", k);
            return -1;
        }
        hwloc_bitmap_list_snprintf(cpus, sizeof(cpus), bind.sets[k]);
        if (asprintf(&bind.desc[k], "bound to %s %u (cpus %s)", type_name(b->type),
                     b->logical_index, cpus) < 0) {
            bind.desc[k] = NULL;
            return -1;
        }
    }
    return 0;
}

int rd_mpirun_binding_active(void)
{
    return bind.sets != NULL;
}

const char *rd_mpirun_binding_describe(int local_rank)
{
    if (local_rank < 0 || local_rank >= bind.n || !bind.sets || !bind.desc[local_rank])
        return "not bound";
    return bind.desc[local_rank];
}

int rd_mpirun_binding_apply(int local_rank)
{
    if (local_rank < 0 || local_rank >= bind.n || !bind.sets)
        return 0;
    /* The child of fork is single-threaded, so binding this thread binds
     * the process; HWLOC_CPUBIND_THREAD is a plain sched_setaffinity and
     * does not walk /proc like a whole-process binding would. */
    return hwloc_set_cpubind(bind.topo, bind.sets[local_rank], HWLOC_CPUBIND_THREAD) == 0 ? 0 : -1;
}

void rd_mpirun_binding_fini(void)
{
    for (int i = 0; i < bind.n; i++) {
        if (bind.sets)
            hwloc_bitmap_free(bind.sets[i]);
        if (bind.desc)
            free(bind.desc[i]);
    }
    free(bind.sets);
    free(bind.desc);
    bind.sets = NULL;
    bind.desc = NULL;
    bind.n = 0;
    hwloc_bitmap_free(bind.mine);
    bind.mine = NULL;
    if (bind.topo) {
        hwloc_topology_destroy(bind.topo);
        bind.topo = NULL;
    }
}

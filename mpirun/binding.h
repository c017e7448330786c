/*
 * Placing a host's ranks on its cores, sockets or NUMA nodes and binding
 * them, with hwloc. The plan is made once in mpirun (or its host daemon):
 * local rank k goes to the (k mod n)-th of the n usable objects --map-by
 * names (core by default), or with ppr:N to the (k / N)-th, and is bound
 * to the --bind-to object of that place; each child applies its own
 * cpuset between fork and exec, so the program starts bound.
 */
#ifndef RD_MPIRUN_BINDING_H
#define RD_MPIRUN_BINDING_H

#include "options.h"

/* Loads the topology (once) and decides where nlocal ranks go and whether
 * they get bound: never for --bind-to none; for the default without
 * --map-by, to cores when there are enough or every core gets the same
 * number of ranks; otherwise to the --bind-to object, or the --map-by
 * object. Returns 0, or -1 with a message printed when hwloc fails. */
int rd_mpirun_binding_init(const rd_mpirun_opts_t *o, int nlocal);

/* How many objects of type obj hold a CPU this process may use (for
 * ppr:N:obj); -1 with a message printed when hwloc fails. */
int rd_mpirun_binding_count(rd_mpirun_obj_t obj);

/* 1 when ranks are bound. */
int rd_mpirun_binding_active(void);

/* "bound to core 1 (cpus 1)" or "not bound", for --report-bindings. */
const char *rd_mpirun_binding_describe(int local_rank);

/* In the child, after fork: binds to the local_rank-th cpuset. Uses nothing
 * but hwloc_set_cpubind on a cpuset prepared before the fork. Returns 0 or -1. */
int rd_mpirun_binding_apply(int local_rank);

void rd_mpirun_binding_fini(void);

#endif

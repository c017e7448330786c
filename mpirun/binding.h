/*
 * Binding ranks to cores with hwloc. The plan is made once in mpirun (local
 * rank i -> (i mod cores)-th core of the cores this process may use); each
 * child applies its own cpuset between fork and exec, so the program starts
 * bound.
 */
#ifndef RD_MPIRUN_BINDING_H
#define RD_MPIRUN_BINDING_H

#include "options.h"

/* Loads the topology and decides whether nlocal ranks get bound (local
 * rank k to the (k mod cores)-th core): always for --bind-to core, never
 * for none, and for the default when there are enough cores or every core
 * gets the same number of ranks. Returns 0, or -1 with a message printed
 * when hwloc fails. */
int rd_mpirun_binding_init(rd_mpirun_bind_t req, int nlocal);

/* 1 when ranks are bound. */
int rd_mpirun_binding_active(void);

/* In the child, after fork: binds to the local_rank-th core. Uses nothing
 * but hwloc_set_cpubind on a cpuset prepared before the fork. Returns 0 or -1. */
int rd_mpirun_binding_apply(int local_rank);

void rd_mpirun_binding_fini(void);

#endif

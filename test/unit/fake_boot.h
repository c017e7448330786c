/*
 * A fake process manager for unit tests that fork their ranks: implements
 * rd_boot_put / rd_boot_fence / rd_boot_get / rd_boot_abort (boot.h) over an
 * anonymous MAP_SHARED region created before fork. The fence is a
 * process-shared pthread barrier; published values live in a shared table.
 *
 * Ranks can be spread over simulated nodes. Each simulated node gets its own
 * job id (real nodes share one job id but have separate /dev/shm), so node
 * segments never collide on the one machine the tests run on.
 */
#ifndef RD_TEST_FAKE_BOOT_H
#define RD_TEST_FAKE_BOOT_H

#include "boot/boot.h"

/* Parent, before fork: a job of nranks, rank r on simulated node node_of[r]
 * (NULL: all on node 0). Returns 0 on success. */
int fake_boot_setup(int nranks, const int *node_of);

/* Child: fills *info for rank (local_ranks is malloc'd; free with
 * fake_boot_info_free). */
void fake_boot_child(int rank, rd_boot_info_t *info);
void fake_boot_info_free(rd_boot_info_t *info);

/* Child: fences this rank has entered so far. */
int fake_boot_fences(void);

/* Child: called on entry of each fence with its 1-based number (or NULL). */
void fake_boot_set_fence_hook(void (*hook)(int nfence));

/* Parent, after the children are reaped: removes what ranks left in
 * /dev/shm (as mpirun does) and releases the shared region. */
void fake_boot_teardown(void);

#endif

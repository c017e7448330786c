/*
 * Groups: an ordered set of job ranks. A communicator's group maps its ranks
 * to job (MPI_COMM_WORLD) ranks, which is what p2p needs to pick a transport.
 */
#ifndef RD_CORE_GROUP_H
#define RD_CORE_GROUP_H

typedef struct rd_group {
    int handle;
    int refs;
    int size;
    int rank;          /* this process's rank in the group, or -1 */
    int *world;        /* world[i] = job rank of group rank i */
} rd_group_t;

/* A new group of n ranks (world copied); refs = 1, handle 0 (not yet named). */
rd_group_t *rd_group_new(int n, const int *world, int my_world_rank);
/* Takes / drops a reference; the last drop frees the group and its handle. */
void rd_group_ref(rd_group_t *g);
void rd_group_release(rd_group_t *g);
/* Rank of job rank w in g, or -1. O(size). */
int rd_group_rank_of(const rd_group_t *g, int w);

#endif

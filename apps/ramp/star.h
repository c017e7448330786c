/* star: GET* (Murata, Kawashima, Tatebe): the first round of a GET reads
 * each key's committed item straight from a fixed slot in its server's
 * window with MPI_Get, at an address learned from earlier replies. The
 * server mirrors every key's latest committed version into its slot and
 * marks the slot invalid while a write of the key is prepared. */
#ifndef RAMP_STAR_H
#define RAMP_STAR_H

#include <stdint.h>
#include <mpi.h>

#include "client.h"
#include "opts.h"
#include "store.h"

struct ramp_star;

/* Collective over comm: the slot window (servers: one slot per key they
 * hold) and the clients' read announcements. NULL after printing why. */
struct ramp_star *ramp_star_new(const struct ramp_opts *o, MPI_Comm comm, int servers,
                                struct ramp_store *store);
void ramp_star_free(struct ramp_star *st);

/* server: mirrors latest (of a key it holds) into the key's slot, invalid
 * while pending > 0. */
void ramp_star_slot_write(struct ramp_star *st, const struct ramp_version *latest, int pending);
/* server: the oldest read clock any client announced for a one-sided
 * read in progress here, UINT64_MAX if none (for the store's GC). */
uint64_t ramp_star_oldest_read(struct ramp_star *st);

/* client: the first round of GET s for the keys whose slot address is
 * cached: sets bit i of *have for each key read from a valid, untorn slot. */
int ramp_star_first_round(struct ramp_star *st, struct ramp_client *c, struct ramp_slot *s,
                          uint64_t *have);
/* client: GET s has finished (its announcements are withdrawn). */
void ramp_star_get_done(struct ramp_star *st, struct ramp_slot *s, int slot_index);
/* client: a reply said key's slot is index aux - 1 (aux 0: none). */
void ramp_star_learn(struct ramp_star *st, uint64_t key, uint64_t aux);
/* client: "star: ... " counts for --verbose. */
void ramp_star_report(const struct ramp_star *st, int rank);

#endif

/* star: GET*'s one-sided reads of committed items. Each server keeps one
 * slot per key it holds in a window, a copy of the key's latest committed
 * version:
 *
 *   0        8      16     24     32             40            OFF_VAL   OFF_SUM  +8
 *   +--------+------+------+------+-------+------+-------------+---------+-------+--------+
 *   | seq    | ts   | key  | w    | nmeta | flags| meta[txn]   | value   | sum   | seq    |
 *   +--------+------+------+------+-------+------+-------------+---------+-------+--------+
 *
 * Torn reads: the server updates a slot in place, seqlock style (both seq
 * words odd, the contents, both even again), and stores a 64-bit checksum
 * of bytes 8..OFF_SUM. A client accepts a slot only if both seq words are
 * equal and even, the checksum matches and the invalid flag is clear;
 * MPI_Get does not order its bytes, so the checksum is what catches a read
 * that interleaved with an update in any order. Anything else goes down
 * the GET+ path.
 *
 * Garbage collection: a one-sided read is invisible to the server, yet its
 * second round may ask for a version the server would free. So before its
 * reads a client announces, in its own window, a lower bound of the
 * server's clock (w: the server's clock when it wrote a slot the client
 * has read) and fences; the server fences after burying versions and,
 * before freeing, reads every client's announcements for it. Either the
 * server sees the announcement, or the client's read comes after the
 * burial and sees the newer version (a store-load fence on each side). */
#include "star.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "window.h"
#include "workload.h"

#define SLOT_INVALID 1

struct ramp_star {
    int servers, clients, concurrency, txn_size, value_size, rank;
    struct ramp_window sw;      /* slots (servers) */
    MPI_Win win;                /* sw.win */
    uint8_t *slots;             /* sw.base */
    size_t slot_size, off_val, off_sum;
    struct ramp_store *store;   /* server */
    struct ramp_window aw;      /* announcements (clients): [server][slot] */
    MPI_Win ann_win;            /* aw.win */
    uint64_t *ann;              /* aw.base */
    uint64_t *ann_buf;          /* server: every client's for it */
    uint32_t *cache;            /* client: key -> slot index + 1 */
    uint64_t *known;            /* client: per server, the newest w seen */
    uint8_t *rbuf;              /* client: txn_size slots */
    unsigned long reads, valid, invalid, torn, misses;
};

static uint64_t *word(uint8_t *slot, size_t off)
{
    return (uint64_t *)(void *)(slot + off);
}

/* The torn-read guard's checksum of len bytes (a multiple of 8): each step
 * is a bijection of the running value for a given word, so a read that
 * differs from a written slot in one word always fails it, and in several
 * words but for a 2^-64 chance. Cheaper than a crc: it runs on every slot
 * a client reads. */
static uint64_t slot_sum(const uint8_t *p, size_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ len;
    for (size_t i = 0; i < len; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    return h;
}

struct ramp_star *ramp_star_new(const struct ramp_opts *o, MPI_Comm comm, int servers,
                                struct ramp_store *store)
{
    struct ramp_star *st = calloc(1, sizeof(*st));
    if (!st)
        return NULL;
    int size;
    MPI_Comm_rank(comm, &st->rank);
    MPI_Comm_size(comm, &size);
    st->servers = servers;
    st->clients = size - servers;
    st->concurrency = o->concurrency;
    st->txn_size = o->txn_size;
    st->value_size = o->value_size;
    st->store = store;
    st->off_val = 40 + (size_t)o->txn_size * 8;
    st->off_sum = st->off_val + ((size_t)o->value_size + 7) / 8 * 8;
    st->slot_size = st->off_sum + 16;
    int server = st->rank < servers;
    uint64_t nslots = server ? store->nkeys : 0;
    size_t nann = server ? 0 : (size_t)servers * (size_t)o->concurrency;
    if (server) {
        st->ann_buf = calloc((size_t)st->clients * (size_t)o->concurrency, 8);
    } else {
        st->cache = calloc(o->keys, sizeof(*st->cache));
        st->known = calloc((size_t)servers, sizeof(*st->known));
        st->rbuf = malloc((size_t)o->txn_size * st->slot_size);
    }
    if (server ? !st->ann_buf : (!st->cache || !st->known || !st->rbuf))
        goto err;
    if (ramp_window_new(&st->sw, o, nslots * st->slot_size, 1, comm) != MPI_SUCCESS)
        goto err;
    if (ramp_window_new(&st->aw, o, nann * 8, 8, comm) != MPI_SUCCESS)
        goto err;
    st->win = st->sw.win;
    st->slots = st->sw.base;
    st->ann_win = st->aw.win;
    st->ann = st->aw.base;
    return st;
err:
    fprintf(stderr, "rdmpi-ramp: rank %d: no memory for star's slots\n", st->rank);
    free(st->ann_buf);
    free(st->cache);
    free(st->known);
    free(st->rbuf);
    free(st);
    return NULL;
}

void ramp_star_free(struct ramp_star *st)
{
    ramp_window_free(&st->aw);
    ramp_window_free(&st->sw);
    free(st->ann_buf);
    free(st->cache);
    free(st->known);
    free(st->rbuf);
    free(st);
}

void ramp_star_slot_write(struct ramp_star *st, const struct ramp_version *v, int pending)
{
    uint8_t *p = st->slots + (size_t)ramp_store_local(st->store, v->key) * st->slot_size;
    uint64_t *seq0 = word(p, 0), *seq1 = word(p, st->off_sum + 8);
    uint64_t s = __atomic_load_n(seq0, __ATOMIC_RELAXED);
    __atomic_store_n(seq0, s + 1, __ATOMIC_RELAXED);
    __atomic_store_n(seq1, s + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    *word(p, 8) = v->ts;
    *word(p, 16) = v->key;
    *word(p, 24) = ramp_store_tick(st->store);
    uint32_t nf[2] = { (uint32_t)v->nmeta, pending > 0 ? SLOT_INVALID : 0 };
    memcpy(p + 32, nf, 8);
    memcpy(p + 40, v->meta, (size_t)v->nmeta * 8);
    memcpy(p + st->off_val, v->value, (size_t)st->value_size);
    *word(p, st->off_sum) = slot_sum(p + 8, st->off_sum - 8);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    __atomic_store_n(seq1, s + 2, __ATOMIC_RELAXED);
    __atomic_store_n(seq0, s + 2, __ATOMIC_RELAXED);
}

uint64_t ramp_star_oldest_read(struct ramp_star *st)
{
    int c0 = st->servers, C = st->concurrency;
    /* the burials before this are visible before the announcements are read */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (int c = 0; c < st->clients; c++)
        MPI_Get(st->ann_buf + (size_t)c * C, C, MPI_UINT64_T, c0 + c,
                (MPI_Aint)st->rank * C, C, MPI_UINT64_T, st->ann_win);
    MPI_Win_flush_all(st->ann_win);
    uint64_t oldest = UINT64_MAX;
    for (size_t i = 0; i < (size_t)st->clients * C; i++)
        if (st->ann_buf[i] && st->ann_buf[i] - 1 < oldest)
            oldest = st->ann_buf[i] - 1;
    return oldest;
}

/* Whether the slot read into p is whole, valid and key's; fills item
 * (its crc only when a history is recorded). */
static int accept(struct ramp_star *st, uint8_t *p, uint64_t key, struct ramp_item *item,
                  int want_crc)
{
    uint64_t s0 = *word(p, 0), s1 = *word(p, st->off_sum + 8);
    if (s0 != s1 || (s0 & 1) || s0 == 0 ||
        *word(p, st->off_sum) != slot_sum(p + 8, st->off_sum - 8) || *word(p, 16) != key) {
        st->torn++;
        return 0;
    }
    uint32_t nf[2];
    memcpy(nf, p + 32, 8);
    if ((nf[1] & SLOT_INVALID) || nf[0] > (uint32_t)st->txn_size) {
        st->invalid++;
        return 0;
    }
    item->ts = *word(p, 8);
    item->nmeta = (int)nf[0];
    memcpy(item->meta, p + 40, (size_t)item->nmeta * 8);
    item->crc = want_crc ? ramp_crc32(p + st->off_val, (size_t)st->value_size) : 0;
    st->valid++;
    return 1;
}

int ramp_star_first_round(struct ramp_star *st, struct ramp_client *c, struct ramp_slot *s,
                          uint64_t *have)
{
    int slot = (int)(s - c->slots), any = 0;
    for (int i = 0; i < s->n; i++) {
        if (!st->cache[s->keys[i]]) {
            st->misses++;
            continue;
        }
        int srv = ramp_key_server(s->keys[i], st->servers);
        st->ann[(size_t)srv * st->concurrency + slot] = st->known[srv] + 1;
        any = 1;
    }
    if (!any)
        return MPI_SUCCESS;
    /* the announcements are visible before the slots are read */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    MPI_Win_sync(st->ann_win);
    for (int i = 0; i < s->n; i++) {
        uint32_t idx = st->cache[s->keys[i]];
        if (!idx)
            continue;
        int rc = MPI_Get(st->rbuf + (size_t)i * st->slot_size, (int)st->slot_size, MPI_BYTE,
                         ramp_key_server(s->keys[i], st->servers),
                         (MPI_Aint)((size_t)(idx - 1) * st->slot_size), (int)st->slot_size,
                         MPI_BYTE, st->win);
        if (rc != MPI_SUCCESS)
            return rc;
        st->reads++;
    }
    int rc = MPI_Win_flush_all(st->win);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < s->n; i++) {
        if (!st->cache[s->keys[i]])
            continue;
        uint8_t *p = st->rbuf + (size_t)i * st->slot_size;
        if (!accept(st, p, s->keys[i], &s->items[i], c->history != NULL))
            continue;
        *have |= 1ull << i;
        int srv = ramp_key_server(s->keys[i], st->servers);
        if (*word(p, 24) > st->known[srv])
            st->known[srv] = *word(p, 24);
    }
    return MPI_SUCCESS;
}

void ramp_star_get_done(struct ramp_star *st, struct ramp_slot *s, int slot_index)
{
    (void)s;
    for (int srv = 0; srv < st->servers; srv++)
        st->ann[(size_t)srv * st->concurrency + slot_index] = 0;
}

void ramp_star_learn(struct ramp_star *st, uint64_t key, uint64_t aux)
{
    if (aux)
        st->cache[key] = (uint32_t)aux;
}

void ramp_star_report(const struct ramp_star *st, int rank)
{
    fprintf(stderr, "rdmpi-ramp: rank %d: star: %lu one-sided reads, %lu valid, %lu invalid "
            "(a write prepared), %lu torn; %lu address cache misses\n", rank, st->reads,
            st->valid, st->invalid, st->torn, st->misses);
}

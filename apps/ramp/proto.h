/* proto: the messages between RAMP clients and servers, the same bytes
 * whichever method carries them (a two-sided message for rpc and s2pl, a
 * mailbox entry written with one-sided puts for plus and star). */
#ifndef RAMP_PROTO_H
#define RAMP_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define RAMP_PROTO_VERSION 1

/* Requests; a reply carries the request's type | RAMP_REPLY. */
enum ramp_msg_type {
    RAMP_PREPARE = 1,     /* key, ts, meta, value: store a version, not visible yet */
    RAMP_COMMIT,          /* ts: make ts's versions at this server committed */
    RAMP_GET_LATEST,      /* key: the latest committed version (first round) */
    RAMP_GET_VERSION,     /* key, ts: exactly that version (second round) */
    RAMP_LOCK,            /* s2pl: key, flags READ or WRITE; the reply grants it */
    RAMP_WRITE_UNLOCK,    /* s2pl: key, ts, meta, value: install, then release */
    RAMP_UNLOCK,          /* s2pl: release a read lock (no reply) */
    RAMP_DONE,            /* this client sends nothing more (no reply) */
    RAMP_REPLY = 0x80,
};

/* flags */
#define RAMP_F_READ 1       /* LOCK: a shared lock */
#define RAMP_F_WRITE 2      /* LOCK: an exclusive lock */
#define RAMP_F_NOTFOUND 4   /* GET_VERSION reply: no such version */

/*
 * One message, version RAMP_PROTO_VERSION, little-endian, 40 bytes of
 * header then nmeta 8-byte keys then vlen value bytes:
 *
 *  0      1       2       4               8
 *  +------+-------+-------+---------------+
 *  | type | flags | slot  |     entry     |   slot: the client's transaction
 *  +------+-------+-------+---------------+   slot; entry: the operation's
 *  |              key (64)                |   index in it (replies echo both)
 *  +--------------------------------------+
 *  |              ts (64)                 |
 *  +--------------------------------------+
 *  |              aux (64)                |   request: the client's oldest GET
 *  +-------------------+------------------+   in progress (GC); reply: star slot
 *  |    nmeta (32)     |    vlen (32)     |   index + 1 of the key, 0 if none
 *  +-------------------+------------------+
 *  | meta[nmeta] (64 each) | value[vlen]  |
 */
struct ramp_msg {
    uint8_t type;
    uint8_t flags;
    uint16_t slot;
    uint32_t entry;
    uint64_t key;
    uint64_t ts;
    uint64_t aux;
    uint32_t nmeta;
    uint32_t vlen;
} __attribute__((packed));

static inline uint64_t *ramp_msg_meta(struct ramp_msg *m)
{
    return (uint64_t *)(void *)(m + 1);
}

static inline uint8_t *ramp_msg_value(struct ramp_msg *m)
{
    return (uint8_t *)(m + 1) + (size_t)m->nmeta * 8;
}

static inline size_t ramp_msg_len(const struct ramp_msg *m)
{
    return sizeof(*m) + (size_t)m->nmeta * 8 + m->vlen;
}

/* The largest message of a run: a full item of txn_size metadata keys. */
static inline size_t ramp_msg_max(int txn_size, int value_size)
{
    return sizeof(struct ramp_msg) + (size_t)txn_size * 8 + (size_t)value_size;
}

#endif

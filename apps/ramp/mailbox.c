/* mailbox: GET+/PUT+ over MPI one-sided communication. Each server's
 * window holds a request mailbox per (client, slot, operation), each
 * client's a reply mailbox per (slot, operation); one request or reply is
 * in an entry at a time, as a slot sends an operation's next message only
 * after the reply to the last. An entry holds the study's format:
 *
 *   0            8      9          16                 16+len
 *   +------------+------+----------+--------------------+------+
 *   | len (64)   | ind1 | (pad)    | body: a ramp_msg   | ind2 |
 *   +------------+------+----------+--------------------+------+
 *
 * The receiver sees ind1, then ind2, copies the body out and zero-clears
 * both before it acts, so the sender's next message never meets a stale
 * indicator. MPI does not order a put's bytes, so the indicator must not
 * become visible before the body:
 *   notify: one MPIX_Put_notify of the whole entry (rdmpi's notified put:
 *           the data is in place when the target sees the notification,
 *           and the target takes notifications instead of scanning);
 *   flush:  the entry with ind1 clear, MPI_Win_flush, then ind1 alone
 *           (two puts and a round trip per message; any MPI library).
 * Send buffers are per entry (clients) or a ring (servers), completed
 * all at once when one is about to be reused. */
#include "mailbox.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR 16
/* Server reply buffers in flight. */
#define RING 64

struct mailbox {
    enum ramp_mailbox mode;
    struct ramp_window w;
    MPI_Win win;            /* w.win */
    uint8_t *base;          /* this rank's mailboxes: w.base */
    size_t entry;           /* bytes per entry */
    size_t per_client;      /* entries per client at a server: slots x operations */
    size_t nentries;        /* entries in this rank's window */
    uint8_t *stage;         /* send buffers: per entry (client) or RING (server) */
    int *stage_target;      /* rank a send buffer's last put went to, or -1 */
    size_t nstage;
    int ring_next;
    uint8_t *dirty;         /* client, flush mode: servers written this round */
    size_t cursor;          /* flush mode: where the scan resumes */
    struct ramp_msg *rbuf;
};

static const uint8_t one = 1;

static uint64_t *len_of(uint8_t *e) { return (uint64_t *)(void *)e; }
static uint8_t *ind1_of(uint8_t *e) { return e + 8; }
static uint8_t *ind2_of(uint8_t *e, uint64_t len) { return e + HDR + len; }

/* Lays message m out as an entry in buf; ind1 set only for notify. */
static size_t build(struct mailbox *mb, uint8_t *buf, const struct ramp_msg *m)
{
    uint64_t len = ramp_msg_len(m);
    memset(buf, 0, HDR);
    memcpy(buf, &len, 8);
    *ind1_of(buf) = mb->mode == RAMP_MB_NOTIFY;
    memcpy(buf + HDR, m, len);
    *ind2_of(buf, len) = 1;
    return HDR + len + 1;
}

/* Puts the entry in buf (bytes) at entry index idx of target's window. */
static int put_entry(struct mailbox *mb, const uint8_t *buf, size_t bytes, int target,
                     size_t idx, int tag)
{
    MPI_Aint disp = (MPI_Aint)(idx * mb->entry);
#ifdef RDMPI_HAVE_PUT_NOTIFY
    if (mb->mode == RAMP_MB_NOTIFY)
        return MPIX_Put_notify(buf, (int)bytes, MPI_BYTE, target, disp, (int)bytes, MPI_BYTE,
                               tag, mb->win);
#endif
    (void)tag;
    int rc = MPI_Put(buf, (int)bytes, MPI_BYTE, target, disp, (int)bytes, MPI_BYTE, mb->win);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_flush(target, mb->win);
    if (rc == MPI_SUCCESS)
        rc = MPI_Put(&one, 1, MPI_BYTE, target, disp + 8, 1, MPI_BYTE, mb->win);
    return rc;
}

/* Send buffer i, for a put to target. A buffer whose last put may still
 * read it must be completed first; one MPI_Win_flush_local_all then
 * completes every buffer in flight, so a client pays at most one per
 * round of its transactions and a server one per RING replies, instead
 * of a completion (a round trip on some paths) per message. */
static uint8_t *stage(struct mailbox *mb, size_t i, int target)
{
    if (mb->stage_target[i] >= 0) {
        MPI_Win_flush_local_all(mb->win);
        for (size_t k = 0; k < mb->nstage; k++)
            mb->stage_target[k] = -1;
    }
    mb->stage_target[i] = target;
    return mb->stage + i * mb->entry;
}

static int mb_send_req(struct ramp_net *n, int server, const struct ramp_msg *m)
{
    struct mailbox *mb = n->impl;
    size_t mine = (size_t)m->slot * (size_t)n->txn_size + m->entry;
    uint8_t *buf = stage(mb, mine, server);
    size_t bytes = build(mb, buf, m);
    size_t idx = (size_t)(n->rank - n->servers) * mb->per_client + mine;
    if (mb->mode == RAMP_MB_FLUSH)
        mb->dirty[server] = 1;
    return put_entry(mb, buf, bytes, server, idx, (int)mine);
}

/* Flush mode: the indicator puts of the round complete (some libraries
 * start an operation only at a flush). */
static int mb_round_done(struct ramp_net *n)
{
    struct mailbox *mb = n->impl;
    if (mb->mode != RAMP_MB_FLUSH)
        return MPI_SUCCESS;
    for (int s = 0; s < n->servers; s++) {
        if (!mb->dirty[s])
            continue;
        mb->dirty[s] = 0;
        int rc = MPI_Win_flush(s, mb->win);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* Takes the message of entry e (ind1 seen): copies it out, clears the
 * indicators. Returns NULL for a malformed entry (reported). */
static struct ramp_msg *take(struct ramp_net *n, struct mailbox *mb, uint8_t *e)
{
    uint64_t len = *len_of(e);
    if (len < sizeof(struct ramp_msg) || len > n->max_msg) {
        fprintf(stderr, "rdmpi-ramp: rank %d: mailbox entry of %llu bytes\n", n->rank,
                (unsigned long long)len);
        return NULL;
    }
    /* the body came first (flush or notification): ind2 is already set */
    if (__atomic_load_n(ind2_of(e, len), __ATOMIC_ACQUIRE) != 1) {
        fprintf(stderr, "rdmpi-ramp: rank %d: mailbox entry without its second indicator\n",
                n->rank);
        return NULL;
    }
    memcpy(mb->rbuf, e + HDR, len);
    *ind2_of(e, len) = 0;
    *len_of(e) = 0;
    __atomic_store_n(ind1_of(e), 0, __ATOMIC_RELEASE);
    return mb->rbuf;
}

/* The next entry with a message: by notification, or by scanning the
 * first indicators from where the last scan stopped. */
static uint8_t *next_entry(struct ramp_net *n, struct mailbox *mb, size_t *idx)
{
#ifdef RDMPI_HAVE_PUT_NOTIFY
    if (mb->mode == RAMP_MB_NOTIFY) {
        int flag, source, tag;
        MPIX_Win_notify_test(mb->win, &flag, &source, &tag);
        if (!flag)
            return NULL;
        size_t i = (size_t)tag;
        if (n->rank < n->servers)
            i += (size_t)(source - n->servers) * mb->per_client;
        if (i >= mb->nentries || __atomic_load_n(ind1_of(mb->base + i * mb->entry),
                                                 __ATOMIC_ACQUIRE) != 1) {
            fprintf(stderr, "rdmpi-ramp: rank %d: notification from %d (tag %d) for an "
                    "empty mailbox\n", n->rank, source, tag);
            MPI_Abort(n->comm, 1);
        }
        *idx = i;
        return mb->base + i * mb->entry;
    }
#endif
    int flag;
    /* progress for puts applied by this rank's MPI calls, and a fence */
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, n->comm, &flag, MPI_STATUS_IGNORE);
    MPI_Win_sync(mb->win);
    for (size_t k = 0; k < mb->nentries; k++) {
        size_t i = (mb->cursor + k) % mb->nentries;
        uint8_t *e = mb->base + i * mb->entry;
        if (__atomic_load_n(ind1_of(e), __ATOMIC_ACQUIRE) == 1) {
            mb->cursor = i + 1;
            *idx = i;
            return e;
        }
    }
    return NULL;
}

/* The next complete message of any mailbox entry (its index to *idx), or
 * NULL. */
static struct ramp_msg *poll_entry(struct ramp_net *n, size_t *idx)
{
    struct mailbox *mb = n->impl;
    uint8_t *e = next_entry(n, mb, idx);
    if (!e)
        return NULL;
    struct ramp_msg *m = take(n, mb, e);
    if (!m)
        MPI_Abort(n->comm, 1);
    return m;
}

static struct ramp_msg *mb_poll_rep(struct ramp_net *n)
{
    size_t idx;
    return poll_entry(n, &idx);
}

static struct ramp_msg *mb_poll_req(struct ramp_net *n, int *client)
{
    struct mailbox *mb = n->impl;
    size_t idx;
    struct ramp_msg *m = poll_entry(n, &idx);
    if (m)
        *client = (int)(idx / mb->per_client);
    return m;
}

static int mb_send_rep(struct ramp_net *n, int client, const struct ramp_msg *m)
{
    struct mailbox *mb = n->impl;
    int target = n->servers + client;
    uint8_t *buf = stage(mb, (size_t)mb->ring_next, target);
    mb->ring_next = (mb->ring_next + 1) % RING;
    size_t bytes = build(mb, buf, m);
    size_t idx = (size_t)m->slot * (size_t)n->txn_size + m->entry;
    int rc = put_entry(mb, buf, bytes, target, idx, (int)idx);
    if (rc == MPI_SUCCESS && mb->mode == RAMP_MB_FLUSH)
        rc = MPI_Win_flush(target, mb->win);
    return rc;
}

static void mb_free(struct ramp_net *n)
{
    struct mailbox *mb = n->impl;
    ramp_window_free(&mb->w);
    free(mb->stage);
    free(mb->stage_target);
    free(mb->dirty);
    free(mb->rbuf);
    free(mb);
    n->impl = NULL;
}

static const struct ramp_net_ops mailbox_ops = {
    mb_send_req, mb_round_done, mb_poll_rep, mb_poll_req, mb_send_rep, mb_free,
};

int ramp_mailbox_init(struct ramp_net *n, const struct ramp_opts *o, MPI_Comm comm)
{
    struct mailbox *mb = calloc(1, sizeof(*mb));
    if (!mb)
        return MPI_ERR_NO_MEM;
    int size;
    n->ops = &mailbox_ops;
    n->comm = comm;
    MPI_Comm_rank(comm, &n->rank);
    MPI_Comm_size(comm, &size);
    n->servers = o->servers;
    n->clients = size - o->servers;
    n->concurrency = o->concurrency;
    n->txn_size = o->txn_size;
    n->max_msg = ramp_msg_max(o->txn_size, o->value_size);
    mb->mode = o->mailbox;
    mb->entry = (HDR + n->max_msg + 1 + 63) / 64 * 64;
    mb->per_client = (size_t)o->concurrency * (size_t)o->txn_size;
    int server = n->rank < n->servers;
    mb->nentries = server ? (size_t)n->clients * mb->per_client : mb->per_client;
    size_t nstage = server ? RING : mb->per_client;
    mb->stage = malloc(nstage * mb->entry);
    mb->stage_target = malloc(nstage * sizeof(int));
    mb->dirty = calloc((size_t)n->servers, 1);
    mb->rbuf = malloc(n->max_msg);
    if (!mb->stage || !mb->stage_target || !mb->dirty || !mb->rbuf) {
        free(mb->stage);
        free(mb->stage_target);
        free(mb->dirty);
        free(mb->rbuf);
        free(mb);
        return MPI_ERR_NO_MEM;
    }
    for (size_t i = 0; i < nstage; i++)
        mb->stage_target[i] = -1;
    mb->nstage = nstage;
    int rc = ramp_window_new(&mb->w, o, mb->nentries * mb->entry, 1, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    mb->win = mb->w.win;
    mb->base = mb->w.base;
    n->impl = mb;
    return MPI_SUCCESS;
}

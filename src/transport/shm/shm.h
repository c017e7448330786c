/*
 * Shared-memory transport: layout of the node segment and of its rings.
 *
 * The transport itself is exported as rd_shm_transport (transport.h); this
 * header is the wire format between the processes of one node, plus the
 * tunables. Everything here is shared by processes of the same build only
 * (its creator writes RD_SHM_VERSION into the segment and the others check
 * it), so the structs need no endianness care, only fixed sizes.
 *
 * One POSIX shm segment per node (named, created, reserved and shared out by
 * shm_seg.c), unlinked as soon as every local rank has mapped it:
 *
 *   offset 0              +---------------------------------------------+
 *                         | rd_shm_seg_hdr_t (magic, version, sizes,    |
 *                         |   cma_ok vote)             one page         |
 *   RD_SHM_PAGE           +---------------------------------------------+
 *                         | rd_shm_slot_t[n]: pid, probe address, CPU  |
 *                         |   mask, wait mark of each local rank        |
 *                         |                            384 B each       |
 *   ctl_off               +---------------------------------------------+
 *                         | rd_shm_ctl_t[n*(n-1)]: released position of |
 *                         |   each ring (consumer-written)  128 B each  |
 *   sig_off               +---------------------------------------------+
 *                         | rd_shm_sig_t[n*(n-1)]: signals raised from  |
 *                         |   src to dst (src-written)      128 B each  |
 *   area_off (page al.)   +---------------------------------------------+
 *                         | n areas of area_bytes, one per local rank:  |
 *                         |   the transport's area op; layout owned by  |
 *                         |   the caller (src/coll/coll_shm.h)          |
 *   ring_off (page al.)   +---------------------------------------------+
 *                         | ring data, n*(n-1) rings of ring_bytes,     |
 *                         |   ring (src -> dst) at rd_shm_ring_index()  |
 *                         +---------------------------------------------+
 *
 * A ring is a byte array of ring_bytes (a power of two) holding
 * variable-length records that start on 64-byte cells and never wrap:
 *
 *   cell k            cell k+1                cell k+m
 *   +----+----+------+-------------+---------+------------------+-------
 *   |flag|len | hdr  | pad | payload (len bytes, may span cells) | flag=0 ...
 *   +----+----+------+-------------+---------+------------------+-------
 *    ^ rd_shm_rec_t                   next record starts on a cell boundary
 *
 * Why variable-length records rather than fixed cells: the upcall gets the
 * payload as one contiguous pointer straight into the ring (no copy), and a
 * small message (record header + p2p header + a few bytes) still occupies a
 * single cache line, so a ping-pong moves one line each way.
 *
 * Publication: the producer writes len, hdr and payload, makes sure the
 * flag word of the cell right after the record (the next record's flag)
 * holds 0, then stores the record's flag with release. The consumer polls
 * the flag of the cell at its read position with acquire. Because the
 * successor's flag is 0 before a record is published, a stale value (an old
 * flag or payload bytes of an earlier lap) can never be mistaken for a new
 * record. The producer keeps one spare cell free for that flag, and after a
 * publication that leaves fewer than two cleared cells past its tail clears
 * the next few in one pass, so that a send usually finds its successor's
 * flag already cleared and has no extra cache-line transfer before its own
 * publication. The consumer's idle poll reads only the flag at its read
 * position (one line per peer). A record that does not fit
 * before the end of the ring is preceded by a WRAP record filling the rest,
 * and goes at offset 0.
 *
 * Flow control: the consumer publishes how far it has consumed (ctl.head,
 * release) at the end of each progress pass, and every ring_bytes/16 within
 * a pass so the producer refills while the consumer copies large records.
 * The producer caches that value and reads the shared line again only when
 * its cached view says the ring is full.
 * The producer's tail and the consumer's read position are private to each
 * process, so the only shared lines are the records and ctl.head.
 *
 * Signals (the transport's signal / signaled ops, used by p2p's barrier):
 * sig[ring index (src -> dst)].count is the number of signals src has raised
 * towards dst, stored by src alone with release; dst counts privately how
 * many it has consumed and polls the line with acquire. No payload, no
 * ordering with the ring's records: a signal is a bare counter, one cache
 * line between the two processes.
 *
 * Wait marks (the transport's wait_mark / waiting ops, used by p2p to
 * tell node peers whether this rank is blocked in a wait that polls
 * progress): slot.waiting, stored by its rank alone (relaxed: it is a hint,
 * the rings carry the data and its order) on a line pair no other field
 * shares, read by peers.
 *
 * Areas (the transport's area op, used by src/coll for node-local
 * collectives): area_bytes per local rank, zeroed by ftruncate, whose layout
 * the caller defines and versions; the transport only hands out pointers.
 */
#ifndef RD_TRANSPORT_SHM_SHM_H
#define RD_TRANSPORT_SHM_SHM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "transport/transport.h"

/* Layout version: bump on any change to the structs or the ring protocol. */
#define RD_SHM_VERSION 5u
#define RD_SHM_MAGIC 0x7264736d73686d31ull   /* "rdsmshm1" */

#define RD_SHM_CELL 64               /* record alignment: one cache line */
#define RD_SHM_LINE 128              /* separation of shared control words
                                        (adjacent-line prefetch pairs lines) */
#define RD_SHM_PAGE 4096
#define RD_SHM_HDR_MAX RD_TP_HDR_MAX /* largest header send() accepts */

/* Tunables (doc/tunables.md). */
#define RD_SHM_EAGER_MAX_DEFAULT (4 * 1024)     /* RDMPI_SHM_EAGER_MAX */
#define RD_SHM_RING_BYTES_DEFAULT (128 * 1024)  /* RDMPI_SHM_RING_BYTES */
/* Rendezvous from this size are split: the receiver's core copies the first
 * half with process_vm_readv while the sender's writes the second
 * (process_vm_writev). Below it, the extra PUT message costs more than the
 * copy it shares (doc/performance.md). */
#define RD_SHM_SPLIT_MIN (32 * 1024)
#define RD_SHM_EAGER_MAX_LIMIT (1u << 20)       /* largest accepted setting */
#define RD_SHM_RING_BYTES_LIMIT (1u << 26)
/* RDMPI_SHM_AREA_BYTES: 264 KiB, so that src/coll's two buffers per area
 * (coll_shm.h: a header, then two control blocks each followed by its
 * data) hold chunks of 128 KiB, a power of two. */
#define RD_SHM_AREA_BYTES_DEFAULT (264 * 1024)
#define RD_SHM_AREA_BYTES_LIMIT (1u << 26)

/* Record kinds (low byte of the flag word; 0 means "no record yet"). */
enum {
    RD_SHM_REC_EMPTY = 0,
    RD_SHM_REC_MSG = 1,          /* a message: hdr + payload */
    RD_SHM_REC_WRAP = 2,         /* filler up to the end of the ring */
};

/*
 * Record header, at the start of a cell (8 bytes):
 *
 *   0       8      16              32                              64
 *   +-------+-------+---------------+-------------------------------+
 *   | kind  |hdrlen |   reserved 0  |         len (payload)         |
 *   +-------+-------+---------------+-------------------------------+
 *   |<-------- flag (atomic, stored last) -------->|
 *   then hdr[hdrlen], zero-padded to 8 bytes, then payload[len],
 *   and the record is rounded up to a whole cell.
 */
typedef struct rd_shm_rec {
    _Atomic uint32_t flag;       /* kind | hdrlen << 8 */
    uint32_t len;
    unsigned char data[];        /* hdr, pad to 8, payload */
} rd_shm_rec_t;

_Static_assert(sizeof(rd_shm_rec_t) == 8, "record header is 8 bytes");

static inline uint32_t rd_shm_flag(unsigned kind, size_t hdrlen)
{
    return (uint32_t)kind | (uint32_t)hdrlen << 8;
}

static inline unsigned rd_shm_flag_kind(uint32_t flag) { return flag & 0xff; }
static inline size_t rd_shm_flag_hdrlen(uint32_t flag) { return (flag >> 8) & 0xff; }

/* Offset of the payload inside a record's data[]. */
static inline size_t rd_shm_payload_off(size_t hdrlen)
{
    return (hdrlen + 7) & ~(size_t)7;
}

/* Bytes a record takes in the ring, whole cells. */
static inline size_t rd_shm_rec_size(size_t hdrlen, size_t len)
{
    size_t n = sizeof(rd_shm_rec_t) + rd_shm_payload_off(hdrlen) + len;
    return (n + RD_SHM_CELL - 1) & ~(size_t)(RD_SHM_CELL - 1);
}

/* Segment header (first page), written by its creator before the first fence. */
typedef struct rd_shm_seg_hdr {
    uint64_t magic;              /* RD_SHM_MAGIC */
    uint32_t version;            /* RD_SHM_VERSION */
    uint32_t nlocal;             /* local ranks */
    uint64_t seg_bytes;          /* total size of the segment */
    uint64_t ring_bytes;         /* bytes per ring, power of two */
    uint64_t eager_max;          /* node-wide eager limit */
    uint64_t ctl_off;            /* offset of rd_shm_ctl_t[] */
    uint64_t ring_off;           /* offset of the first ring */
    _Atomic uint32_t cma_ok;     /* 1 until some local rank votes no */
    uint32_t reserved;
    uint64_t sig_off;            /* offset of rd_shm_sig_t[] (version 2) */
    uint64_t area_off;           /* offset of the first area (version 3) */
    uint64_t area_bytes;         /* bytes per area, page multiple, may be 0 */
} rd_shm_seg_hdr_t;

/* CPUs a slot's mask covers (bits 0 .. RD_SHM_CPUS - 1). */
#define RD_SHM_CPUS 1024

/* Per local rank, written by that rank between the first and second fence. */
typedef struct rd_shm_slot {
    int32_t pid;
    int32_t rank;                /* job rank */
    uint64_t probe_addr;         /* address of a word holding RD_SHM_MAGIC */
    /* The CPUs the rank may run on (its affinity mask at init; version 4);
     * all zero when unknown (more CPUs than RD_SHM_CPUS, or the call failed). */
    uint64_t cpus[RD_SHM_CPUS / 64];
    char pad[2 * RD_SHM_LINE - 16 - RD_SHM_CPUS / 8];
    /* 1 while the rank is blocked in a wait that polls progress, else 0
     * (version 5): written by the rank alone, on a line pair of its own. */
    _Atomic uint32_t waiting;
    char pad_waiting[RD_SHM_LINE - 4];
} rd_shm_slot_t;

/* Per ring: the consumer's released position (bytes, monotonic). */
typedef struct rd_shm_ctl {
    _Atomic uint64_t head;
    char pad[RD_SHM_LINE - 8];
} rd_shm_ctl_t;

/* Per ordered pair (src -> dst, ring index): signals src has raised. */
typedef struct rd_shm_sig {
    _Atomic uint64_t count;
    char pad[RD_SHM_LINE - 8];
} rd_shm_sig_t;

_Static_assert(sizeof(rd_shm_sig_t) == RD_SHM_LINE, "sig is one line pair");
_Static_assert(sizeof(rd_shm_slot_t) == 3 * RD_SHM_LINE, "slot is three line pairs");
_Static_assert(sizeof(rd_shm_ctl_t) == RD_SHM_LINE, "ctl is one line pair");

/* Index of ring src -> dst (local ranks, src != dst) among n*(n-1). */
static inline size_t rd_shm_ring_index(int n, int src, int dst)
{
    return (size_t)src * (size_t)(n - 1) + (size_t)(dst < src ? dst : dst - 1);
}

/* CMA memory key: the owner's pid and the region it exposes. */
typedef struct rd_shm_key {
    int32_t pid;
    uint32_t reserved;
    uint64_t addr;
    uint64_t len;
} rd_shm_key_t;

#endif

/*
 * Node-local collectives through shared memory: when every rank of a
 * communicator shares memory with every other (p2p's rd_p2p_node_areas; shm:
 * all on one node), data goes through each rank's shared area instead of
 * messages, so a broadcast or an allreduce costs one hand-off between ranks
 * instead of log2 n rounds. This matters most when ranks outnumber cores,
 * where every hand-off may wait for a context switch.
 *
 * Each rank owns one area (its own process writes it, the others read it),
 * laid out as below, version RD_COLL_SHM_VERSION. The area's size comes from
 * the transport (RDMPI_SHM_AREA_BYTES); the two buffers split what follows
 * the header, each a 16-byte control block and room for chunk data bytes
 * (chunk: the largest power of two that fits; 128 KiB by default):
 *
 *   0             +----------------------------------------------------+
 *                 | rd_coll_shm_hdr_t: version (owner-written)   128 B |
 *   128           +----------------------------------------------------+
 *                 | rd_coll_shm_buf_t 0: stamp, left, bytes       16 B |
 *                 | data[chunk]                                        |
 *   128 + stride  +----------------------------------------------------+
 *                 | rd_coll_shm_buf_t 1: stamp, left, bytes       16 B |
 *                 | data[chunk]                                        |
 *                 +----------------------------------------------------+
 *
 * A publication: the owner takes whichever of its two buffers has stamp 0
 * (free; the one after its previous publication's when both are, so it can
 * fill one while readers still copy out of the other), waiting until one
 * is, writes the data, stores left = number of readers, then the stamp
 * with release. The stamp is (context id << 32 | sequence number of
 * the communicator's node-local collectives), never 0, and identifies the
 * content: a reader waits until one of the owner's two buffers carries the
 * stamp it expects (acquire), copies, and decrements left; the last reader
 * stores stamp 0 (release), which frees the buffer. Because a buffer's stamp
 * is cleared once it has been read, a stale buffer never carries a stamp a
 * later collective expects, even when a freed communicator's context id is
 * reused (its sequence numbers start again at 1).
 *
 * Nonblocking broadcasts (version 2): MPI_Ibcast takes the sequence numbers
 * of all its chunks when it is called, and publishes or copies them out
 * later, from a schedule step polled by the progress engine. So an owner's
 * publications need not appear in sequence order (a blocking collective
 * started after a pending MPI_Ibcast may publish first), and a reader looks
 * for its exact stamp in both buffers. A buffer with stamp 0 may be taken
 * at the next progress call, so an owner that reads its own publication
 * after the others may be done with it (allreduce's contributions) counts
 * itself in left and releases it too. No rank waits with a buffer held and
 * without progress: the blocking waits call rd_progress, which moves every
 * pending schedule's readers on and so frees the buffers a publication
 * waits for.
 *
 * Threads: while other application threads may run MPI calls during a
 * wait (rd_p2p_threads: MPI_THREAD_MULTIPLE), the communicators' collectives
 * decline (RD_ENOTSUP: the message algorithms run). A process has two
 * buffers for all its communicators, so three threads' blocking
 * collectives on three communicators can each wait, buffer held, for a
 * peer whose thread waits for a buffer held the same way (a cycle across
 * processes). rd_p2p_threads is the node's (decided at the start from
 * its ranks' levels), so the ranks of a communicator decide alike; the
 * waits keep the lock (rd_p2p_backoff), for a rank that raised its level
 * later and still runs them.
 *
 * Single-copy alltoall (version 3; rd_coll_shm_alltoall_cma): instead of
 * data, each rank publishes one rd_coll_shm_a2a_t (below) naming where its
 * send blocks lie and a key that lets the others read them (p2p's
 * rd_p2p_node_key; shm: CMA). Every reader copies the block meant for it straight from the
 * owner's send buffer into its receive buffer (rd_p2p_node_read) and only
 * then releases the publication; the owner counts itself in left and
 * returns only once it is the last one left (then releases it too), i.e.
 * once every peer is done reading its send buffer. One hand-off in each
 * direction, one copy per block.
 *
 * Fewer cache-line transfers (version 4): the data start right after the
 * stamp and left (byte 16 of the buffer, the stamp's 64-byte line), so a
 * reader that sees the stamp of a publication of up to 48 bytes has its
 * data too, and larger ones' first line. An allreduce rank that is not
 * reducing in place takes its own contribution from its send buffer, not
 * from its publication, so it is not among the publication's readers and
 * never writes its control line after pub_end: at two ranks the peer is
 * the only reader, and it frees the buffer with a plain store of stamp 0
 * (release sees left == 1: no read-modify-write). In place, the owner
 * still reads its publication and counts itself in left, as before.
 *
 * Sizes (version 5): each publication of a broadcast or an allreduce
 * carries in bytes the size its owner passed (the whole message or vector,
 * in bytes; RD_COLL_SHM_BYTES_BIG from 4 GiB on), so that a reader
 * whose own size differs notices it at the first chunk, where every rank
 * looks: a broadcast receiver takes all of the root's chunks, keeps what
 * fits and reports RD_ETRUNC (the root sent more) or RD_ESIZE (less); the
 * allreduce ranks all see every contribution's size at the first chunk and
 * stop there with RD_ETRUNC (some contribution is longer than this rank's)
 * or RD_ESIZE. Either way every rank has taken the same sequence numbers,
 * so the communicator's later collectives still match. What the areas
 * cannot show: a rank whose size is 0 or whose size sends it down another
 * path (above the RDMPI_*_SHM_MAX limits, or a datatype layout the path
 * does not take) never meets the others there (doc/architecture.md, Errors).
 *
 * Every rank of the communicator agrees on each decision (all local or not,
 * sizes against thresholds, datatype contiguity for allreduce), so all take
 * the same path. Private to src/coll.
 */
#ifndef RD_COLL_COLL_SHM_H
#define RD_COLL_COLL_SHM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/comm.h"
#include "core/datatype.h"
#include "core/op.h"
#include "coll/nbc.h"
#include "p2p/p2p.h"

/* Layout version: bump on any change to the structs or the protocol. */
#define RD_COLL_SHM_VERSION 5u
#define RD_COLL_SHM_LINE 128

typedef struct rd_coll_shm_hdr {
    _Atomic uint32_t version;    /* RD_COLL_SHM_VERSION, stored before the first stamp */
    char pad[RD_COLL_SHM_LINE - 4];
} rd_coll_shm_hdr_t;

typedef struct rd_coll_shm_buf {
    _Atomic uint64_t stamp;      /* 0: free; else the content's identity */
    _Atomic uint32_t left;       /* readers still to copy out */
    uint32_t bytes;              /* the size its owner passed, capped at RD_COLL_SHM_BYTES_BIG */
    unsigned char data[];        /* chunk bytes, from the stamp's cache line on */
} rd_coll_shm_buf_t;

/* The data of a single-copy alltoall publication (version 3 on):
 *
 *   0    +-------------------------------------------------+
 *        | addr: block 0's first byte in the owner's memory |
 *   8    +-------------------------------------------------+
 *        | stride: bytes from block i to block i + 1        |
 *   16   +------------------------+------------------------+
 *        | keylen (bytes of key)  | reserved (0)           |
 *   24   +------------------------+------------------------+
 *        | key[RD_P2P_NODE_KEY_MAX] (rd_p2p_node_key)       |
 *   56   +-------------------------------------------------+
 *
 * Block d (for rank d) is bytes [addr + d stride, addr + d stride + n) of
 * the owner, where n is the block size every rank passed. */
typedef struct __attribute__((packed)) rd_coll_shm_a2a {
    uint64_t addr;
    uint64_t stride;
    uint32_t keylen;
    uint32_t reserved;
    unsigned char key[RD_P2P_NODE_KEY_MAX];
} rd_coll_shm_a2a_t;

/* bytes of a publication whose size is 4 GiB or more: such sizes are not compared. */
#define RD_COLL_SHM_BYTES_BIG UINT32_MAX

_Static_assert(sizeof(rd_coll_shm_hdr_t) == RD_COLL_SHM_LINE, "header is one line pair");
_Static_assert(sizeof(rd_coll_shm_a2a_t) == 24 + RD_P2P_NODE_KEY_MAX, "a2a descriptor is packed");
_Static_assert(sizeof(rd_coll_shm_buf_t) == 16, "data share the stamp's cache line");

/* Each returns RD_ENOTSUP having done nothing when the path does not apply
 * (some rank not sharing memory, size above its RDMPI_*_SHM_MAX, a layout
 * it cannot take); every rank of c gets the same answer. Else RD_OK or a
 * negative status. Data are copied in chunks through the two buffers. */
int rd_coll_shm_bcast(rd_comm_t *c, void *buf, size_t count, rd_datatype_t *dt, int root);
/* MPI_Ibcast: appends to s one wait step (src/coll/nbc.h) that publishes
 * the chunks at the root as its buffers come free, or copies them out at
 * the others as they appear, so the schedule advances with progress and
 * never blocks. The chunks' stamps are taken here, when the call is made,
 * so collectives started later get the same sequence numbers on every rank
 * whatever order they complete in. Up to RDMPI_IBCAST_SHM_MAX bytes. */
int rd_coll_shm_ibcast(rd_nbc_t *s, void *buf, size_t count, rd_datatype_t *dt, int root);

/* Contributions are reduced in rank order (x0 op x1 op ... op x(n-1),
 * associated from the right), so non-commutative ops keep the standard's
 * order and all ranks get bit-identical results. Short vectors: every rank
 * reduces all of each chunk (one hand-off). From RDMPI_ALLREDUCE_SHM_SPLIT_MIN
 * bytes: rank i reduces segment i of each chunk and publishes it, and all
 * copy the segments (two hand-offs, 1/n of the arithmetic per rank).
 * Contiguous layouts only. */
int rd_coll_shm_allreduce(rd_comm_t *c, const void *sbuf, void *rbuf, size_t count,
                          rd_datatype_t *dt, const rd_op_t *op);

/* Every rank publishes its blocks for the others (as many destinations per
 * chunk as fit) and copies out the block each other rank published for it.
 * sbuf is never MPI_IN_PLACE here (the caller packs that case first). */
int rd_coll_shm_alltoall(rd_comm_t *c, const void *sbuf, size_t scount, rd_datatype_t *stype,
                         void *rbuf, size_t rcount, rd_datatype_t *rtype);

/* The same from RDMPI_ALLTOALL_CMA_MIN bytes per block when the transport
 * reads peer memory (shm: CMA works): each rank reads its blocks straight
 * from the peers' send buffers. Contiguous send blocks are read in place,
 * others are packed first; a non-contiguous receive type is read into a
 * staging block and unpacked. */
int rd_coll_shm_alltoall_cma(rd_comm_t *c, const void *sbuf, size_t scount,
                             rd_datatype_t *stype, void *rbuf, size_t rcount,
                             rd_datatype_t *rtype);

#endif

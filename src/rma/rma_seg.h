/*
 * Node-shared memory segments for windows: POSIX shared memory objects
 * that a window's members on one node map, so that Put, Get, atomics and
 * lock words reach a peer's window with loads and stores. A segment is
 * created by one rank under a name nobody can guess ahead, which reaches
 * its node peers in the window's descriptor (allgathered over the
 * window's communicator), mapped by them, and unlinked once every peer has
 * mapped it (the mapping stays valid), so that nothing is left in /dev/shm
 * after the window's creation, whatever happens to the job later.
 */
#ifndef RD_RMA_RMA_SEG_H
#define RD_RMA_RMA_SEG_H

#include <stddef.h>

#define RD_RMA_SEG_NAME_MAX 64

/* Creates a segment of len bytes (len 0: one page, so that every segment
 * can be mapped) under a new random name /rdmpi-<job>-w<64 random bits>,
 * written into name (RD_RMA_SEG_NAME_MAX bytes), with O_EXCL and mode
 * 0600, zero-filled with its pages reserved; maps it at *addr and returns
 * RD_OK, or a negative status with the detail recorded (RD_ENOMEM: no room
 * in memory or /dev/shm; nothing is left under the name). */
int rd_rma_seg_create(char *name, size_t len, void **addr);
/* Maps the existing segment name (len bytes, as created) at *addr; a
 * segment of another user, or smaller than len, is refused (RD_ESYS). */
int rd_rma_seg_map(const char *name, size_t len, void **addr);
/* Removes the name (the mappings stay); a name already gone is fine. */
void rd_rma_seg_unlink(const char *name);
void rd_rma_seg_unmap(void *addr, size_t len);
/* The length actually mapped for a segment of len bytes. */
size_t rd_rma_seg_len(size_t len);

/* Job id for segment names (set once at rma's init). */
void rd_rma_seg_init(const char *job_id);

#endif

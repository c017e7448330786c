/*
 * mtest: helpers shared by the MPI-level test programs in test/mpi.
 *
 * Every program calls MTest_Init first and ends with "return MTest_Finalize();".
 * Failures are counted with MT_CHECK / MT_FAIL, which print the rank, the
 * source line and the expected vs. actual values. MTest_Finalize collects the
 * counts on rank 0 with point-to-point messages only (so the p2p tests do not
 * depend on collectives) and rank 0 prints "No Errors" or "Found N errors";
 * the process exit status is non-zero on any rank that saw a failure.
 * Those messages use tag MTEST_TAG_FINALIZE on COMM_WORLD, so a test must not
 * post MPI_ANY_SOURCE + MPI_ANY_TAG receives on COMM_WORLD at rank 0 that
 * another rank's finalize message could match.
 *
 * The helpers use only MPI calls of MPI-3.1 chapter 3 (plus Init/Finalize),
 * so the same sources build against rdmpi, MPICH and Open MPI.
 */
#ifndef MTEST_H
#define MTEST_H

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

extern int MTest_rank;      /* rank in MPI_COMM_WORLD */
extern int MTest_size;      /* size of MPI_COMM_WORLD */
extern int MTest_errs;      /* failures seen on this rank */

#define MTEST_TAG_FINALIZE 32000

/* MPI_Init plus a SIGALRM watchdog of MPITEST_TIMEOUT seconds (default 180)
 * so a hung program dies even without a launcher-side timeout. */
void MTest_Init(int *argc, char ***argv);
/* Same with MPI_Init_thread; returns the provided level. */
int MTest_Init_thread(int *argc, char ***argv, int required);
/* Collects errors, prints the verdict on rank 0, calls MPI_Finalize.
 * Returns the exit status for main(). */
int MTest_Finalize(void);

/* Closes every IPv4/IPv6 stream socket of this process (not PMIx's Unix
 * socket, nor stdio): the rank vanishes from a TCP network while it still
 * runs, so only the transport, not the launcher, can notice. */
void MTest_Close_tcp_sockets(void);

/* If MPI_COMM_WORLD has fewer than n ranks: rank 0 prints a SKIP line and
 * the usual "No Errors", every rank finalizes and exits 0. */
void MTest_Need_ranks(int n);

void MTest_Error(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Count a failure unless cond holds; fmt describes expected vs. got. */
#define MT_CHECK(cond, ...) \
    do { if (!(cond)) MTest_Error(__FILE__, __LINE__, __VA_ARGS__); } while (0)
#define MT_FAIL(...) MTest_Error(__FILE__, __LINE__, __VA_ARGS__)
/* An MPI call that must succeed (with MPI_ERRORS_RETURN installed a failure
 * is reported; with the default handler the job aborts anyway). */
#define MT_OK(call) \
    do { int mt_rc_ = (call); \
         if (mt_rc_ != MPI_SUCCESS) MTest_Error(__FILE__, __LINE__, \
             "%s returned %d (%s)", #call, mt_rc_, MTest_Errstr(mt_rc_)); \
    } while (0)

/* Error string of an MPI error code (static buffer). */
const char *MTest_Errstr(int code);
/* MPI error class of code. */
int MTest_Errclass(int code);

/* Deterministic payloads: byte i of a buffer filled with seed. */
static inline unsigned char MTest_byte(size_t i, unsigned seed)
{
    return (unsigned char)((i * 7u) + (i >> 9) + seed * 131u + 1u);
}
void MTest_Fill(void *buf, size_t len, unsigned seed);
/* Returns 1 if buf holds the pattern of seed, otherwise reports the first
 * differing byte (with what) and returns 0. */
int MTest_Verify_(const void *buf, size_t len, unsigned seed, const char *what,
                  const char *file, int line);
#define MTest_Verify(buf, len, seed, what) \
    MTest_Verify_(buf, len, seed, what, __FILE__, __LINE__)
/* Checks the status of a receive from MPI_PROC_NULL (MPI-3.1 3.11): source
 * MPI_PROC_NULL, tag MPI_ANY_TAG, count 0; what names the call. */
void MTest_Check_null_status_(MPI_Status *st, const char *what, const char *file, int line);
#define MTest_Check_null_status(st, what) \
    MTest_Check_null_status_(st, what, __FILE__, __LINE__)

/* Error tests: rc must be an error code of class cls (MPI_ERR_*). */
#define MT_ERRCLASS(rc, cls, what) MTest_Check_class_(rc, cls, #cls, what, __FILE__, __LINE__)
void MTest_Check_class_(int rc, int cls, const char *clsname, const char *what,
                        const char *file, int line);
/* After an error: a ring exchange on comm with a fresh tag, received with
 * MPI_ANY_TAG, must deliver exactly the neighbour's value (so an erroneous
 * call left no stray message behind and communication still works). */
void MTest_Check_comm_works(MPI_Comm comm, const char *what);

/* malloc that aborts the job on failure. */
void *MTest_Malloc(size_t len);

#endif

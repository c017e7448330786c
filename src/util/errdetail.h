/*
 * Error detail: the layers below src/api never print, so a failure records
 * what happened where it happens (the verb or system call, errno text, the
 * peer, the device, a hint) in a per-thread string. src/api takes it when it
 * builds the MPI error message (rd_api_error), so the user reads the reason
 * through MPI_Error_string or the fatal handler's line.
 *
 * The string lives in a __thread buffer (no allocation, so recording works
 * when memory is short). A later record replaces an earlier one: the last
 * failure before an error is returned is the one nearest its cause, since
 * callers that recover from a failure clear it (rd_err_detail_clear).
 */
#ifndef RD_UTIL_ERRDETAIL_H
#define RD_UTIL_ERRDETAIL_H

#include <stddef.h>

/* Longest detail kept (longer ones are cut). */
#define RD_ERR_DETAIL_MAX 384

/* Records a detail (printf format). */
void rd_err_detail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Records a failed system call or verb: the formatted text, then ": " and
 * the text of errnum (strerror), e.g. rd_err_detail_sys(errno, "shm_open(%s)", n). */
void rd_err_detail_sys(int errnum, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Copies the recorded detail into buf (len bytes, always terminated) and
 * clears it. Returns the length copied, 0 when nothing was recorded. */
size_t rd_err_detail_take(char *buf, size_t len);

/* The recorded detail without clearing it ("" when none). */
const char *rd_err_detail_peek(void);

/* Forgets the recorded detail (a failure was recovered from). */
void rd_err_detail_clear(void);

#endif

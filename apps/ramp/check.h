/* check: the Read Atomic checker over the history files of a run
 * (DIR/history.<rank>.jsonl, see history.h). It needs nothing from the
 * store: only what the clients wrote down. */
#ifndef RAMP_CHECK_H
#define RAMP_CHECK_H

/* Checks every history.*.jsonl file in dir: every read returns a version
 * some PUT wrote for that key with the same crc, no fractured read,
 * timestamps unique, the final read returns each key's newest PUT.
 * Prints the first violations with file and line and one summary line
 * to stdout. Returns the number of violations, or -1 when the files
 * cannot be read or parsed. */
long ramp_check(const char *dir);

#endif

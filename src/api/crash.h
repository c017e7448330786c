/*
 * A rank's own reports from signal handlers (crash.c): a crash report with
 * a backtrace before the rank dies of SIGSEGV, SIGBUS, SIGFPE, SIGILL or
 * SIGABRT, and, when mpirun asks a job that timed out
 * (RD_BOOT_WHERE_SIGNAL), where the rank is blocked.
 */
#ifndef RD_API_CRASH_H
#define RD_API_CRASH_H

/* Installs the handlers (once; reports 0: RDMPI_CRASH_REPORT=0, none),
 * for signals whose action is still the default; the reports name the
 * rank and the host as the process manager knows them. */
void rd_api_crash_init(int rank, const char *host, int reports);

#endif

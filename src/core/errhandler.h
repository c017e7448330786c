/*
 * Error handlers: what happens when an MPI call fails on a communicator
 * (or a window or file later): abort the job, return the code, or call a
 * user function.
 */
#ifndef RD_CORE_ERRHANDLER_H
#define RD_CORE_ERRHANDLER_H

enum rd_errh_kind {
    RD_ERRH_FATAL,     /* MPI_ERRORS_ARE_FATAL: print and end the whole job */
    RD_ERRH_ABORT,     /* MPI_ERRORS_ABORT: print and end the job (MPI-4) */
    RD_ERRH_RETURN,    /* MPI_ERRORS_RETURN: return the code */
    RD_ERRH_USER,      /* a user function, then return the code */
};

typedef void (*rd_errh_fn)(void); /* the user's function, cast back by the caller */

typedef struct rd_errhandler {
    int handle;
    int refs;
    int kind;          /* enum rd_errh_kind */
    int obj;           /* RD_OBJ_COMM / RD_OBJ_WIN: what it may be attached to */
    rd_errh_fn fn;
} rd_errhandler_t;

rd_errhandler_t *rd_errh_new(int kind, int obj, rd_errh_fn fn);
void rd_errh_ref(rd_errhandler_t *e);
void rd_errh_release(rd_errhandler_t *e);

#endif

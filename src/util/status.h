/*
 * Internal status codes. Layers below src/api return these (never MPI error
 * classes and never print); src/api turns them into MPI error classes and
 * calls the communicator's error handler.
 */
#ifndef RD_UTIL_STATUS_H
#define RD_UTIL_STATUS_H

enum rd_status {
    RD_OK = 0,
    RD_EAGAIN = 1,        /* no resources right now (ring full): retry later */
    RD_ENOMEM = -1,       /* allocation failed */
    RD_EINVAL = -2,       /* bad argument */
    RD_ESYS = -3,         /* a system call failed; errno tells */
    RD_EPEER = -4,        /* a peer vanished or its link failed */
    RD_EUNREACH = -16,    /* no transport this rank uses reaches the peer */
    RD_ETRUNC = -5,       /* message longer than the receive buffer */
    RD_ENOTSUP = -6,      /* the operation is not supported here */
    RD_EBOOT = -7,        /* the process manager (PMIx) failed */
    RD_EINTERN = -8,      /* internal inconsistency */
    /* one-sided communication (src/rma) */
    RD_ESYNC = -9,        /* no epoch allows this operation now */
    RD_ERANGE = -10,      /* target range outside the window */
    RD_ECONFLICT = -11,   /* conflicting lock or epoch */
    RD_EATTACH = -12,     /* dynamic window: overlapping attach, unknown detach */
    RD_EFLAVOR = -13,     /* wrong window flavor for the call */
    RD_ESHARED = -14,     /* no shared memory between these processes */
    RD_ESIZE = -15,       /* the ranks of a collective passed different sizes */
};

/* Short human text of a status code, for error messages. */
const char *rd_status_str(int status);

#endif

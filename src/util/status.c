/* Text of internal status codes (see status.h). */
#include "util/status.h"

const char *rd_status_str(int status)
{
    switch (status) {
    case RD_OK: return "success";
    case RD_EAGAIN: return "resource temporarily unavailable";
    case RD_ENOMEM: return "out of memory";
    case RD_EINVAL: return "invalid argument";
    case RD_ESYS: return "system call failed";
    case RD_EPEER: return "peer process failed or disconnected";
    case RD_EUNREACH: return "no transport reaches the peer";
    case RD_ETRUNC: return "message truncated";
    case RD_ENOTSUP: return "operation not supported";
    case RD_EBOOT: return "process manager failure";
    case RD_EINTERN: return "internal error";
    case RD_ESYNC: return "no epoch allows this operation";
    case RD_ERANGE: return "target range outside the window";
    case RD_ECONFLICT: return "conflicting lock or epoch";
    case RD_EATTACH: return "bad attach or detach";
    case RD_EFLAVOR: return "wrong window flavor";
    case RD_ESHARED: return "no shared memory between these processes";
    case RD_ESIZE: return "the ranks of the collective passed different sizes";
    }
    return "unknown status";
}

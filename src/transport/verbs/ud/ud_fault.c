/*
 * UD fault injection, for tests only: RDMPI_UD_DROP_RATE makes the rel
 * engine drop that fraction of received packets on purpose, so that the
 * MPI tests exercise retransmission over a real device (test/rdma-vm's
 * ud-drop configuration). Compiled only with --enable-fault-injection
 * (RD_FAULT_INJECTION); without it ud asks the engine for no drops.
 */
#include "transport/verbs/ud/ud_fault.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/env.h"

/* RDMPI_UD_DROP_RATE: a fraction in [0, 1); a malformed value is reported
 * and ignored. */
double rd_ud_fault_drop_rate(void)
{
    const char *s = rd_env_str("RDMPI_UD_DROP_RATE", NULL);
    if (!s)
        return 0;
    char *end;
    errno = 0;
    double r = strtod(s, &end);
    if (errno || *end || end == s || !(r >= 0 && r < 1)) {
        fprintf(stderr, "rdmpi: ignoring RDMPI_UD_DROP_RATE=\"%s\": not a fraction in [0, 1), "
                "using 0\n", s);
        return 0;
    }
    return r;
}

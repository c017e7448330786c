/*
 * RC fault injection for tests (rc_fault.c, compiled only with
 * --enable-fault-injection): RDMPI_RC_FAULT breaks a QP the way a broken
 * link would, so that the failure path can be tested. Without the option
 * the knob does not exist and rc's send() has no hook for it.
 */
#ifndef RD_TRANSPORT_VERBS_RC_RC_FAULT_H
#define RD_TRANSPORT_VERBS_RC_RC_FAULT_H

#include "config.h"

#include <stddef.h>

/* RDMPI_RC_FAULT=RANK:N: *after = N on rank RANK, else -1. RD_OK, or
 * RD_EINVAL with the detail recorded: a malformed value, or any value in a
 * library built without the option (the knob would silently do nothing). */
int rd_rc_fault_knob(long *after);
#ifdef RD_FAULT_INJECTION
/* send() on that rank: breaks the QP before message N + 1 to a peer. */
int rd_rc_fault_send(int peer, const void *hdr, size_t hdrlen, const void *payload, size_t len);
#endif

#endif

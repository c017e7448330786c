/* mailbox: GET+/PUT+ (Murata, Kawashima, Tatebe): requests and replies
 * written with MPI one-sided puts into per-client mailboxes in the
 * receiver's window, which the receiver polls. plus and star use it. */
#ifndef RAMP_MAILBOX_H
#define RAMP_MAILBOX_H

#include "net.h"
#include "window.h"

/* Collective over comm: every rank's mailboxes in one window (window.h).
 * Returns MPI_SUCCESS or an MPI error code. */
int ramp_mailbox_init(struct ramp_net *n, const struct ramp_opts *o, MPI_Comm comm);

#endif

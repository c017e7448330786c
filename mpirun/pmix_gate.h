/*
 * The gate in front of the PMIx server: who may connect to it.
 *
 * OpenPMIx (4.2) serves its clients over TCP on 127.0.0.1 and believes
 * the user id a client sends about itself, so any local user could join
 * a job as one of its ranks; and its server thread reads a new
 * connection's first message with a blocking recv and no timeout, so one
 * silent connection stops it. The library accepts its connections with
 * accept(); mpirun defines accept() (an executable's definition comes
 * before libc's for every library it loads), so each connection passes
 * here first. The kernel tells which user owns the connecting socket
 * (sock_diag, the TCP counterpart of SO_PEERCRED) and its inode: a socket
 * of another user, one not on this host, or one that no process mpirun
 * started (its ranks and their children) holds, is closed at once; the
 * others get a receive timeout, so that a silent one costs PMIx's thread
 * a few seconds.
 *
 * accept() is used by nothing else in mpirun; every caller would get the
 * same check.
 */
#ifndef RD_MPIRUN_PMIX_GATE_H
#define RD_MPIRUN_PMIX_GATE_H

/* How long an admitted connection may take to send PMIx's handshake, in ms. */
#define RD_MPIRUN_GATE_HANDSHAKE_MS 10000

/* Connections admitted so far. The server compares it with the clients
 * PMIx reports: more clients than admissions means PMIx accepted them
 * without the gate (a library that no longer calls accept()). */
unsigned long rd_mpirun_pmix_gate_admitted(void);

#endif

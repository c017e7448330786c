/*
 * RC goodbye (rc_bye.c): the BYE exchange of rc.h before the QPs go, and
 * the check in MPI_Finalize for messages that were never delivered.
 */
#ifndef RD_TRANSPORT_VERBS_RC_RC_BYE_H
#define RD_TRANSPORT_VERBS_RC_RC_BYE_H

/* BYE to every connected peer; waits (bounded) for the peers' BYEs. */
void rd_rc_goodbye(void);
/* Ends the job if a message to a peer was lost (its connection failed). */
void rd_rc_check_lost(void);

#endif

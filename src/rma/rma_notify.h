/*
 * Notified puts (rma.h's rd_rma_put_notify and rd_rma_notify_test): how
 * the notification travels on each path and the queue the target takes
 * them from.
 */
#ifndef RD_RMA_RMA_NOTIFY_H
#define RD_RMA_RMA_NOTIFY_H

/* Registers the NOTIFY handler and the put-with-immediate callback (from
 * rd_rma_ops_init). */
int rd_rma_notify_init(void);

#endif

/*
 * The optional progress thread (RDMPI_ASYNC_PROGRESS=1): a thread that
 * polls every transport while the application computes outside MPI, so
 * that work needing the target's CPU (rendezvous handshakes, active-message
 * one-sided operations) completes without the target calling MPI. Off by
 * default: it costs a thread and the library lock on every MPI call.
 */
#ifndef RD_API_ASYNC_PROGRESS_H
#define RD_API_ASYNC_PROGRESS_H

#include <stddef.h>

/* Reads RDMPI_ASYNC_PROGRESS at MPI_Init, after every layer is up: when it
 * is set, makes the library thread-safe (rd_api.multiple) whatever level
 * the application asked for and starts the thread. RD_OK, or a status with
 * the detail recorded (pthread_create failed). */
int rd_api_async_start(void);
/* Stops and joins the thread (lock NOT held); nothing when none runs. */
void rd_api_async_stop(void);
/* RDMPI_VERBOSE line: polls and events the thread handled; empty when no
 * thread ran. */
void rd_api_async_report(char *buf, size_t len);

#endif

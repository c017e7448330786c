/*
 * UD fault injection for tests (ud_fault.c, compiled only with
 * --enable-fault-injection): the packet drop rate asked of the rel engine.
 */
#ifndef RD_TRANSPORT_VERBS_UD_UD_FAULT_H
#define RD_TRANSPORT_VERBS_UD_UD_FAULT_H

#include "config.h"

#ifdef RD_FAULT_INJECTION
/* RDMPI_UD_DROP_RATE, or 0 when unset. */
double rd_ud_fault_drop_rate(void);
#endif

#endif

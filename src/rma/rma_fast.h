/*
 * The fast paths of Put, Get and Fetch_and_op (declared in rma.h, with
 * the other calls of the API layer): what rma_fast.c implements.
 */
#ifndef RD_RMA_RMA_FAST_H
#define RD_RMA_RMA_FAST_H

#include "rma/rma.h"

#endif

# src/rma: one-sided communication (windows, operations, synchronization)
libmpi_la_SOURCES += src/rma/rma.h src/rma/rma_impl.h
libmpi_la_SOURCES += src/rma/rma_wire.h src/rma/rma_ops.h src/rma/rma_ops.c

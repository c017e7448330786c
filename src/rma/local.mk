# src/rma: one-sided communication (windows, operations, synchronization)
libmpi_la_SOURCES += src/rma/rma.h src/rma/rma_impl.h
libmpi_la_SOURCES += src/rma/rma_win.c src/rma/rma_win.h src/rma/rma_seg.c src/rma/rma_seg.h \
	src/rma/rma_sync.c src/rma/rma_sync.h src/rma/rma_lock.c src/rma/rma_lock.h \
	src/rma/rma_dyn.c
libmpi_la_SOURCES += src/rma/rma_wire.h src/rma/rma_ops.h src/rma/rma_ops.c \
	src/rma/rma_origin.h src/rma/rma_origin.c src/rma/rma_am.h src/rma/rma_am.c \
	src/rma/rma_acc.h src/rma/rma_acc.c src/rma/rma_dtype.h src/rma/rma_dtype.c \
	src/rma/rma_notify.h src/rma/rma_notify.c src/rma/rma_ring.h src/rma/rma_ring.c \
	src/rma/rma_fast.h src/rma/rma_fast.c src/rma/rma_dev.h src/rma/rma_dev.c \
	src/rma/rma_tunables.h src/rma/rma_tunables.c

# src/boot: sources and tests of this component
libmpi_la_SOURCES += src/boot/boot.c src/boot/boot.h src/boot/boot_backend.h \
	src/boot/boot_pmix.c src/boot/boot_pmi1.c src/boot/boot_pmi2.c \
	src/boot/boot_pmi_wire.c src/boot/boot_pmi_wire.h \
	src/boot/boot_tunables.c src/boot/boot_tunables.h

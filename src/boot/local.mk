# src/boot: sources and tests of this component
libmpi_la_SOURCES += src/boot/boot.c src/boot/boot.h

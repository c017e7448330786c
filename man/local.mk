# man: the manual pages of the commands rdmpi installs (man1). The aliases
# are one-line ".so" pages, as man-db and groff follow them.
dist_man1_MANS = man/mpirun.1 man/mpiexec.1 man/mpicc.1 man/mpicxx.1 man/mpic++.1 \
	man/mpiCC.1 man/mpifort.1 man/mpif77.1 man/mpif90.1 man/rdmpi_info.1

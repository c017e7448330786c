/* NPB-style result block printed by rank 0 of every C fixture benchmark. */
#ifndef C_PRINT_RESULTS_H
#define C_PRINT_RESULTS_H

void c_print_results(const char *name, char cls, long size, int iterations,
                     int nprocs, double seconds, double mops,
                     const char *optype, int verified);

#endif

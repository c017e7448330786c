/* The lines the harness parses, in NPB's layout: "name = value" with the
 * value right-aligned, one per line. */
#include <stdio.h>
#include "c_print_results.h"

void c_print_results(const char *name, char cls, long size, int iterations,
                     int nprocs, double seconds, double mops,
                     const char *optype, int verified)
{
    printf("\n\n %s Benchmark Completed\n", name);
    printf(" Class           =  %24c\n", cls);
    printf(" Size            =  %24ld\n", size);
    printf(" Iterations      =  %24d\n", iterations);
    printf(" Time in seconds =  %24.2f\n", seconds);
    printf(" Total processes =  %24d\n", nprocs);
    printf(" Mop/s total     =  %24.2f\n", mops);
    printf(" Mop/s/process   =  %24.2f\n", mops / nprocs);
    printf(" Operation type  =  %24s\n", optype);
    printf(" Verification    =  %24s\n", verified ? "SUCCESSFUL" : "UNSUCCESSFUL");
    printf(" Version         =  %24s\n", "fixture");
    fflush(stdout);
}

/*
 * The bodies of the datatype constructors, shared by the int forms
 * (dtype.c) and the large-count _c forms (dtype_c.c). large: the call is a
 * _c form, and the type it builds records its arguments as large counts
 * (MPI_Type_get_envelope_c / get_contents_c); fn names the calling function
 * in errors.
 */
#ifndef RD_API_DTYPE_H
#define RD_API_DTYPE_H

#include <mpi.h>

/* An array argument: int elements (the MPI-3 forms) or 64-bit ones
 * (MPI_Count in the _c forms; wide). */
typedef struct rd_api_array {
    const void *p;
    int wide;
} rd_api_array_t;

int rd_api_type_contiguous(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype,
                           int large, const char *fn);
int rd_api_type_vector(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                       MPI_Datatype oldtype, MPI_Datatype *newtype, int large, const char *fn);
int rd_api_type_hvector(MPI_Count count, MPI_Count blocklength, MPI_Aint stride,
                        MPI_Datatype oldtype, MPI_Datatype *newtype, int large, const char *fn);
/* Indexed, hindexed and their _block forms: block lengths bls (or bl for
 * all when bls.p is NULL), displacements in elements (idisps) or in bytes
 * (adisps). */
int rd_api_type_indexed(MPI_Count count, rd_api_array_t bls, MPI_Count bl,
                        rd_api_array_t idisps, const MPI_Aint *adisps, MPI_Datatype oldtype,
                        MPI_Datatype *newtype, int combiner, int large, const char *fn);
int rd_api_type_struct(MPI_Count count, rd_api_array_t bls, const MPI_Aint *disps,
                       const MPI_Datatype *types, MPI_Datatype *newtype, int large,
                       const char *fn);
int rd_api_type_subarray(int ndims, rd_api_array_t sizes, rd_api_array_t subsizes,
                         rd_api_array_t starts, int order, MPI_Datatype oldtype,
                         MPI_Datatype *newtype, int large, const char *fn);
int rd_api_type_darray(int size, int rank, int ndims, rd_api_array_t gsizes,
                       const int array_of_distribs[], const int array_of_dargs[],
                       const int array_of_psizes[], int order, MPI_Datatype oldtype,
                       MPI_Datatype *newtype, int large, const char *fn);
int rd_api_type_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                        MPI_Datatype *newtype, int large, const char *fn);
#endif

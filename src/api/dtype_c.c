/*
 * The large-count (MPI-4.0 "_c") datatype constructors: the bodies of
 * dtype.c with MPI_Count arguments. The types built here record their
 * arguments as large counts.
 */
#include "api/api.h"

#include "api/dtype.h"

/* The MPI_Count arrays of the _c forms. */
static rd_api_array_t ca(const MPI_Count *p)
{
    return (rd_api_array_t){ p, 1 };
}

RD_WEAK_ALIAS(MPI_Type_contiguous_c)
int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return rd_api_type_contiguous(count, oldtype, newtype, 1, "MPI_Type_contiguous_c");
}

RD_WEAK_ALIAS(MPI_Type_vector_c)
int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return rd_api_type_vector(count, blocklength, stride, oldtype, newtype, 1,
                              "MPI_Type_vector_c");
}

RD_WEAK_ALIAS(MPI_Type_create_hvector_c)
int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                               MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return rd_api_type_hvector(count, blocklength, stride, oldtype, newtype, 1,
                               "MPI_Type_create_hvector_c");
}

RD_WEAK_ALIAS(MPI_Type_indexed_c)
int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                        MPI_Datatype *newtype)
{
    return rd_api_type_indexed(count, ca(array_of_blocklengths), 0, ca(array_of_displacements),
                               NULL, oldtype, newtype, MPI_COMBINER_INDEXED, 1,
                               "MPI_Type_indexed_c");
}

/* Byte displacements are MPI_Count in the _c forms, MPI_Aint inside: both
 * 64-bit. */
_Static_assert(sizeof(MPI_Count) == sizeof(MPI_Aint), "MPI_Count and MPI_Aint differ");

RD_WEAK_ALIAS(MPI_Type_create_hindexed_c)
int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    return rd_api_type_indexed(count, ca(array_of_blocklengths), 0, ca(NULL),
                               (const MPI_Aint *)array_of_displacements, oldtype, newtype,
                               MPI_COMBINER_HINDEXED, 1, "MPI_Type_create_hindexed_c");
}

RD_WEAK_ALIAS(MPI_Type_create_indexed_block_c)
int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return rd_api_type_indexed(count, ca(NULL), blocklength, ca(array_of_displacements), NULL,
                               oldtype, newtype, MPI_COMBINER_INDEXED_BLOCK, 1,
                               "MPI_Type_create_indexed_block_c");
}

RD_WEAK_ALIAS(MPI_Type_create_hindexed_block_c)
int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[],
                                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return rd_api_type_indexed(count, ca(NULL), blocklength, ca(NULL),
                               (const MPI_Aint *)array_of_displacements, oldtype, newtype,
                               MPI_COMBINER_HINDEXED_BLOCK, 1, "MPI_Type_create_hindexed_block_c");
}

RD_WEAK_ALIAS(MPI_Type_create_struct_c)
int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[],
                              const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return rd_api_type_struct(count, ca(array_of_blocklengths),
                              (const MPI_Aint *)array_of_displacements, array_of_types, newtype,
                              1, "MPI_Type_create_struct_c");
}

RD_WEAK_ALIAS(MPI_Type_create_subarray_c)
int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order,
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return rd_api_type_subarray(ndims, ca(array_of_sizes), ca(array_of_subsizes),
                                ca(array_of_starts), order, oldtype, newtype, 1,
                                "MPI_Type_create_subarray_c");
}

RD_WEAK_ALIAS(MPI_Type_create_darray_c)
int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[],
                              const int array_of_psizes[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    return rd_api_type_darray(size, rank, ndims, ca(array_of_gsizes), array_of_distribs,
                              array_of_dargs, array_of_psizes, order, oldtype, newtype, 1,
                              "MPI_Type_create_darray_c");
}

RD_WEAK_ALIAS(MPI_Type_create_resized_c)
int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                               MPI_Datatype *newtype)
{
    return rd_api_type_resized(oldtype, lb, extent, newtype, 1, "MPI_Type_create_resized_c");
}

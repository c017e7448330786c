! Derived datatypes from Fortran, as NPB uses them: mpi_type_contiguous,
! mpi_type_vector, the MPI-1 mpi_type_struct with INTEGER displacements,
! mpi_type_extent / mpi_type_size, mpi_type_create_subarray with
! MPI_ORDER_FORTRAN, commit and free, each sent to self or a neighbour.
program f_dtype
  use ftest
  implicit none
  integer :: ierr, tcontig, tvec, tstruct, tsub, sz, ext, i, j, right, left
  integer :: blens(2), displs(2), types(2)
  integer :: sizes(2), subsizes(2), starts(2)
  integer(kind=MPI_ADDRESS_KIND) :: lb, aext
  double precision :: a(10), b(10), m(4, 5), mr(4, 5)
  integer :: rec(3), rec2(3)

  call ft_init()
  right = mod(ft_rank + 1, ft_size)
  left = mod(ft_rank - 1 + ft_size, ft_size)

  call mpi_type_contiguous(3, MPI_DOUBLE_PRECISION, tcontig, ierr)
  call ft_ok(ierr, 'mpi_type_contiguous')
  call mpi_type_commit(tcontig, ierr)
  call mpi_type_size(tcontig, sz, ierr)
  call ft_check(sz == 24, 'contiguous size')
  call mpi_type_extent(tcontig, ext, ierr)
  call ft_ok(ierr, 'mpi_type_extent')
  call ft_check(ext == 24, 'contiguous extent')
  a = (/ (dble(i + 10 * ft_rank), i = 1, 10) /)
  b = 0
  call mpi_sendrecv(a, 2, tcontig, right, 1, b, 2, tcontig, left, 1, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
  call ft_check(b(6) == 6 + 10 * left .and. b(7) == 0, 'contiguous transfer')
  call mpi_type_free(tcontig, ierr)
  call ft_check(tcontig == MPI_DATATYPE_NULL, 'mpi_type_free sets MPI_DATATYPE_NULL')

  ! Every other element.
  call mpi_type_vector(5, 1, 2, MPI_DOUBLE_PRECISION, tvec, ierr)
  call ft_ok(ierr, 'mpi_type_vector')
  call mpi_type_commit(tvec, ierr)
  b = 0
  call mpi_sendrecv(a, 1, tvec, right, 2, b, 5, MPI_DOUBLE_PRECISION, left, 2, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call ft_check(b(3) == 5 + 10 * left, 'vector transfer')
  call mpi_type_free(tvec, ierr)

  ! MPI-1 struct: two integers then one integer at displacement 8.
  blens = (/ 2, 1 /)
  displs = (/ 0, 8 /)
  types = (/ MPI_INTEGER, MPI_INTEGER /)
  call mpi_type_struct(2, blens, displs, types, tstruct, ierr)
  call ft_ok(ierr, 'mpi_type_struct')
  call mpi_type_commit(tstruct, ierr)
  call mpi_type_size(tstruct, sz, ierr)
  call ft_check(sz == 12, 'struct size')
  call mpi_type_extent(tstruct, ext, ierr)
  call ft_check(ext == 12, 'struct extent')
  call mpi_type_get_extent(tstruct, lb, aext, ierr)
  call ft_check(lb == 0 .and. aext == 12, 'mpi_type_get_extent')
  rec = (/ ft_rank, 2 * ft_rank, 3 * ft_rank /)
  rec2 = -1
  call mpi_sendrecv(rec, 1, tstruct, right, 3, rec2, 1, tstruct, left, 3, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call ft_check(rec2(3) == 3 * left .and. rec2(1) == left, 'struct transfer')
  call mpi_type_free(tstruct, ierr)

  ! A 2x3 block at (2,2) of a 4x5 column-major array.
  sizes = (/ 4, 5 /)
  subsizes = (/ 2, 3 /)
  starts = (/ 1, 1 /)
  call mpi_type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, &
                                MPI_DOUBLE_PRECISION, tsub, ierr)
  call ft_ok(ierr, 'mpi_type_create_subarray')
  call mpi_type_commit(tsub, ierr)
  do j = 1, 5
    do i = 1, 4
      m(i, j) = i + 10 * j + 100 * ft_rank
    end do
  end do
  mr = 0
  call mpi_sendrecv(m, 1, tsub, right, 4, mr, 1, tsub, left, 4, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
  call ft_check(mr(2, 2) == 2 + 20 + 100 * left .and. mr(3, 4) == 3 + 40 + 100 * left, &
                'subarray transfer')
  call ft_check(mr(1, 1) == 0 .and. mr(4, 5) == 0 .and. mr(2, 5) == 0, 'subarray bounds')
  call mpi_type_free(tsub, ierr)

  call ft_finalize()
end program f_dtype

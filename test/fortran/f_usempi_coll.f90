! Collectives through the `mpi` module: MPI_IN_PLACE and MPI_BOTTOM-style
! special buffers pass the NO_ARG_CHECK interfaces, and reductions of
! scalars and arrays work.
program f_usempi_coll
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, errs, n
  double precision :: x(2), s

  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  x = (/ 1d0, dble(rank) /)
  call MPI_Allreduce(MPI_IN_PLACE, x, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. x(1) /= nprocs) errs = errs + 1
  if (x(2) /= nprocs * (nprocs - 1) / 2d0) errs = errs + 1
  s = rank
  call MPI_Allreduce(MPI_IN_PLACE, s, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (s /= nprocs - 1) errs = errs + 1
  n = 0
  if (rank == 0) n = 17
  call MPI_Bcast(n, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (n /= 17) errs = errs + 1
  call MPI_Reduce(errs, n, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (n == 0 .and. ierr == MPI_SUCCESS) then
      print '(a)', ' No Errors'
    else
      print '(a,i0,a)', ' Found ', n, ' errors'
    end if
  end if
  call MPI_Finalize(ierr)
end program f_usempi_coll

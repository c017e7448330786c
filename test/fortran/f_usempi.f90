! The `mpi` module: explicit interfaces checked at compile time, choice
! buffers of any type and rank (scalars, arrays, MPI_BOTTOM-style
! integers), LOGICAL and CHARACTER arguments, statuses, mpi_wtime.
program f_usempi
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, right, left, errs, e, i, len
  integer :: status(MPI_STATUS_SIZE)
  double precision :: a(3, 4), b(3, 4), t
  integer :: k, kr
  logical :: flag
  character(len=MPI_MAX_PROCESSOR_NAME) :: name

  errs = 0
  call MPI_Init(ierr)
  call MPI_Initialized(flag, ierr)
  if (.not. flag) errs = errs + 1
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank - 1 + nprocs, nprocs)
  t = MPI_Wtime()

  a = rank
  b = -1
  call MPI_Sendrecv(a, 12, MPI_DOUBLE_PRECISION, right, 1, b, 12, MPI_DOUBLE_PRECISION, &
                    left, 1, MPI_COMM_WORLD, status, ierr)
  if (ierr /= MPI_SUCCESS .or. b(3, 4) /= left) errs = errs + 1
  if (status(MPI_SOURCE) /= left .or. status(MPI_TAG) /= 1) errs = errs + 1

  k = rank
  call MPI_Sendrecv(k, 1, MPI_INTEGER, right, 2, kr, 1, MPI_INTEGER, left, 2, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  if (kr /= left) errs = errs + 1

  call MPI_Get_processor_name(name, len, ierr)
  if (len_trim(name) /= len) errs = errs + 1

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (MPI_Wtime() < t) errs = errs + 1

  if (rank == 0) then
    do i = 1, nprocs - 1
      call MPI_Recv(e, 1, MPI_INTEGER, i, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      errs = errs + e
    end do
    if (errs == 0) then
      print '(a)', ' No Errors'
    else
      print '(a,i0,a)', ' Found ', errs, ' errors'
    end if
  else
    call MPI_Send(errs, 1, MPI_INTEGER, 0, 99, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Finalize(ierr)
end program f_usempi

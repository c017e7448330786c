! Request indices are 1-based in Fortran: mpi_waitany, mpi_testany,
! mpi_waitsome and mpi_testsome translate them, and leave MPI_UNDEFINED
! alone when no request is active (MPICH 4.0.2 returns MPI_UNDEFINED + 1
! there, hence xfail=mpich in the test list).
program f_waitany
  use ftest
  implicit none
  integer :: ierr, left, right, idx, outcount, v(3), indices(3)
  integer :: req(3), status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 3)
  logical :: flag

  call ft_init()
  right = mod(ft_rank + 1, ft_size)
  left = mod(ft_rank - 1 + ft_size, ft_size)

  req(1) = MPI_REQUEST_NULL
  req(3) = MPI_REQUEST_NULL
  call mpi_irecv(v(2), 1, MPI_INTEGER, left, 1, MPI_COMM_WORLD, req(2), ierr)
  call mpi_send(ft_rank, 1, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
  call mpi_waitany(3, req, idx, status, ierr)
  call ft_check(idx == 2, 'mpi_waitany index is 1-based')
  call ft_check(v(2) == left .and. status(MPI_SOURCE) == left, 'mpi_waitany data')

  call mpi_irecv(v(3), 1, MPI_INTEGER, left, 2, MPI_COMM_WORLD, req(3), ierr)
  call mpi_send(ft_rank, 1, MPI_INTEGER, right, 2, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call mpi_testany(3, req, idx, flag, status, ierr)
  end do
  call ft_check(idx == 3, 'mpi_testany index is 1-based')

  call mpi_irecv(v(1), 1, MPI_INTEGER, left, 3, MPI_COMM_WORLD, req(1), ierr)
  call mpi_send(ft_rank, 1, MPI_INTEGER, right, 3, MPI_COMM_WORLD, ierr)
  call mpi_waitsome(3, req, outcount, indices, statuses, ierr)
  call ft_check(outcount == 1 .and. indices(1) == 1, 'mpi_waitsome indices are 1-based')

  call mpi_irecv(v(2), 1, MPI_INTEGER, left, 4, MPI_COMM_WORLD, req(2), ierr)
  call mpi_send(ft_rank, 1, MPI_INTEGER, right, 4, MPI_COMM_WORLD, ierr)
  outcount = 0
  do while (outcount == 0)
    call mpi_testsome(3, req, outcount, indices, MPI_STATUSES_IGNORE, ierr)
  end do
  call ft_check(outcount == 1 .and. indices(1) == 2, 'mpi_testsome indices are 1-based')

  call mpi_waitany(3, req, idx, status, ierr)
  call ft_check(idx == MPI_UNDEFINED, 'mpi_waitany with no active request')
  call mpi_testany(3, req, idx, flag, status, ierr)
  call ft_check(flag .and. idx == MPI_UNDEFINED, 'mpi_testany with no active request')
  call mpi_waitsome(3, req, outcount, indices, statuses, ierr)
  call ft_check(outcount == MPI_UNDEFINED, 'mpi_waitsome with no active request')

  call ft_finalize()
end program f_waitany

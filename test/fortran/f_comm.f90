! Communicators from Fortran: row and column communicators with
! mpi_comm_split (as NPB builds them), mpi_comm_dup, groups with
! mpi_group_incl and mpi_comm_create, mpi_comm_free, and error codes
! returned through MPI_ERRORS_RETURN.
program f_comm
  use ftest
  implicit none
  integer :: ierr, ncols, row, col, rowcomm, colcomm, dupcomm, newcomm
  integer :: rrank, rsize, crank, csize, wgroup, evengroup, i, nevens, r, result
  integer :: ranks(64), ibuf(1)

  call ft_init()
  ncols = 2
  if (ft_size < 2) ncols = 1
  row = ft_rank / ncols
  col = mod(ft_rank, ncols)
  call mpi_comm_split(MPI_COMM_WORLD, row, col, rowcomm, ierr)
  call ft_ok(ierr, 'mpi_comm_split rows')
  call mpi_comm_split(MPI_COMM_WORLD, col, row, colcomm, ierr)
  call ft_ok(ierr, 'mpi_comm_split columns')
  call mpi_comm_rank(rowcomm, rrank, ierr)
  call mpi_comm_size(rowcomm, rsize, ierr)
  call mpi_comm_rank(colcomm, crank, ierr)
  call mpi_comm_size(colcomm, csize, ierr)
  call ft_check(rrank == col, 'rank in row communicator')
  call ft_check(crank == row, 'rank in column communicator')
  call ft_check(rsize == min(ncols, ft_size - row * ncols), 'row size')
  call ft_check(csize == (ft_size - col + ncols - 1) / ncols, 'column size')

  ! Talk along the row: rank 0 of each row sends to the others.
  if (rrank == 0) then
    do i = 1, rsize - 1
      call mpi_send(row, 1, MPI_INTEGER, i, 1, rowcomm, ierr)
    end do
  else
    call mpi_recv(r, 1, MPI_INTEGER, 0, 1, rowcomm, MPI_STATUS_IGNORE, ierr)
    call ft_check(r == row, 'message within the row')
  end if

  call mpi_comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, newcomm, ierr)
  call ft_check(newcomm == MPI_COMM_NULL, 'split with MPI_UNDEFINED')

  call mpi_comm_dup(MPI_COMM_WORLD, dupcomm, ierr)
  call ft_ok(ierr, 'mpi_comm_dup')
  call mpi_comm_compare(MPI_COMM_WORLD, dupcomm, result, ierr)
  call ft_check(result == MPI_CONGRUENT, 'dup is congruent')

  ! The even ranks, as a group and a communicator.
  call mpi_comm_group(MPI_COMM_WORLD, wgroup, ierr)
  nevens = (ft_size + 1) / 2
  do i = 1, nevens
    ranks(i) = 2 * (i - 1)
  end do
  call mpi_group_incl(wgroup, nevens, ranks, evengroup, ierr)
  call ft_ok(ierr, 'mpi_group_incl')
  call mpi_comm_create(MPI_COMM_WORLD, evengroup, newcomm, ierr)
  call ft_ok(ierr, 'mpi_comm_create')
  if (mod(ft_rank, 2) == 0) then
    call mpi_comm_rank(newcomm, r, ierr)
    call ft_check(r == ft_rank / 2, 'rank in the even communicator')
    call mpi_comm_free(newcomm, ierr)
    call ft_check(newcomm == MPI_COMM_NULL, 'mpi_comm_free sets MPI_COMM_NULL')
  else
    call ft_check(newcomm == MPI_COMM_NULL, 'odd ranks get MPI_COMM_NULL')
  end if
  call mpi_group_free(evengroup, ierr)
  call mpi_group_free(wgroup, ierr)
  call ft_check(wgroup == MPI_GROUP_NULL, 'mpi_group_free sets MPI_GROUP_NULL')

  ! Errors come back as codes with MPI_ERRORS_RETURN.
  call mpi_comm_set_errhandler(dupcomm, MPI_ERRORS_RETURN, ierr)
  call ft_ok(ierr, 'mpi_comm_set_errhandler')
  call mpi_send(ibuf, 1, MPI_INTEGER, ft_size + 5, 0, dupcomm, ierr)
  call ft_check(ierr /= MPI_SUCCESS, 'send to an invalid rank fails')
  call mpi_error_class(ierr, r, i)
  call ft_check(r == MPI_ERR_RANK, 'its class is MPI_ERR_RANK')

  call mpi_comm_free(dupcomm, ierr)
  call mpi_comm_free(rowcomm, ierr)
  call mpi_comm_free(colcomm, ierr)
  call ft_finalize()
end program f_comm

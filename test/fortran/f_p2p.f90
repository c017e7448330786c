! Point-to-point from Fortran: status fields, mpi_get_count,
! MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE, an isend/irecv/waitall halo
! exchange on a ring, sendrecv, probe/iprobe, ssend, mpi_test,
! and MPI_PROC_NULL (mpi_waitany and friends: f_waitany.f90).
program f_p2p
  use ftest
  implicit none
  integer, parameter :: n = 100
  integer :: ierr, left, right, i, count, src, tag
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 4), req(4)
  double precision :: sendl(n), sendr(n), recvl(n), recvr(n)
  integer :: ibuf(10), jbuf(10)
  logical :: flag

  call ft_init()
  right = mod(ft_rank + 1, ft_size)
  left = mod(ft_rank - 1 + ft_size, ft_size)

  ! Halo exchange: send my rank to both neighbours, receive theirs.
  do i = 1, n
    sendl(i) = ft_rank * 1000 + i
    sendr(i) = -(ft_rank * 1000 + i)
  end do
  call mpi_irecv(recvl, n, MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, req(1), ierr)
  call mpi_irecv(recvr, n, MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, req(2), ierr)
  call mpi_isend(sendr, n, MPI_DOUBLE_PRECISION, right, 1, MPI_COMM_WORLD, req(3), ierr)
  call mpi_isend(sendl, n, MPI_DOUBLE_PRECISION, left, 2, MPI_COMM_WORLD, req(4), ierr)
  call mpi_waitall(4, req, statuses, ierr)
  call ft_ok(ierr, 'mpi_waitall')
  call ft_check(statuses(MPI_SOURCE, 1) == left .and. statuses(MPI_TAG, 1) == 1, &
                'waitall status 1 source/tag')
  call ft_check(statuses(MPI_SOURCE, 2) == right .and. statuses(MPI_TAG, 2) == 2, &
                'waitall status 2 source/tag')
  call ft_check(all(req == MPI_REQUEST_NULL), 'requests freed')
  call ft_check(recvl(7) == -(left * 1000 + 7), 'halo from left')
  call ft_check(recvr(n) == right * 1000 + n, 'halo from right')

  ! The same with MPI_STATUSES_IGNORE.
  call mpi_irecv(recvl, n, MPI_DOUBLE_PRECISION, left, 3, MPI_COMM_WORLD, req(1), ierr)
  call mpi_isend(sendr, n, MPI_DOUBLE_PRECISION, right, 3, MPI_COMM_WORLD, req(2), ierr)
  call mpi_waitall(2, req, MPI_STATUSES_IGNORE, ierr)
  call ft_ok(ierr, 'mpi_waitall with MPI_STATUSES_IGNORE')

  ! Blocking send/recv with status fields and mpi_get_count.
  if (ft_rank == 0 .and. ft_size > 1) then
    ibuf = (/ (i, i = 1, 10) /)
    call mpi_send(ibuf, 7, MPI_INTEGER, 1, 42, MPI_COMM_WORLD, ierr)
    call mpi_ssend(ibuf, 3, MPI_INTEGER, 1, 43, MPI_COMM_WORLD, ierr)
    call mpi_send(ibuf, 10, MPI_INTEGER, 1, 44, MPI_COMM_WORLD, ierr)
    call mpi_send(ibuf, 2, MPI_INTEGER, 1, 45, MPI_COMM_WORLD, ierr)
  else if (ft_rank == 1) then
    jbuf = 0
    call mpi_recv(jbuf, 10, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &
                  status, ierr)
    call ft_ok(ierr, 'mpi_recv')
    call ft_check(status(MPI_SOURCE) == 0 .and. status(MPI_TAG) == 42, 'recv status')
    call mpi_get_count(status, MPI_INTEGER, count, ierr)
    call ft_check(count == 7, 'mpi_get_count')
    call ft_check(jbuf(7) == 7 .and. jbuf(8) == 0, 'recv data')
    call mpi_recv(jbuf, 10, MPI_INTEGER, 0, 43, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call ft_ok(ierr, 'mpi_recv with MPI_STATUS_IGNORE')
    ! probe, then receive what was probed
    call mpi_probe(0, 44, MPI_COMM_WORLD, status, ierr)
    call mpi_get_count(status, MPI_INTEGER, count, ierr)
    call ft_check(count == 10 .and. status(MPI_TAG) == 44, 'mpi_probe')
    call mpi_recv(jbuf, count, MPI_INTEGER, 0, 44, MPI_COMM_WORLD, status, ierr)
    flag = .false.
    do while (.not. flag)
      call mpi_iprobe(0, 45, MPI_COMM_WORLD, flag, status, ierr)
    end do
    call ft_check(status(MPI_TAG) == 45, 'mpi_iprobe status')
    call mpi_recv(jbuf, 2, MPI_INTEGER, 0, 45, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if

  ! sendrecv around the ring.
  call mpi_sendrecv(ft_rank, 1, MPI_INTEGER, right, 5, src, 1, MPI_INTEGER, left, 5, &
                    MPI_COMM_WORLD, status, ierr)
  call ft_check(src == left .and. status(MPI_SOURCE) == left, 'mpi_sendrecv')

  ! test returns a LOGICAL.
  call mpi_irecv(tag, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, req(1), ierr)
  call mpi_send(ft_rank, 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call mpi_test(req(1), flag, status, ierr)
  end do
  call ft_check(status(MPI_SOURCE) == left, 'mpi_test status')

  ! MPI_PROC_NULL
  call mpi_recv(ibuf, 10, MPI_INTEGER, MPI_PROC_NULL, 1, MPI_COMM_WORLD, status, ierr)
  call ft_check(status(MPI_SOURCE) == MPI_PROC_NULL .and. status(MPI_TAG) == MPI_ANY_TAG, &
                'recv from MPI_PROC_NULL')
  call mpi_wait(req(1), status, ierr)

  call ft_finalize()
end program f_p2p

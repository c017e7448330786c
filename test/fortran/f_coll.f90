! Collectives from Fortran, the ones NPB calls: barrier, bcast,
! reduce / allreduce of DOUBLE PRECISION, allreduce with MPI_IN_PLACE,
! alltoall of DOUBLE COMPLEX, alltoallv, allgather(v), gather(v),
! scatter(v), scan, reduce_scatter, and mpi_op_create with a Fortran
! reduction function.
module f_coll_ops
  implicit none
contains
  ! inout = max(abs(in), abs(inout)) for DOUBLE PRECISION
  subroutine absmax(invec, inoutvec, len, datatype)
    integer :: len, datatype
    double precision :: invec(len), inoutvec(len)
    integer :: i
    do i = 1, len
      inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
    end do
  end subroutine absmax
end module f_coll_ops

program f_coll
  use ftest
  use f_coll_ops
  implicit none
  integer :: ierr, i, p, n, op, root
  double precision :: x(3), y(3), s
  double complex :: zs(8, 64), zr(8, 64)
  integer :: scounts(64), sdispls(64), rcounts(64), rdispls(64)
  integer :: ibuf(64), jbuf(64), k, v

  call ft_init()
  p = ft_size
  root = p - 1

  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_barrier')

  x = 0
  if (ft_rank == root) x = (/ 1.5d0, 2.5d0, 3.5d0 /)
  call mpi_bcast(x, 3, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_bcast')
  call ft_check(x(3) == 3.5d0, 'bcast data')

  x = (/ dble(ft_rank), 1d0, -dble(ft_rank) /)
  y = 0
  call mpi_reduce(x, y, 3, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_reduce')
  if (ft_rank == 0) call ft_check(y(1) == p * (p - 1) / 2d0 .and. y(2) == p, 'reduce sum')
  call mpi_allreduce(x, y, 3, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_allreduce')
  call ft_check(y(1) == p - 1 .and. y(3) == 0, 'allreduce max')
  call mpi_allreduce(MPI_IN_PLACE, x, 3, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_allreduce MPI_IN_PLACE')
  call ft_check(x(2) == p .and. x(1) == p * (p - 1) / 2d0, 'allreduce in place')
  s = ft_rank + 1
  call mpi_allreduce(MPI_IN_PLACE, s, 1, MPI_DOUBLE_PRECISION, MPI_PROD, MPI_COMM_WORLD, ierr)
  call ft_check(s == product((/ (dble(i), i = 1, p) /)), 'allreduce of a scalar')

  ! alltoall of DOUBLE COMPLEX, 8 per peer (the FT transpose).
  do i = 1, p
    do k = 1, 8
      zs(k, i) = dcmplx(ft_rank, 100 * (i - 1) + k)
    end do
  end do
  call mpi_alltoall(zs, 8, MPI_DOUBLE_COMPLEX, zr, 8, MPI_DOUBLE_COMPLEX, MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_alltoall')
  call ft_check(zr(5, p) == dcmplx(p - 1, 100 * ft_rank + 5), 'alltoall double complex')

  ! alltoallv: i+1 integers to rank i.
  n = 0
  do i = 1, p
    scounts(i) = i
    sdispls(i) = n
    n = n + i
    rcounts(i) = ft_rank + 1
    rdispls(i) = (i - 1) * (ft_rank + 1)
  end do
  ibuf(1:n) = ft_rank
  jbuf = -1
  call mpi_alltoallv(ibuf, scounts, sdispls, MPI_INTEGER, jbuf, rcounts, rdispls, &
                     MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_alltoallv')
  call ft_check(jbuf(p * (ft_rank + 1)) == p - 1 .and. jbuf(p * (ft_rank + 1) + 1) == -1, &
                'alltoallv data')

  ! allgather / gather / scatter / scan
  jbuf = -1
  call mpi_allgather(ft_rank * 2, 1, MPI_INTEGER, jbuf, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_allgather')
  call ft_check(jbuf(p) == 2 * (p - 1), 'allgather data')
  jbuf = -1
  call mpi_gather(ft_rank, 1, MPI_INTEGER, jbuf, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_gather')
  if (ft_rank == root) call ft_check(jbuf(1) == 0 .and. jbuf(p) == p - 1, 'gather data')
  ibuf = (/ (10 * i, i = 1, 64) /)
  call mpi_scatter(ibuf, 1, MPI_INTEGER, v, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_scatter')
  call ft_check(v == 10 * (ft_rank + 1), 'scatter data')
  call mpi_scan(1, v, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_scan')
  call ft_check(v == ft_rank + 1, 'scan data')

  ! v variants: rank i contributes i+1 copies of i.
  do i = 1, p
    rcounts(i) = i
    rdispls(i) = (i - 1) * i / 2
  end do
  ibuf(1:ft_rank + 1) = ft_rank
  jbuf = -1
  call mpi_allgatherv(ibuf, ft_rank + 1, MPI_INTEGER, jbuf, rcounts, rdispls, MPI_INTEGER, &
                      MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_allgatherv')
  call ft_check(jbuf(p * (p + 1) / 2) == p - 1 .and. jbuf(1) == 0, 'allgatherv data')
  jbuf = -1
  call mpi_gatherv(ibuf, ft_rank + 1, MPI_INTEGER, jbuf, rcounts, rdispls, MPI_INTEGER, &
                   0, MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_gatherv')
  if (ft_rank == 0) call ft_check(jbuf(p * (p + 1) / 2) == p - 1, 'gatherv data')
  ibuf = (/ (i, i = 1, 64) /)
  jbuf = -1
  call mpi_scatterv(ibuf, rcounts, rdispls, MPI_INTEGER, jbuf, ft_rank + 1, MPI_INTEGER, &
                    0, MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_scatterv')
  call ft_check(jbuf(ft_rank + 1) == rdispls(ft_rank + 1) + ft_rank + 1, 'scatterv data')

  ! reduce_scatter: each rank gets the sum of block i (size i).
  ibuf = 1
  jbuf = -1
  call mpi_reduce_scatter(ibuf, jbuf, rcounts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_reduce_scatter')
  call ft_check(jbuf(ft_rank + 1) == p .and. jbuf(ft_rank + 2) == -1, 'reduce_scatter data')

  ! A user reduction written in Fortran.
  call mpi_op_create(absmax, .true., op, ierr)
  call ft_ok(ierr, 'mpi_op_create')
  x = (/ -dble(ft_rank), dble(ft_rank), 0.5d0 /)
  call mpi_allreduce(x, y, 3, MPI_DOUBLE_PRECISION, op, MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'mpi_allreduce with a Fortran op')
  call ft_check(y(1) == p - 1 .and. y(2) == p - 1 .and. y(3) == 0.5d0, 'Fortran op result')
  call mpi_op_free(op, ierr)
  call ft_check(op == MPI_OP_NULL, 'mpi_op_free sets MPI_OP_NULL')

  call ft_finalize()
end program f_coll

! Collectives through the mpi_f08 module: barrier, bcast, reduce and
! allreduce (MPI_IN_PLACE too, and a user operation from MPI_Op_create),
! gather(v), scatter(v), allgather(v), alltoall(v), and the nonblocking
! forms completed by MPI_Wait and MPI_Waitall.
module f08_coll_ops
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
contains
  ! inoutvec = max(invec, inoutvec) + 1 on integers
  subroutine maxplus(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    if (datatype == MPI_INTEGER) b = max(a, b) + 1
  end subroutine maxplus
end module f08_coll_ops

program f08_coll
  use mpi_f08
  use ftest08
  use f08_coll_ops
  implicit none
  integer :: i, j, r, ierr, p
  integer :: v, s, vs(2), ss(2), x
  integer, allocatable :: ga(:), cnts(:), displs(:), rv(:), sv(:), rv2(:)
  double precision :: dv(3)
  type(MPI_Request) :: req, reqs(3)
  type(MPI_Op) :: op

  call ft_init()
  p = ft_size
  r = ft_rank
  allocate(ga(p), cnts(p), displs(p), rv(p * (p + 1) / 2 + p), sv(p * p), rv2(p * p))

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call ft_ok(ierr, 'MPI_Barrier')

  ! Bcast from the last rank.
  dv = 0
  if (r == p - 1) dv = [1.5d0, 2.5d0, 3.5d0]
  call MPI_Bcast(dv, 3, MPI_DOUBLE_PRECISION, p - 1, MPI_COMM_WORLD)
  call ft_check(all(dv == [1.5d0, 2.5d0, 3.5d0]), 'MPI_Bcast')

  ! Reduce, allreduce, in place.
  v = r + 1
  s = -1
  call MPI_Reduce(v, s, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
  if (r == 0) call ft_check(s == p * (p + 1) / 2, 'MPI_Reduce')
  vs = [r, -r]
  call MPI_Allreduce(vs, ss, 2, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
  call ft_check(ss(1) == p - 1 .and. ss(2) == 0, 'MPI_Allreduce')
  vs = [r, 1]
  call MPI_Allreduce(MPI_IN_PLACE, vs, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call ft_check(vs(1) == p * (p - 1) / 2 .and. vs(2) == p, 'MPI_Allreduce MPI_IN_PLACE')

  ! A user operation.
  call MPI_Op_create(maxplus, .true., op)
  call ft_check(op /= MPI_OP_NULL, 'MPI_Op_create')
  v = r
  call MPI_Allreduce(v, s, 1, MPI_INTEGER, op, MPI_COMM_WORLD)
  call ft_check(s >= p - 1 .and. s <= 2 * (p - 1), 'user operation')
  if (p == 2) call ft_check(s == 2, 'user operation value')
  call MPI_Op_free(op)
  call ft_check(op == MPI_OP_NULL, 'MPI_Op_free')

  ! Gather and scatter.
  ga = -1
  call MPI_Gather(r * 3, 1, MPI_INTEGER, ga, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (r == 0) call ft_check(all(ga == [(3 * i, i = 0, p - 1)]), 'MPI_Gather')
  if (r == 0) ga = [(10 * i, i = 0, p - 1)]
  call MPI_Scatter(ga, 1, MPI_INTEGER, x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call ft_check(x == 10 * r, 'MPI_Scatter')

  ! Gatherv and scatterv: rank i contributes i+1 values.
  cnts = [(i + 1, i = 0, p - 1)]
  displs = [(i * (i + 1) / 2, i = 0, p - 1)]
  sv(1:r + 1) = r
  rv = -1
  call MPI_Gatherv(sv, r + 1, MPI_INTEGER, rv, cnts, displs, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (r == 0) then
    do i = 0, p - 1
      call ft_check(all(rv(displs(i + 1) + 1:displs(i + 1) + i + 1) == i), 'MPI_Gatherv')
    end do
  end if
  sv = -1
  call MPI_Scatterv(rv, cnts, displs, MPI_INTEGER, sv, r + 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call ft_check(all(sv(1:r + 1) == r), 'MPI_Scatterv')

  ! Allgather, allgatherv.
  ga = -1
  call MPI_Allgather(r, 1, MPI_INTEGER, ga, 1, MPI_INTEGER, MPI_COMM_WORLD)
  call ft_check(all(ga == [(i, i = 0, p - 1)]), 'MPI_Allgather')
  sv(1:r + 1) = r
  rv = -1
  call MPI_Allgatherv(sv, r + 1, MPI_INTEGER, rv, cnts, displs, MPI_INTEGER, MPI_COMM_WORLD)
  do i = 0, p - 1
    call ft_check(all(rv(displs(i + 1) + 1:displs(i + 1) + i + 1) == i), 'MPI_Allgatherv')
  end do

  ! Alltoall: element j (0-based) sent to rank j is r*100+j; alltoallv
  ! with one element per rank as well.
  sv(1:p) = [(r * 100 + j, j = 0, p - 1)]
  rv2 = -1
  call MPI_Alltoall(sv, 1, MPI_INTEGER, rv2, 1, MPI_INTEGER, MPI_COMM_WORLD)
  call ft_check(all(rv2(1:p) == [(j * 100 + r, j = 0, p - 1)]), 'MPI_Alltoall')
  cnts = 1
  displs = [(i, i = 0, p - 1)]
  rv2 = -1
  call MPI_Alltoallv(sv, cnts, displs, MPI_INTEGER, rv2, cnts, displs, MPI_INTEGER, &
                     MPI_COMM_WORLD)
  call ft_check(all(rv2(1:p) == [(j * 100 + r, j = 0, p - 1)]), 'MPI_Alltoallv')

  ! Nonblocking collectives.
  call MPI_Ibarrier(MPI_COMM_WORLD, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call ft_check(req == MPI_REQUEST_NULL, 'MPI_Ibarrier')
  x = -1
  if (r == 0) x = 77
  v = r + 1
  s = -1
  ga = -1
  call MPI_Ibcast(x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(1))
  call MPI_Iallreduce(v, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, reqs(2))
  call MPI_Iallgather(v, 1, MPI_INTEGER, ga, 1, MPI_INTEGER, MPI_COMM_WORLD, reqs(3))
  call MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE, ierr)
  call ft_ok(ierr, 'MPI_Waitall of collectives')
  call ft_check(x == 77, 'MPI_Ibcast')
  call ft_check(s == p * (p + 1) / 2, 'MPI_Iallreduce')
  call ft_check(all(ga == [(i, i = 1, p)]), 'MPI_Iallgather')
  s = -1
  call MPI_Ireduce(v, s, 1, MPI_INTEGER, MPI_MAX, p - 1, MPI_COMM_WORLD, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  if (r == p - 1) call ft_check(s == p, 'MPI_Ireduce')
  rv2 = -1
  call MPI_Ialltoall(sv, 1, MPI_INTEGER, rv2, 1, MPI_INTEGER, MPI_COMM_WORLD, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call ft_check(all(rv2(1:p) == [(j * 100 + r, j = 0, p - 1)]), 'MPI_Ialltoall')
  ga = -1
  call MPI_Igather(r, 1, MPI_INTEGER, ga, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  if (r == 0) call ft_check(all(ga == [(i, i = 0, p - 1)]), 'MPI_Igather')

  call ft_finalize()
end program f08_coll

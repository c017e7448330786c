! Derived datatypes, groups and error handlers through the mpi_f08 module:
! MPI_Sizeof, MPI_Type_contiguous, MPI_Type_vector, MPI_Type_create_struct
! describing a Fortran derived type (addresses from MPI_Get_address),
! commit, size, extent, MPI_Type_create_resized, names, free; groups of
! communicators; MPI_ERRORS_RETURN, error classes and strings, a Fortran
! error handler; a periodic Cartesian topology (LOGICAL arrays) and an
! unweighted distributed graph.
module f08_dtype_eh
  use mpi_f08
  implicit none
  integer, save :: seen = -1
contains
  ! A communicator error handler: remembers the code it is given.
  subroutine remember(comm, error_code)
    type(MPI_Comm) :: comm
    integer :: error_code
    if (comm /= MPI_COMM_NULL) seen = error_code
  end subroutine remember
end module f08_dtype_eh

program f08_dtype
  use mpi_f08
  use ftest08
  use f08_dtype_eh
  implicit none
  type particle
    integer :: id
    double precision :: pos(3)
    integer :: tag
  end type particle
  integer, parameter :: n = 4
  type(particle) :: ps(n), pr(n)
  type(MPI_Datatype) :: tcont, tvec, tpart, tpart1, types(3)
  integer(kind=MPI_ADDRESS_KIND) :: base, addrs(3), disps(3), lb, extent
  integer :: blens(3), right, left, i, sz, ierr, cls, len, nr, rk, ranks(1), tr(1)
  integer :: a(12), b(12)
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=MPI_MAX_ERROR_STRING) :: msg
  type(MPI_Group) :: world, g, gx
  type(MPI_Errhandler) :: eh
  type(MPI_Comm) :: sub, cart, ring
  integer :: dims(1), coords(1), src, dst, srcs(1), dsts(1), indeg, outdeg
  logical :: periods(1), weighted

  call ft_init()
  right = mod(ft_rank + 1, ft_size)
  left = mod(ft_rank - 1 + ft_size, ft_size)

  ! MPI_Sizeof agrees with the sizes of the predefined types.
  call MPI_Sizeof(ps(1)%pos, sz)
  call MPI_Type_size(MPI_DOUBLE_PRECISION, i)
  call ft_check(sz == 8 .and. i == 8, 'MPI_Sizeof double precision')
  call MPI_Sizeof(a(1), sz)
  call ft_check(sz == 4, 'MPI_Sizeof integer')

  ! Contiguous and vector types on an integer array.
  call MPI_Type_contiguous(3, MPI_INTEGER, tcont)
  call MPI_Type_commit(tcont)
  call MPI_Type_size(tcont, sz)
  call ft_check(sz == 12, 'MPI_Type_size contiguous')
  call MPI_Type_vector(4, 1, 3, MPI_INTEGER, tvec, ierr)
  call ft_ok(ierr, 'MPI_Type_vector')
  call MPI_Type_commit(tvec)
  call MPI_Type_get_extent(tvec, lb, extent)
  call ft_check(lb == 0 .and. extent == 40, 'MPI_Type_get_extent vector')
  a = [(ft_rank * 100 + i, i = 1, 12)]
  b = -1
  ! Every third element of a goes into the first four of b.
  call MPI_Sendrecv(a, 1, tvec, right, 1, b, 4, MPI_INTEGER, left, 1, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE)
  call ft_check(all(b(1:4) == [(left * 100 + 1 + 3 * i, i = 0, 3)]), 'vector data')
  call ft_check(all(b(5:) == -1), 'vector bounds')
  b = -1
  call MPI_Sendrecv(a, 2, tcont, right, 2, b, 6, MPI_INTEGER, left, 2, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE)
  call ft_check(all(b(1:6) == [(left * 100 + i, i = 1, 6)]), 'contiguous data')

  ! A struct type for the Fortran derived type, resized to its size so
  ! that arrays of it can be sent.
  call MPI_Get_address(ps(1), base)
  call MPI_Get_address(ps(1)%id, addrs(1))
  call MPI_Get_address(ps(1)%pos, addrs(2))
  call MPI_Get_address(ps(1)%tag, addrs(3))
  disps = addrs - base
  blens = [1, 3, 1]
  types = [MPI_INTEGER, MPI_DOUBLE_PRECISION, MPI_INTEGER]
  call MPI_Type_create_struct(3, blens, disps, types, tpart1)
  call MPI_Get_address(ps(2), addrs(1))
  call MPI_Type_create_resized(tpart1, 0_MPI_ADDRESS_KIND, addrs(1) - base, tpart)
  call MPI_Type_commit(tpart)
  call MPI_Type_size(tpart, sz)
  call ft_check(sz == 4 + 24 + 4, 'MPI_Type_size struct')
  call MPI_Type_get_extent(tpart, lb, extent)
  call ft_check(extent == addrs(1) - base, 'MPI_Type_get_extent struct')
  call MPI_Type_set_name(tpart, 'particle')
  call MPI_Type_get_name(tpart, name, len)
  call ft_check(name == 'particle' .and. len == 8, 'MPI_Type_get_name')
  do i = 1, n
    ps(i) = particle(ft_rank * 10 + i, [dble(i), dble(ft_rank), -1d0], -i)
  end do
  pr = particle(-1, [0d0, 0d0, 0d0], 0)
  call MPI_Sendrecv(ps, n, tpart, right, 3, pr, n, tpart, left, 3, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE)
  do i = 1, n
    call ft_check(pr(i)%id == left * 10 + i .and. pr(i)%tag == -i, 'struct integers')
    call ft_check(all(pr(i)%pos == [dble(i), dble(left), -1d0]), 'struct doubles')
  end do
  call MPI_Type_free(tpart1)
  call MPI_Type_free(tpart)
  call MPI_Type_free(tvec)
  call MPI_Type_free(tcont)
  call ft_check(tpart == MPI_DATATYPE_NULL .and. tcont == MPI_DATATYPE_NULL, 'MPI_Type_free')

  ! Groups: the world group without rank 0.
  call MPI_Comm_group(MPI_COMM_WORLD, world)
  call MPI_Group_size(world, sz)
  call ft_check(sz == ft_size, 'MPI_Group_size')
  ranks(1) = 0
  call MPI_Group_excl(world, 1, ranks, g)
  call MPI_Group_size(g, nr)
  call MPI_Group_rank(g, rk)
  call ft_check(nr == ft_size - 1, 'MPI_Group_excl size')
  if (ft_rank == 0) then
    call ft_check(rk == MPI_UNDEFINED, 'MPI_Group_rank outside')
  else
    call ft_check(rk == ft_rank - 1, 'MPI_Group_rank')
  end if
  ranks(1) = ft_size - 1
  call MPI_Group_translate_ranks(world, 1, ranks, g, tr)
  call ft_check(tr(1) == ft_size - 2 .or. (ft_size == 1 .and. tr(1) == MPI_UNDEFINED), &
                'MPI_Group_translate_ranks')
  call MPI_Group_incl(world, 1, ranks, gx)
  call MPI_Comm_create(MPI_COMM_WORLD, gx, sub)
  if (ft_rank == ft_size - 1) then
    call ft_check(sub /= MPI_COMM_NULL, 'MPI_Comm_create member')
    call MPI_Comm_size(sub, sz)
    call ft_check(sz == 1, 'MPI_Comm_create size')
    call MPI_Comm_free(sub)
  else
    call ft_check(sub == MPI_COMM_NULL, 'MPI_Comm_create other')
  end if
  call MPI_Group_free(gx)
  call MPI_Group_free(g)
  call MPI_Group_free(world)
  call ft_check(world == MPI_GROUP_NULL, 'MPI_Group_free')

  ! A periodic ring as a Cartesian topology, then as a distributed graph.
  dims = 0
  call MPI_Dims_create(ft_size, 1, dims)
  call ft_check(dims(1) == ft_size, 'MPI_Dims_create')
  periods = .true.
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., cart)
  periods = .false.
  dims = -1
  call MPI_Cart_get(cart, 1, dims, periods, coords)
  call ft_check(dims(1) == ft_size .and. periods(1) .and. coords(1) == ft_rank, 'MPI_Cart_get')
  call MPI_Cart_shift(cart, 0, 1, src, dst)
  call ft_check(src == left .and. dst == right, 'MPI_Cart_shift periodic')
  call MPI_Comm_free(cart)
  srcs = left
  dsts = right
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, srcs, MPI_UNWEIGHTED, 1, dsts, &
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, .false., ring)
  call MPI_Dist_graph_neighbors_count(ring, indeg, outdeg, weighted)
  call ft_check(indeg == 1 .and. outdeg == 1 .and. .not. weighted, 'MPI_Dist_graph_neighbors_count')
  call MPI_Comm_free(ring)

  ! Error handlers: an error returned with its class and message.
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Send(a, 1, MPI_INTEGER, ft_size + 5, 0, MPI_COMM_WORLD, ierr)
  call ft_check(ierr /= MPI_SUCCESS, 'invalid rank returns an error')
  call MPI_Error_class(ierr, cls)
  call ft_check(cls == MPI_ERR_RANK, 'MPI_Error_class')
  call MPI_Error_string(ierr, msg, len)
  call ft_check(len > 0 .and. len_trim(msg) == len, 'MPI_Error_string')
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL)

  ! A Fortran error handler is called with the code.
  call MPI_Comm_create_errhandler(remember, eh)
  call MPI_Comm_dup(MPI_COMM_WORLD, sub)
  call MPI_Comm_set_errhandler(sub, eh)
  call MPI_Comm_call_errhandler(sub, MPI_ERR_OTHER)
  call ft_check(seen == MPI_ERR_OTHER, 'user error handler')
  call MPI_Comm_free(sub)
  call MPI_Errhandler_free(eh)
  call ft_check(eh == MPI_ERRHANDLER_NULL, 'MPI_Errhandler_free')

  call ft_finalize()
end program f08_dtype

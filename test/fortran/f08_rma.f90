! One-sided communication through the mpi_f08 module: MPI_Win_create on a
! Fortran array and MPI_Win_allocate (base address as TYPE(C_PTR)), fence
! epochs with MPI_Put, MPI_Get (array sections too) and MPI_Accumulate,
! passive target with MPI_Win_lock, MPI_Win_flush and MPI_Win_unlock, and
! MPI_Win_free. MPI_ASYNC_PROTECTS_NONBLOCKING is .false.: local reads of
! memory an RMA operation wrote follow MPI_F_sync_reg (MPI-3.1 17.1.17).
program f08_rma
  use mpi_f08
  use ftest08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  integer, parameter :: n = 8
  integer :: right, left, i, ierr
  integer, asynchronous :: a(n), g(n), src(2 * n), back(n), me, one, got
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp
  integer, pointer, asynchronous :: mem(:)
  type(MPI_Win) :: win, win2
  type(c_ptr) :: cp

  call ft_init()
  right = mod(ft_rank + 1, ft_size)
  left = mod(ft_rank - 1 + ft_size, ft_size)

  a = -1
  wsize = n * 4
  call MPI_Win_create(a, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call ft_ok(ierr, 'MPI_Win_create')
  call ft_check(win /= MPI_WIN_NULL, 'MPI_Win_create handle')

  ! Put: each rank writes its rank into element rank+1 of its right neighbour.
  call MPI_Win_fence(0, win)
  disp = ft_rank
  me = ft_rank
  call MPI_Put(me, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  call MPI_F_sync_reg(a)
  call ft_check(a(left + 1) == left, 'MPI_Put')

  ! Get the whole window of the left neighbour.
  g = -2
  call MPI_Get(g, n, MPI_INTEGER, left, 0_MPI_ADDRESS_KIND, n, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  call MPI_F_sync_reg(g)
  i = mod(left - 1 + ft_size, ft_size)
  call ft_check(g(i + 1) == i, 'MPI_Get')

  ! Accumulate: every rank adds 1 to element n of rank 0.
  one = 1
  call MPI_Accumulate(one, 1, MPI_INTEGER, 0, int(n - 1, MPI_ADDRESS_KIND), 1, MPI_INTEGER, &
                      MPI_SUM, win)
  call MPI_Win_fence(0, win)
  call MPI_F_sync_reg(a)
  if (ft_rank == 0) call ft_check(a(n) == -1 + ft_size, 'MPI_Accumulate')
  ! The Puts below write all of a: rank 0 reads a(n) in an epoch of its own,
  ! since an operation started after a fence returns reaches its target as
  ! soon as the target has called that fence, not once it has left it.
  call MPI_Win_fence(0, win)
  ! Array sections as origin buffers: every other element of src is put
  ! into the right neighbour, then read back in reverse order.
  src = [(ft_rank * 100 + i, i = 1, 2 * n)]
  call MPI_Put(src(1:2 * n:2), n, MPI_INTEGER, right, 0_MPI_ADDRESS_KIND, n, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  call MPI_F_sync_reg(a)
  call ft_check(all(a == [(left * 100 + 2 * i - 1, i = 1, n)]), 'MPI_Put from a section')
  back = -1
  call MPI_Get(back(n:1:-1), n, MPI_INTEGER, right, 0_MPI_ADDRESS_KIND, n, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  call MPI_F_sync_reg(back)
  call ft_check(all(back == [(ft_rank * 100 + 2 * (n + 1 - i) - 1, i = 1, n)]), &
                'MPI_Get into a reversed section')

  call MPI_Win_free(win)
  call ft_check(win == MPI_WIN_NULL, 'MPI_Win_free')

  ! A window the library allocates; passive target.
  call MPI_Win_allocate(wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, cp, win2)
  call c_f_pointer(cp, mem, [n])
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, ft_rank, 0, win2)
  mem = 0
  call MPI_Win_unlock(ft_rank, win2)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win2)
  one = ft_rank + 1
  call MPI_Put(one, 1, MPI_INTEGER, right, 1_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win2)
  call MPI_Win_flush(right, win2)
  got = -1
  call MPI_Get(got, 1, MPI_INTEGER, right, 1_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win2)
  call MPI_Win_unlock(right, win2)
  call MPI_F_sync_reg(got)
  call ft_check(got == ft_rank + 1, 'MPI_Get after MPI_Win_flush')
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Win_lock(MPI_LOCK_SHARED, ft_rank, 0, win2)
  call MPI_F_sync_reg(mem)
  call ft_check(mem(2) == left + 1, 'passive-target data')
  call MPI_Win_unlock(ft_rank, win2)
  call MPI_Win_free(win2)

  call ft_finalize()
end program f08_rma

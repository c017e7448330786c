! One-sided communication through the `mpi` module: MPI_Win_create on a
! Fortran array, fence epochs with MPI_Put, MPI_Get and MPI_Accumulate
! (target displacements of KIND=MPI_ADDRESS_KIND), the window's attributes
! and name, MPI_Alloc_mem and MPI_Win_allocate (base addresses returned as
! address integers, used through c_f_pointer), a passive-target epoch with
! MPI_Fetch_and_op and MPI_Compare_and_swap, and MPI_Win_free.
program f_rma
  use mpi
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  integer, parameter :: n = 8
  integer :: ierr, rank, nprocs, right, left, errs, e, i, win, len
  integer, volatile :: a(n)
  integer :: got(n), one, old, cmp, res, neg
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp, attr, baseptr
  integer, pointer, volatile :: mem(:)
  logical :: flag
  character(len=MPI_MAX_OBJECT_NAME) :: wname
  type(c_ptr) :: cp

  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank - 1 + nprocs, nprocs)

  ! A window on a Fortran array, 4-byte displacement units.
  a = -1
  wsize = n * 4
  call MPI_Win_create(a, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  if (ierr /= MPI_SUCCESS) errs = errs + 1
  call MPI_Win_get_attr(win, MPI_WIN_SIZE, attr, flag, ierr)
  if (.not. flag .or. attr /= wsize) errs = errs + 1
  call MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, attr, flag, ierr)
  if (.not. flag .or. attr /= 4) errs = errs + 1
  call MPI_Win_get_attr(win, MPI_WIN_MODEL, attr, flag, ierr)
  if (.not. flag .or. attr /= MPI_WIN_UNIFIED) errs = errs + 1
  call MPI_Win_set_name(win, 'f_rma window', ierr)
  call MPI_Win_get_name(win, wname, len, ierr)
  if (wname /= 'f_rma window' .or. len /= 12) errs = errs + 1

  ! Put: each rank writes its rank into element rank+1 of its right neighbour.
  call MPI_Win_fence(0, win, ierr)
  disp = rank
  call MPI_Put(rank, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
  if (ierr /= MPI_SUCCESS) errs = errs + 1
  call MPI_Win_fence(0, win, ierr)
  if (a(left + 1) /= left) errs = errs + 1

  ! Get: read the whole window of the left neighbour.
  a(n) = 1000 + rank
  call MPI_Win_fence(0, win, ierr)
  disp = 0
  got = -2
  call MPI_Get(got, n, MPI_INTEGER, left, disp, n, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  if (got(n) /= 1000 + left) errs = errs + 1

  ! Accumulate: every rank adds 1 to element 1 of rank 0.
  if (rank == 0) a(1) = 0
  call MPI_Win_fence(0, win, ierr)
  one = 1
  disp = 0
  call MPI_Accumulate(one, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  if (rank == 0 .and. a(1) /= nprocs) errs = errs + 1
  call MPI_Win_free(win, ierr)
  if (win /= MPI_WIN_NULL) errs = errs + 1

  ! MPI_Alloc_mem: the base comes back as an address integer.
  call MPI_Alloc_mem(wsize, MPI_INFO_NULL, baseptr, ierr)
  if (ierr /= MPI_SUCCESS .or. baseptr == 0) errs = errs + 1
  cp = transfer(baseptr, cp)
  call c_f_pointer(cp, mem, [n])
  mem = 7
  if (sum(mem) /= 7 * n) errs = errs + 1
  call MPI_Free_mem(mem, ierr)
  if (ierr /= MPI_SUCCESS) errs = errs + 1

  ! MPI_Win_allocate and a passive-target epoch on rank 0's first element.
  call MPI_Win_allocate(wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win, ierr)
  if (ierr /= MPI_SUCCESS) errs = errs + 1
  cp = transfer(baseptr, cp)
  call c_f_pointer(cp, mem, [n])
  call MPI_Win_get_attr(win, MPI_WIN_BASE, attr, flag, ierr)
  if (.not. flag .or. attr /= baseptr) errs = errs + 1
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win, ierr)
  mem = 0
  call MPI_Win_unlock(rank, win, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  disp = 0
  call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win, ierr)
  call MPI_Fetch_and_op(one, old, MPI_INTEGER, 0, disp, MPI_SUM, win, ierr)
  call MPI_Win_unlock(0, win, ierr)
  if (old < 0 .or. old >= nprocs) errs = errs + 1
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  ! Only rank 0's swap finds the value nprocs: the element becomes -1.
  disp = 0
  cmp = nprocs
  neg = -1
  res = -5
  if (rank == 0) then
    call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win, ierr)
    call MPI_Compare_and_swap(neg, cmp, res, MPI_INTEGER, 0, disp, win, ierr)
    call MPI_Win_unlock(0, win, ierr)
    if (res /= nprocs .or. mem(1) /= -1) errs = errs + 1
  end if
  call MPI_Win_free(win, ierr)

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
end program f_rma

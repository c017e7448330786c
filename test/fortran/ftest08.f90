! ftest08: the helpers of ftest for the tests of the mpi_f08 module.
module ftest08
  use mpi_f08
  implicit none
  integer, save :: ft_errs = 0, ft_rank = 0, ft_size = 1
contains
  subroutine ft_init()
    integer :: ierr
    call MPI_Init(ierr)
    call ft_ok(ierr, 'MPI_Init')
    call MPI_Comm_rank(MPI_COMM_WORLD, ft_rank)
    call MPI_Comm_size(MPI_COMM_WORLD, ft_size)
  end subroutine ft_init

  ! Record a failed check; the first ones are printed with the rank.
  subroutine ft_check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      ft_errs = ft_errs + 1
      if (ft_errs <= 10) print '(a,i0,2a)', 'rank ', ft_rank, ': FAIL ', what
    end if
  end subroutine ft_check

  subroutine ft_ok(ierr, what)
    integer, intent(in) :: ierr
    character(len=*), intent(in) :: what
    call ft_check(ierr == MPI_SUCCESS, what)
  end subroutine ft_ok

  ! Collect the error counts on rank 0 with point-to-point only and print
  ! the verdict.
  subroutine ft_finalize()
    integer :: i, e, total
    total = ft_errs
    if (ft_rank == 0) then
      do i = 1, ft_size - 1
        call MPI_Recv(e, 1, MPI_INTEGER, i, 9999, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
        total = total + e
      end do
      if (total == 0) then
        print '(a)', ' No Errors'
      else
        print '(a,i0,a)', ' Found ', total, ' errors'
      end if
    else
      call MPI_Send(ft_errs, 1, MPI_INTEGER, 0, 9999, MPI_COMM_WORLD)
    end if
    call MPI_Finalize()
  end subroutine ft_finalize
end module ftest08

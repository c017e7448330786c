! ftest: helpers shared by the Fortran tests, like test/mpi/mtest.c.
! Includes mpif.h inside a module the way NPB does, so every test that
! uses it sees the MPI constants through the module.
module ftest
  implicit none
  include 'mpif.h'
  integer, save :: ft_errs = 0, ft_rank = 0, ft_size = 1
contains
  subroutine ft_init()
    integer :: ierr
    call mpi_init(ierr)
    call ft_ok(ierr, 'mpi_init')
    call mpi_comm_rank(MPI_COMM_WORLD, ft_rank, ierr)
    call mpi_comm_size(MPI_COMM_WORLD, ft_size, ierr)
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

  ! Collect the error counts on rank 0 with point-to-point only (the tests
  ! of collectives must not depend on them) and print the verdict.
  subroutine ft_finalize()
    integer :: i, e, total, ierr, status(MPI_STATUS_SIZE)
    total = ft_errs
    if (ft_rank == 0) then
      do i = 1, ft_size - 1
        call mpi_recv(e, 1, MPI_INTEGER, i, 9999, MPI_COMM_WORLD, status, ierr)
        total = total + e
      end do
      if (total == 0) then
        print '(a)', ' No Errors'
      else
        print '(a,i0,a)', ' Found ', total, ' errors'
      end if
    else
      call mpi_send(ft_errs, 1, MPI_INTEGER, 0, 9999, MPI_COMM_WORLD, ierr)
    end if
    call mpi_finalize(ierr)
  end subroutine ft_finalize
end module ftest

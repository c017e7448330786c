! Environment from Fortran: LOGICAL results (mpi_initialized,
! mpi_finalized), CHARACTER results (mpi_get_processor_name,
! mpi_error_string, mpi_get_library_version), mpi_wtime / mpi_wtick,
! mpi_get_version, mpi_comm_get_attr of a predefined attribute and the
! mpif.h constants a Fortran program relies on.
program f_env
  use ftest
  implicit none
  integer :: ierr, len, ver, subver, i
  logical :: flag
  character(len=MPI_MAX_PROCESSOR_NAME) :: name
  character(len=MPI_MAX_ERROR_STRING) :: msg
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: libver
  character(len=4) :: short
  double precision :: t0, t1, tick
  integer(kind=MPI_ADDRESS_KIND) :: tag_ub

  flag = .true.
  call mpi_initialized(flag, ierr)
  call ft_check(.not. flag, 'mpi_initialized before init is .false.')
  call ft_init()
  call mpi_initialized(flag, ierr)
  call ft_check(flag .and. ierr == MPI_SUCCESS, 'mpi_initialized after init')
  call ft_check(transfer(flag, 0) == 1, '.true. is 1')
  call mpi_finalized(flag, ierr)
  call ft_check(.not. flag, 'mpi_finalized before finalize is .false.')

  name = '#'
  call mpi_get_processor_name(name, len, ierr)
  call ft_ok(ierr, 'mpi_get_processor_name')
  call ft_check(len > 0 .and. len <= MPI_MAX_PROCESSOR_NAME, 'processor name length')
  call ft_check(len_trim(name) == len, 'processor name blank-padded, no NUL')
  call ft_check(index(name, char(0)) == 0, 'processor name has no NUL')

  call mpi_error_string(MPI_ERR_TRUNCATE, msg, len, ierr)
  call ft_ok(ierr, 'mpi_error_string')
  call ft_check(len > 0 .and. len_trim(msg) == len, 'error string length')
  call ft_check(index(msg, char(0)) == 0, 'error string has no NUL')
  ! A destination shorter than the message is filled, not overrun.
  call mpi_error_string(MPI_ERR_TRUNCATE, short, len, ierr)
  call ft_check(len_trim(short) <= 4, 'short error string truncated')

  call mpi_get_library_version(libver, len, ierr)
  call ft_ok(ierr, 'mpi_get_library_version')
  call ft_check(len > 0 .and. len_trim(libver) <= len, 'library version')

  call mpi_get_version(ver, subver, ierr)
  call ft_check(ver == MPI_VERSION .and. subver == MPI_SUBVERSION, 'mpi_get_version')

  t0 = mpi_wtime()
  tick = mpi_wtick()
  do i = 1, 1000
    t1 = mpi_wtime()
  end do
  call ft_check(t1 >= t0 .and. t0 > 0d0, 'mpi_wtime increases')
  call ft_check(tick > 0d0 .and. tick < 1d0, 'mpi_wtick')

  call mpi_comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, tag_ub, flag, ierr)
  call ft_ok(ierr, 'mpi_comm_get_attr')
  call ft_check(flag .and. tag_ub >= 32767, 'MPI_TAG_UB attribute value')

  call ft_check(MPI_STATUS_SIZE == 5, 'MPI_STATUS_SIZE')
  call ft_check(MPI_SOURCE == 3 .and. MPI_TAG == 4 .and. MPI_ERROR == 5, 'status indices')
  call ft_check(MPI_ADDRESS_KIND == 8, 'MPI_ADDRESS_KIND')

  call ft_finalize()
  call mpi_finalized(flag, ierr)
  if (.not. flag) print '(a)', 'FAIL mpi_finalized after finalize'
end program f_env

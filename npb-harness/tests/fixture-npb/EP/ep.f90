! Fixture EP: the ranks share the terms of sum(1/k**2, k=1..nterms); rank 0
! adds the partial sums and checks the total against pi**2/6 - 1/nterms
! (the tail of the series), then prints NPB-style result lines.
program ep
  implicit none
  include 'mpif.h'
  include 'npbparams.h'
  integer :: rank, nprocs, ierr, r, status(MPI_STATUS_SIZE)
  integer :: k, lo, hi
  double precision :: part, other, total, t0, t, expect, mops
  logical :: ok

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
  lo = int(int(nterms, 8) * rank / nprocs) + 1
  hi = int(int(nterms, 8) * (rank + 1) / nprocs)

  t0 = MPI_WTIME()
  part = 0.0d0
  do k = hi, lo, -1
     part = part + 1.0d0 / (dble(k) * dble(k))
  end do
  if (rank == 0) then
     total = part
     do r = 1, nprocs - 1
        call MPI_RECV(other, 1, MPI_DOUBLE_PRECISION, r, 0, MPI_COMM_WORLD, &
                      status, ierr)
        total = total + other
     end do
  else
     call MPI_SEND(part, 1, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, ierr)
  end if
  t = MPI_WTIME() - t0

  if (rank == 0) then
     expect = acos(-1.0d0)**2 / 6.0d0 - 1.0d0 / nterms
     ok = abs(total - expect) < 1.0d-9
     mops = 0.0d0
     if (t > 0.0d0) mops = nterms / t / 1.0d6
     write (*, '(/,A)') ' EP Benchmark Completed.'
     write (*, '(A,A25)') ' Class           = ', class
     write (*, '(A,I25)') ' Size            = ', nterms
     write (*, '(A,F25.2)') ' Time in seconds = ', t
     write (*, '(A,I25)') ' Total processes = ', nprocs
     write (*, '(A,F25.2)') ' Mop/s total     = ', mops
     if (ok) then
        write (*, '(A,A25)') ' Verification    = ', 'SUCCESSFUL'
     else
        write (*, '(A,A25)') ' Verification    = ', 'UNSUCCESSFUL'
     end if
  end if
  call MPI_FINALIZE(ierr)
end program ep

! f77_basic: a fixed-form program with mpif.h (FORTRAN 77 style):
! init, rank, size, a ring of irecv/send/wait with status fields,
! barrier.
      PROGRAM F77BASIC
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NPROCS, LEFT, RIGHT, ERRS, I, E, REQ
      INTEGER STATUS(MPI_STATUS_SIZE)
      DOUBLE PRECISION BUF(5), RBUF(5)
      LOGICAL FLAG

      ERRS = 0
      CALL MPI_INIT(IERR)
      CALL MPI_INITIALIZED(FLAG, IERR)
      IF (.NOT. FLAG) ERRS = ERRS + 1
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      RIGHT = MOD(RANK + 1, NPROCS)
      LEFT = MOD(RANK - 1 + NPROCS, NPROCS)
      DO 10 I = 1, 5
         BUF(I) = RANK + I * 0.5D0
   10 CONTINUE
      CALL MPI_IRECV(RBUF, 5, MPI_DOUBLE_PRECISION, LEFT, 7,
     &               MPI_COMM_WORLD, REQ, IERR)
      CALL MPI_SEND(BUF, 5, MPI_DOUBLE_PRECISION, RIGHT, 7,
     &              MPI_COMM_WORLD, IERR)
      CALL MPI_WAIT(REQ, STATUS, IERR)
      IF (STATUS(MPI_SOURCE) .NE. LEFT) ERRS = ERRS + 1
      IF (STATUS(MPI_TAG) .NE. 7) ERRS = ERRS + 1
      IF (RBUF(5) .NE. LEFT + 2.5D0) ERRS = ERRS + 1
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      IF (IERR .NE. MPI_SUCCESS) ERRS = ERRS + 1
      IF (RANK .EQ. 0) THEN
         DO 20 I = 1, NPROCS - 1
            CALL MPI_RECV(E, 1, MPI_INTEGER, I, 99, MPI_COMM_WORLD,
     &                    MPI_STATUS_IGNORE, IERR)
            ERRS = ERRS + E
   20    CONTINUE
         IF (ERRS .EQ. 0) THEN
            PRINT *, 'No Errors'
         ELSE
            PRINT *, 'Found ', ERRS, ' errors'
         END IF
      ELSE
         CALL MPI_SEND(ERRS, 1, MPI_INTEGER, 0, 99, MPI_COMM_WORLD,
     &                 IERR)
      END IF
      CALL MPI_FINALIZE(IERR)
      END

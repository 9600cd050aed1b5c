! Progress after a collective, oversubscribed, in Fortran: the shape of
! tests/integration/progress_checks.c.  Right after a barrier (odd rounds)
! or a single with copyprivate (even rounds), thread 0 publishes the round
! while the other threads wait for it in user code, spinning, then sleeping
! 10 us at a time; a second barrier follows, after which thread 0 clears it.
! A collective that lets the workers leave before thread 0 makes thread 0
! wait for a processor while they spin.  Checks: every worker sees its
! round's value, copyprivate delivers the single's.  Prints
! "elapsed <seconds>"; progress_vs_stock.sh judges the time against stock.
!
!   progress_checks [rounds]     (default 2000)
module progress_wait
  use iso_c_binding
  implicit none
  integer :: published = 0
  integer :: failures = 0
  type, bind(c) :: timespec
    integer(c_long) :: tv_sec, tv_nsec
  end type timespec
  interface
    integer(c_int) function nanosleep(req, rem) bind(c, name='nanosleep')
      import :: c_int, timespec
      type(timespec), intent(in) :: req
      type(timespec), intent(out) :: rem
    end function nanosleep
  end interface
contains
  subroutine wait_for_thread0(round)
    integer, intent(in) :: round
    integer :: value, i, rc
    type(timespec) :: ten_us, left
    ten_us = timespec(0_c_long, 10000_c_long)
    value = 0
    do i = 1, 1000000
      !$omp atomic read seq_cst
      value = published
      if (value /= 0) exit
    end do
    do while (value == 0)
      rc = nanosleep(ten_us, left)
      !$omp atomic read seq_cst
      value = published
    end do
    if (value /= round) then
      !$omp atomic
      failures = failures + 1
    end if
  end subroutine wait_for_thread0
end module progress_wait

program progress_checks
  use omp_lib
  use progress_wait
  use count_argument_mod
  implicit none
  integer :: rounds, r, got
  double precision :: t0, elapsed

  rounds = count_argument('progress_checks', 2000, 10000000)

  t0 = omp_get_wtime()
  !$omp parallel private(r, got)
  do r = 1, rounds
    if (mod(r, 2) == 1) then
      !$omp barrier
    else
      !$omp single
      got = r
      !$omp end single copyprivate(got)
      if (got /= r) then
        !$omp atomic
        failures = failures + 1
      end if
    end if
    if (omp_get_thread_num() == 0) then
      !$omp atomic write seq_cst
      published = r
    else
      call wait_for_thread0(r)
    end if
    !$omp barrier
    if (omp_get_thread_num() == 0) then
      !$omp atomic write seq_cst
      published = 0
    end if
    !$omp barrier
  end do
  !$omp end parallel
  elapsed = omp_get_wtime() - t0

  if (failures /= 0) then
    print '(a, i0, a)', 'progress_checks: ', failures, ' wrong values'
    stop 1
  end if
  print '(a, a)', 'elapsed ', number_text(elapsed)
end program progress_checks

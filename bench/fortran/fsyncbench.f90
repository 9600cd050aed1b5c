! fsyncbench: the EPCC method for four of syncbench's measurements, in
! Fortran, so that gfortran's and flang's code paths into the runtime are
! timed as Fortran users get them.  Each measurement times a loop of
! repetitions of the construct around a short delay, minus the same loop
! of delays alone (the reference), per repetition: the construct's
! overhead.  Repetitions double until one test loop takes the test time;
! then five loops are timed and the median overhead is printed.  Every
! repetition checks its result; a wrong one fails the run.
!
!   fsyncbench [test-time ms]       (default 20)
! Prints "measurement,threads,us_per_step": PARALLEL, BARRIER, REDUCTION,
! SINGLE_COPYPRIVATE (8 bytes).
module fsync_kernels
  use omp_lib
  implicit none
  integer, parameter :: delay_len = 50
  integer :: wrong = 0
contains
  ! A short delay the compiler cannot remove (EPCC's delay).
  subroutine delay(len)
    integer, intent(in) :: len
    integer :: i
    double precision :: a
    a = 0
    do i = 1, len
      a = a + i
    end do
    if (a < 0) print *, a
  end subroutine delay

  double precision function reference(reps)
    integer, intent(in) :: reps
    integer :: r
    double precision :: t0
    t0 = omp_get_wtime()
    do r = 1, reps
      call delay(delay_len)
    end do
    reference = omp_get_wtime() - t0
  end function reference

  double precision function run(kind, reps)
    character(*), intent(in) :: kind
    integer, intent(in) :: reps
    integer :: r, nt
    integer(8) :: x
    double precision :: t0
    nt = omp_get_max_threads()
    t0 = omp_get_wtime()
    select case (kind)
    case ('PARALLEL')
      do r = 1, reps
        !$omp parallel
        call delay(delay_len)
        !$omp end parallel
      end do
    case ('BARRIER')
      !$omp parallel private(r)
      do r = 1, reps
        call delay(delay_len)
        !$omp barrier
      end do
      !$omp end parallel
    case ('REDUCTION')
      do r = 1, reps
        x = 0
        !$omp parallel reduction(+:x)
        call delay(delay_len)
        x = x + 1
        !$omp end parallel
        if (x /= nt) wrong = wrong + 1
      end do
    case ('SINGLE_COPYPRIVATE')
      !$omp parallel private(r, x)
      do r = 1, reps
        !$omp single
        call delay(delay_len)
        x = r
        !$omp end single copyprivate(x)
        if (x /= r) then
          !$omp atomic
          wrong = wrong + 1
        end if
      end do
      !$omp end parallel
    end select
    run = omp_get_wtime() - t0
  end function run
end module fsync_kernels

program fsyncbench
  use fsync_kernels
  use count_argument_mod
  implicit none
  character(len=18), parameter :: kinds(4) = [character(len=18) :: &
    'PARALLEL', 'BARRIER', 'REDUCTION', 'SINGLE_COPYPRIVATE']
  integer :: k, reps, b, test_ms
  double precision :: over(5), t

  test_ms = count_argument('fsyncbench (test time, ms)', 20, 60000)
  print '(a)', 'measurement,threads,us_per_step'
  do k = 1, size(kinds)
    reps = 16
    do
      t = run(trim(kinds(k)), reps)
      if (t * 1e3 >= test_ms .or. reps >= 2**26) exit
      reps = reps * 2
    end do
    do b = 1, 5
      over(b) = (run(trim(kinds(k)), reps) - reference(reps)) / reps * 1e6
    end do
    call sort5(over)
    print '(a, a, i0, a, a)', trim(kinds(k)), ',', omp_get_max_threads(), &
      ',', number_text(over(3))
  end do
  if (wrong /= 0) then
    print '(a, i0, a)', 'fsyncbench: ', wrong, ' wrong results'
    stop 1
  end if
contains
  subroutine sort5(v)
    double precision, intent(inout) :: v(5)
    integer :: i, j
    double precision :: tmp
    do i = 2, 5
      tmp = v(i)
      j = i - 1
      do while (j >= 1)
        if (v(j) <= tmp) exit
        v(j + 1) = v(j)
        j = j - 1
      end do
      v(j + 1) = tmp
    end do
  end subroutine sort5
end program fsyncbench

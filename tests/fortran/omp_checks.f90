! OpenMP constructs as Fortran codes use them, each result checked: parallel
! do with scalar and array reductions, single with copyprivate of a scalar
! and of an array, barriers, workshare, nested regions, tasks, threadprivate
! with copyin.  Integer arithmetic only, so any runtime, team size and
! reduction order gives the same results.  Prints "fortran checks: ok" and
! stops with status 0, or names each failed check and stops with status 1.
!
!   omp_checks [rounds]      (default 200)
module checks_state
  implicit none
  integer :: failures = 0
  integer :: tp_value
  !$omp threadprivate(tp_value)
contains
  subroutine expect(what, got, want)
    character(*), intent(in) :: what
    integer(8), intent(in) :: got, want
    if (got /= want) then
      !$omp critical (report)
      failures = failures + 1
      print '(a, a, i0, a, i0)', what, ': got ', got, ', expected ', want
      !$omp end critical (report)
    end if
  end subroutine expect
end module checks_state

program omp_checks
  use omp_lib
  use checks_state
  use count_argument_mod
  implicit none
  integer, parameter :: n = 1000, m = 64
  integer :: rounds, r, i, nt
  integer(8) :: s, big, arr(m), want_arr(m), bcast(m), one, inner_total
  integer(8) :: task_sum, ws(n), ws_total

  rounds = count_argument('omp_checks', 200, 1000000)

  do r = 1, rounds
    ! parallel do with scalar reductions (+ and max)
    s = 0
    big = 0
    !$omp parallel do reduction(+:s) reduction(max:big)
    do i = 1, n
      s = s + int(i, 8) * r
      big = max(big, int(mod(i * 7, n), 8) + r)
    end do
    !$omp end parallel do
    call expect('reduction +', s, int(n, 8) * (n + 1) / 2 * r)
    call expect('reduction max', big, int(n - 1, 8) + r)

    ! array reduction (gfortran combines arrays under the runtime's global
    ! atomic lock)
    arr = 0
    !$omp parallel do reduction(+:arr)
    do i = 1, n
      arr(mod(i, m) + 1) = arr(mod(i, m) + 1) + i + r
    end do
    !$omp end parallel do
    want_arr = 0
    do i = 1, n
      want_arr(mod(i, m) + 1) = want_arr(mod(i, m) + 1) + i + r
    end do
    call expect('array reduction', sum(abs(arr - want_arr)), 0_8)

    ! single with copyprivate of a scalar and of an array, then barriers
    !$omp parallel private(one, bcast)
    !$omp single
    one = 1000 + r
    bcast = [(int(i, 8) * r, i = 1, m)]
    !$omp end single copyprivate(one, bcast)
    call expect('copyprivate scalar', one, int(1000 + r, 8))
    call expect('copyprivate array', sum(bcast), int(m, 8) * (m + 1) / 2 * r)
    !$omp barrier
    !$omp barrier
    !$omp end parallel

    ! workshare
    !$omp parallel
    !$omp workshare
    ws = r
    ws_total = sum(ws)
    !$omp end workshare
    !$omp end parallel
    call expect('workshare', ws_total, int(n, 8) * r)

    ! nested regions: each outer thread starts a team of 2
    inner_total = 0
    nt = 0
    !$omp parallel reduction(+:inner_total, nt)
    nt = nt + 1
    !$omp parallel num_threads(2) reduction(+:inner_total)
    inner_total = inner_total + 1
    !$omp end parallel
    !$omp end parallel
    ! an inner team has 2 threads where nesting is active, 1 where not
    if (omp_get_max_active_levels() > 1) then
      call expect('nested', inner_total, int(2 * nt, 8))
    else
      call expect('nested', inner_total, int(nt, 8))
    end if

    ! tasks from a single, with a taskwait and the closing barrier.  Each
    ! task counts itself only: flang 19 runs a deferred task here with the
    ! last value of a firstprivate loop variable, on stock as well.
    task_sum = 0
    !$omp parallel shared(task_sum)
    !$omp single
    do i = 1, 16
      !$omp task shared(task_sum)
      !$omp atomic
      task_sum = task_sum + 1
      !$omp end task
    end do
    !$omp taskwait
    call expect('tasks after taskwait', task_sum, 16_8)
    !$omp end single
    !$omp end parallel

    ! threadprivate with copyin
    tp_value = 7 * r
    s = 0
    !$omp parallel copyin(tp_value) reduction(+:s)
    s = s + merge(1, 0, tp_value == 7 * r)
    tp_value = omp_get_thread_num()
    !$omp end parallel
    nt = 0
    !$omp parallel reduction(+:nt)
    nt = nt + 1
    !$omp end parallel
    call expect('copyin', s, int(nt, 8))
  end do

  if (failures /= 0) then
    print '(a, i0, a)', 'fortran checks: ', failures, ' failed'
    stop 1
  end if
  print '(a, i0, a, i0, a)', 'fortran checks: ok (', rounds, ' rounds, ', &
    omp_get_max_threads(), ' threads)'
end program omp_checks

! The Fortran twin of hybrid_step.c: each rank's step runs OpenMP loops with
! a reduction over its cells, a single with copyprivate, exchanges one halo
! cell with each neighbour rank and sums over the ranks with MPI_Allreduce.
! MPI_THREAD_FUNNELED; integer arithmetic, so the checksum is the same on
! every runtime.  Rank 0 prints "checksum <v>" and "elapsed <seconds>" and
! stops with status 1 on a wrong value.
!
!   hybrid_step_f [steps]     (default 200)
program hybrid_step_f
  use mpi
  use omp_lib
  use count_argument_mod
  implicit none
  integer, parameter :: cells = 1024, regions = 4
  integer(8) :: u(0:cells + 1), local, sum_, global, total, expect, mine
  integer(8) :: from_left, from_right
  integer :: steps, s, reg, i, r, ierr, provided, rank, nranks, left, right
  integer :: bad, all_bad
  double precision :: t0, elapsed

  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr)
  if (provided < MPI_THREAD_FUNNELED) then
    print '(a)', 'hybrid_step_f: MPI does not give MPI_THREAD_FUNNELED'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  steps = count_argument('hybrid_step_f', 200, 10000000)
  left = mod(rank + nranks - 1, nranks)
  right = mod(rank + 1, nranks)

  total = 0
  bad = 0
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t0 = MPI_Wtime()
  do s = 1, steps
    local = 0
    do reg = 1, regions
      sum_ = 0
      !$omp parallel do reduction(+:sum_)
      do i = 1, cells
        u(i) = cell(rank, i, s)
        sum_ = sum_ + mod(u(i), 7_8) + reg
      end do
      !$omp end parallel do
      local = local + sum_
    end do
    !$omp parallel private(mine) reduction(+:bad)
    !$omp single
    mine = cell(rank, 1, s)
    !$omp end single copyprivate(mine)
    if (mine /= cell(rank, 1, s)) bad = bad + 1
    !$omp barrier
    !$omp end parallel
    call MPI_Sendrecv(u(1), 1, MPI_INTEGER8, left, 0, from_right, 1, &
                      MPI_INTEGER8, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(u(cells), 1, MPI_INTEGER8, right, 1, from_left, 1, &
                      MPI_INTEGER8, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    if (from_right /= cell(right, 1, s) .or. from_left /= cell(left, cells, s)) &
      bad = bad + 1
    call MPI_Allreduce(local, global, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
    total = total + global
  end do
  elapsed = MPI_Wtime() - t0

  expect = 0
  do s = 1, steps
    do r = 0, nranks - 1
      do reg = 1, regions
        do i = 1, cells
          expect = expect + mod(cell(r, i, s), 7_8) + reg
        end do
      end do
    end do
  end do
  call MPI_Reduce(bad, all_bad, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    print '(a, i0, a, i0, a, i0)', 'ranks ', nranks, ' threads ', &
      omp_get_max_threads(), ' checksum ', total
    print '(a, a)', 'elapsed ', number_text(elapsed)
  end if
  if (rank == 0 .and. (total /= expect .or. all_bad /= 0)) then
    print '(a, i0, a, i0, a, i0)', 'hybrid_step_f: checksum ', total, &
      ', expected ', expect, '; wrong values ', all_bad
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  call MPI_Finalize(ierr)
contains
  pure integer(8) function cell(r, i, s)
    integer, intent(in) :: r, i, s
    cell = int(r + 1, 8) * 1000 + i + s
  end function cell
end program hybrid_step_f

! The Fortran twin of hybrid_step.c: each rank's step takes its parameters
! from rank 0 (MPI_Bcast), runs OpenMP loops with a reduction over its
! cells, a region with a single and copyprivate, tasks and a barrier,
! exchanges one halo cell with each neighbour rank and sums over the ranks
! with MPI_Allreduce.  Integer arithmetic, so the checksum is the same on
! every runtime.  Rank 0 prints "checksum <v>" and "elapsed <seconds>"; a
! wrong value aborts the job.
!
!   hybrid_step_f [steps [multiple]]     (default 200 steps)
!
! MPI_THREAD_FUNNELED, or with "multiple" MPI_THREAD_MULTIPLE, where every
! thread of the region also takes part in an MPI_Allreduce on its own
! duplicated communicator.
program hybrid_step_f
  use mpi
  use omp_lib
  use count_argument_mod
  implicit none
  integer, parameter :: cells = 1024, regions = 4
  integer(8) :: u(0:cells + 1), local, sum_, global, total, expect, mine
  integer(8) :: from_left, from_right, params(4), tasks_done, one, all
  integer :: steps, s, reg, i, k, r, ierr, provided, rank, nranks, left, right
  integer :: bad, all_bad, level, arg_len
  character(16) :: arg
  logical :: multiple
  integer, allocatable :: thread_comm(:)
  double precision :: t0, elapsed

  multiple = .false.
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg, arg_len)
    multiple = arg == 'multiple'
    if (.not. multiple) then
      print '(a)', 'hybrid_step_f: the second argument can only be "multiple"'
      stop 2
    end if
  end if
  level = MPI_THREAD_FUNNELED
  if (multiple) level = MPI_THREAD_MULTIPLE
  call MPI_Init_thread(level, provided, ierr)
  if (provided < level) then
    print '(a)', 'hybrid_step_f: MPI does not give the thread level asked for'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  steps = count_argument('hybrid_step_f', 200, 10000000)
  allocate (thread_comm(0:omp_get_max_threads() - 1))
  if (multiple) then
    do k = 0, size(thread_comm) - 1
      call MPI_Comm_dup(MPI_COMM_WORLD, thread_comm(k), ierr)
    end do
  end if
  left = mod(rank + nranks - 1, nranks)
  right = mod(rank + 1, nranks)

  total = 0
  bad = 0
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t0 = MPI_Wtime()
  do s = 1, steps
    params = 0
    if (rank == 0) params = [(int(s, 8) * k, k = 1, 4)]
    call MPI_Bcast(params, 4, MPI_INTEGER8, 0, MPI_COMM_WORLD, ierr)
    if (any(params /= [(int(s, 8) * k, k = 1, 4)])) bad = bad + 1
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
    tasks_done = 0
    !$omp parallel private(mine, one, all) reduction(+:bad) shared(tasks_done)
    !$omp single
    mine = cell(rank, 1, s)
    !$omp end single copyprivate(mine)
    if (mine /= cell(rank, 1, s)) bad = bad + 1
    !$omp single
    do k = 1, 8
      !$omp task shared(tasks_done)
      !$omp atomic
      tasks_done = tasks_done + 1
      !$omp end task
    end do
    !$omp end single
    if (multiple) then
      one = 1
      call MPI_Allreduce(one, all, 1, MPI_INTEGER8, MPI_SUM, &
                         thread_comm(omp_get_thread_num()), ierr)
      if (all /= nranks) bad = bad + 1
    end if
    !$omp barrier
    !$omp end parallel
    if (tasks_done /= 8) bad = bad + 1
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
  if (multiple) then
    do k = 0, size(thread_comm) - 1
      call MPI_Comm_free(thread_comm(k), ierr)
    end do
  end if
  call MPI_Finalize(ierr)
contains
  pure integer(8) function cell(r, i, s)
    integer, intent(in) :: r, i, s
    cell = int(r + 1, 8) * 1000 + i + s
  end function cell
end program hybrid_step_f

/* Shared by the integration check programs: failures are counted, printed,
   and decide the exit status. */
#ifndef OMPEXT_TEST_CHECKS_H
#define OMPEXT_TEST_CHECKS_H

void check(int ok, const char *what);

/* data_checks.c: every reduction operator on int, long, float and double,
   array sections, a declare reduction, copyprivate of 1 B to 4 MiB, and
   taskwait/taskgroup, and root threads running teams at once. */
void reduction_operators(void);
void copyprivate_sizes(void);
void task_synchronisation(void);
void several_roots(void);

/* atomic_lock_checks.c: the runtime's global atomic lock, through GCC's
   atomics and array reductions and every entry point of the runtime. */
void atomic_lock_exclusion(void);

/* Inside a parallel region, on every thread: counts the thread into
   *arrived, passes a barrier, and returns 1 unless the count then holds the
   whole team (0 on entry, once per region). */
int arrivals_wrong(int *arrived);

#endif

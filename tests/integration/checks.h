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

#endif

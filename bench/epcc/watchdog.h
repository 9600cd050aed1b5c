/* Per-measurement time limit, so that one hanging construct ends the
 * process with a recognisable status instead of blocking it forever. */
#ifndef SYNCBENCH_WATCHDOG_H
#define SYNCBENCH_WATCHDOG_H

/* Exit status of a process whose measurement ran out of time. */
#define WATCHDOG_EXIT_STATUS 4

/* Install the handler; returns 0, or -1 if signals are unavailable. */
int watchdog_install(void);

/* (Re)start the limit: after `seconds` the process prints a note on
 * stderr and exits with WATCHDOG_EXIT_STATUS. 0 disarms it. */
void watchdog_arm(unsigned seconds);

#endif

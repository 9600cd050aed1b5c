/* Per-measurement time limit on top of alarm(2). */
#define _POSIX_C_SOURCE 200809L
#include "watchdog.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static void on_alarm(int signal_number)
{
    static const char note[] = "syncbench: measurement exceeded --measurement-timeout\n";
    (void)signal_number;
    /* Only async-signal-safe calls here; the rows already printed were
     * flushed, so a driver sees which measurement did not finish. */
    if (write(STDERR_FILENO, note, sizeof note - 1) < 0) {
        /* nothing more can be done */
    }
    _exit(WATCHDOG_EXIT_STATUS);
}

int watchdog_install(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_alarm;
    sigemptyset(&action.sa_mask);
    return sigaction(SIGALRM, &action, NULL);
}

void watchdog_arm(unsigned seconds)
{
    alarm(seconds);
}

#include "clock_shims.h"

#include <string.h>
#include <sys/timex.h>
#include <time.h>

const int CClockShims_TIME_ERROR = TIME_ERROR;

int CClockShims_clock_status(int *unsynchronised, long *max_error_us) {
    struct timex status;
    memset(&status, 0, sizeof status);
    int state = adjtimex(&status);
    if (state == -1) return -1;
    *unsynchronised = (status.status & STA_UNSYNC) ? 1 : 0;
    *max_error_us = status.maxerror;
    return state;
}

int CClockShims_set_wall_clock(int64_t seconds) {
    struct timespec now = {.tv_sec = (time_t)seconds, .tv_nsec = 0};
    return clock_settime(CLOCK_REALTIME, &now);
}

#include "clock_shims.h"

#include <string.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <time.h>

const int CClockShims_TIME_ERROR = TIME_ERROR;

int CClockShims_realtime_timer(void) {
    return timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
}

int CClockShims_arm_until(int fd, int64_t seconds, int64_t nanoseconds) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    spec.it_value.tv_sec = (time_t)seconds;
    spec.it_value.tv_nsec = (long)nanoseconds;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

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

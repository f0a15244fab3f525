#ifndef C_CLOCK_SHIMS_H
#define C_CLOCK_SHIMS_H
/* The wall-clock calls Swift's Glibc module does not export: timerfd (sys/timerfd.h) and
 * adjtimex (sys/timex.h). */
#include <stdint.h>

/// Reads the kernel's clock discipline without changing it (`adjtimex` with no modes).
/// Returns the clock state (`TIME_OK`, `TIME_ERROR`…) or -1 with errno set; `*unsynchronised`
/// is 1 when `STA_UNSYNC` is set, `*max_error_us` the maximum error in microseconds.
int CClockShims_clock_status(int *unsynchronised, long *max_error_us);

/// Sets the wall clock to `seconds` since the epoch (`clock_settime(CLOCK_REALTIME)`, as
/// `hwclock --hctosys` does). Returns 0, or -1 with errno set.
int CClockShims_set_wall_clock(int64_t seconds);

/// `TIME_ERROR`: the clock is not synchronised.
extern const int CClockShims_TIME_ERROR;

#endif

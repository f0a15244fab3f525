#ifndef C_LINUX_INTERFACES_H
#define C_LINUX_INTERFACES_H
#include <stdint.h>
/* Linux calls that Swift's Glibc module does not export (they need _GNU_SOURCE). */

/// `pipe2(fds, flags)`: a pipe whose ends get `flags` (`O_CLOEXEC`, `O_NONBLOCK`) atomically,
/// so no other thread's `fork`+`exec` can inherit an end. Returns 0, or -1 with errno set.
int CLinuxInterfaces_pipe2(int fds[2], int flags);

/// glibc's `mallopt`: blocks of `mmap_threshold` bytes or more get mappings of their own (a fixed
/// threshold, which also stops glibc raising it after each free), the heap is trimmed above the
/// same size, and at most `arena_max` arenas. Returns 1 when every setting was taken.
int CLinuxInterfaces_set_malloc_policy(int mmap_threshold, int arena_max);

/// Holds `number` (SIGTERM, SIGHUP, ...) from the start of the process until its real handler is
/// in place: an async-signal-safe handler only notes that it arrived. Returns 0, or -1 with errno.
int CLinuxInterfaces_hold_signal(int number);

/// Whether `number` arrived while held (and forgets that it did): 1 or 0.
int CLinuxInterfaces_take_held_signal(int number);

/// A netlink socket bound to the kernel's uevent multicast group (`NETLINK_KOBJECT_UEVENT`,
/// group 1), non-blocking and close-on-exec (`struct sockaddr_nl` is not in Swift's Glibc).
/// Returns the descriptor, or -1 with errno set.
int CLinuxInterfaces_open_uevent_socket(void);

/// `timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK)`. Returns the fd, or -1 with errno set.
int CLinuxInterfaces_realtime_timer(void);

/// Arms `fd` to expire at the wall-clock moment `seconds`.`nanoseconds` since the epoch, with
/// `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET`: a read then fails with `ECANCELED` as soon
/// as the wall clock is set (`date -s`, an NTP step, a resume). Returns 0, or -1 with errno set.
int CLinuxInterfaces_arm_realtime_timer(int fd, int64_t seconds, int64_t nanoseconds);

#endif

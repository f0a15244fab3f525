#define _GNU_SOURCE /* pipe2 */
#include "CLinuxInterfaces.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

int CLinuxInterfaces_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

#include <malloc.h>

int CLinuxInterfaces_set_malloc_policy(int mmap_threshold, int arena_max) {
    int ok = mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    ok &= mallopt(M_TRIM_THRESHOLD, mmap_threshold);
    ok &= mallopt(M_ARENA_MAX, arena_max);
    return ok;
}

/* One flag a signal number; written by the handler, read and cleared by the program. */
static volatile sig_atomic_t held_signals[65];

static void note_held_signal(int number) {
    if (number > 0 && number < 65) held_signals[number] = 1;
}

int CLinuxInterfaces_hold_signal(int number) {
    struct sigaction action = {0};
    action.sa_handler = note_held_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(number, &action, NULL);
}

int CLinuxInterfaces_take_held_signal(int number) {
    if (number <= 0 || number >= 65 || !held_signals[number]) return 0;
    held_signals[number] = 0;
    return 1;
}

#include <errno.h>
#include <linux/netlink.h>
#include <string.h>
#include <sys/socket.h>

int CLinuxInterfaces_open_uevent_socket(void) {
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
    if (fd < 0) return -1;
    struct sockaddr_nl addr;
    memset(&addr, 0, sizeof addr);
    addr.nl_family = AF_NETLINK;
    addr.nl_groups = 1; /* the kernel's uevent multicast group */
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

#include <sys/timerfd.h>
#include <time.h>

int CLinuxInterfaces_realtime_timer(void) { return timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK); }

int CLinuxInterfaces_arm_realtime_timer(int fd, int64_t seconds, int64_t nanoseconds) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    spec.it_value.tv_sec = (time_t)seconds;
    spec.it_value.tv_nsec = (long)nanoseconds;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

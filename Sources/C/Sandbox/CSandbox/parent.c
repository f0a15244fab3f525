#define _GNU_SOURCE
#include "CSandbox.h"
#include "small_file.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Sends `length` bytes and the descriptors `fds` (one or two) as one message. */
static int send_with_fds(int socket_fd, const void *bytes, size_t length, const int *fds, size_t count) {
    struct iovec part = {.iov_base = (void *)bytes, .iov_len = length};
    union {
        char buffer[CMSG_SPACE(2 * sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
    message.msg_control = control.buffer;
    message.msg_controllen = CMSG_SPACE(count * sizeof(int));
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(count * sizeof(int));
    memcpy(CMSG_DATA(header), fds, count * sizeof(int));
    ssize_t sent;
    do {
        sent = sendmsg(socket_fd, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent == (ssize_t)length ? 0 : -1;
}

int basandbox_send_request(int socket_fd, const badecode_request *request, int photo_fd, int frame_fd) {
    int fds[2] = {photo_fd, frame_fd};
    return send_with_fds(socket_fd, request, sizeof *request, fds, 2);
}

int basandbox_offer_frame(int socket_fd, int frame_fd) {
    struct stat status;
    if (fstat(frame_fd, &status) != 0) return -1;
    if (status.st_size <= 0) {
        errno = EINVAL;
        return -1;
    }
    badecode_frame_offer offer = {.magic = BADECODE_MAGIC, .version = BADECODE_VERSION,
                                  .frame_bytes = (uint64_t)status.st_size};
    return send_with_fds(socket_fd, &offer, sizeof offer, &frame_fd, 1);
}

long basandbox_receive_reply(int socket_fd, void *buffer, size_t capacity, int timeout_ms) {
    struct pollfd wait_for = {.fd = socket_fd, .events = POLLIN};
    int ready;
    do {
        ready = poll(&wait_for, 1, timeout_ms);
    } while (ready < 0 && errno == EINTR);
    if (ready < 0) return -1;
    if (ready == 0) return -2;
    struct iovec part = {.iov_base = buffer, .iov_len = capacity};
    union {
        char buffer[CMSG_SPACE(sizeof(int) * 4)];
        struct cmsghdr align;
    } control;
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
    message.msg_control = control.buffer;
    message.msg_controllen = sizeof control.buffer;
    ssize_t got;
    do {
        got = recvmsg(socket_fd, &message, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    } while (got < 0 && errno == EINTR);
    for (struct cmsghdr *h = CMSG_FIRSTHDR(&message); h; h = CMSG_NXTHDR(&message, h)) {
        if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(h) + i * sizeof(int), sizeof fd);
            close(fd);
        }
    }
    if (got >= 0 && (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
        errno = EMSGSIZE;
        return -1;
    }
    return got;
}

long basandbox_status_kb(pid_t pid, const char *field) {
    char path[64], text[4096];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    if (basandbox_read_small_file(path, text, sizeof text) < 0) return -1;
    const char *line = strstr(text, field);
    return line ? strtol(line + strlen(field), NULL, 10) : -1;
}

long long basandbox_cpu_ns(pid_t pid) {
    char path[64], text[128];
    snprintf(path, sizeof path, "/proc/%d/schedstat", (int)pid);
    if (basandbox_read_small_file(path, text, sizeof text) < 0) return -1;
    return strtoll(text, NULL, 10);
}

long basandbox_peak_rss_kb(pid_t pid) { return basandbox_status_kb(pid, "VmHWM:"); }

int basandbox_await_ready(int socket_fd, int timeout_ms, badecode_ready *ready, char error[BASANDBOX_ERROR_SIZE]) {
    struct pollfd wait_for = {.fd = socket_fd, .events = POLLIN};
    int polled;
    do {
        polled = poll(&wait_for, 1, timeout_ms);
    } while (polled < 0 && errno == EINTR);
    if (polled == 0) return -2;
    /* A ready message, or the reply of a worker that could not confine itself. */
    badecode_reply reply;
    ssize_t got = polled < 0 ? -1 : recv(socket_fd, &reply, sizeof reply, MSG_DONTWAIT);
    if (got == (ssize_t)sizeof *ready && reply.magic == BADECODE_MAGIC && reply.version == BADECODE_VERSION) {
        memcpy(ready, &reply, sizeof *ready);
        return 0;
    }
    if (got == (ssize_t)sizeof reply && reply.magic == BADECODE_MAGIC && reply.status == BADECODE_STATUS_REFUSED_CALL) {
        reply.message[sizeof reply.message - 1] = 0;
        snprintf(error, BASANDBOX_ERROR_SIZE, "%s", reply.message);
        return -4;
    }
    if (got == (ssize_t)sizeof reply && reply.magic == BADECODE_MAGIC && reply.status != 0) {
        reply.message[sizeof reply.message - 1] = 0;
        snprintf(error, BASANDBOX_ERROR_SIZE, "the decode worker cannot confine itself: %s", reply.message);
        return -3;
    }
    return -1;
}

/* Lowers one limit of `pid` to `value` (soft) and `hard`, never above the hard limit it has. */
static int lower_limit(pid_t pid, int resource, rlim_t value, rlim_t hard) {
    struct rlimit old;
    if (prlimit(pid, resource, NULL, &old) != 0) return -1;
    if (old.rlim_max != RLIM_INFINITY && hard > old.rlim_max) hard = old.rlim_max;
    if (value > hard) value = hard;
    struct rlimit limit = {.rlim_cur = value, .rlim_max = hard};
    return prlimit(pid, resource, &limit, NULL);
}

int basandbox_limit_process(pid_t pid, const basandbox_limits *limits) {
    if (limits->address_space_bytes &&
        lower_limit(pid, RLIMIT_AS, limits->address_space_bytes, limits->address_space_bytes) != 0) {
        return -1;
    }
    if (limits->cpu_seconds && lower_limit(pid, RLIMIT_CPU, limits->cpu_seconds, limits->cpu_seconds + 1) != 0) {
        return -1;
    }
    if (limits->file_bytes && lower_limit(pid, RLIMIT_FSIZE, limits->file_bytes, limits->file_bytes) != 0) return -1;
    return 0;
}

int basandbox_reap(pid_t pid, int kill_first) {
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    int status = 0;
    pid_t done;
    /* A worker that closed its socket is exiting: a second for it to finish, then SIGKILL. */
    for (int tries = 0; !kill_first && tries < 100; tries++) {
        done = wait4(pid, &status, WNOHANG, &usage);
        if (done == pid) return status;
        if (done < 0 && errno != EINTR) return -1;
        struct timespec pause = {.tv_nsec = 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    kill(pid, SIGKILL);
    do {
        done = wait4(pid, &status, 0, &usage);
    } while (done < 0 && errno == EINTR);
    return done == pid ? status : -1;
}

int basandbox_frame_memfd(void) { return memfd_create("babyalbum-frame", MFD_CLOEXEC); }

int basandbox_release_frame(int fd) {
    struct stat status;
    if (fstat(fd, &status) != 0) return -1;
    if (status.st_size == 0) return 0;
    return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, status.st_size);
}

int basandbox_read_frame(int fd, uint64_t bytes, void *pixels, char error[BASANDBOX_ERROR_SIZE]) {
    struct stat status;
    if (fstat(fd, &status) != 0 || (uint64_t)status.st_size != bytes) {
        snprintf(error, BASANDBOX_ERROR_SIZE, "the frame's memfd has the wrong size");
        return -1;
    }
    /* Read, not mapped: the kernel copies the pages straight into `pixels`, with no fault per page. */
    uint64_t done = 0;
    while (done < bytes) {
        ssize_t got = pread(fd, (char *)pixels + done, bytes - done, (off_t)done);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            snprintf(error, BASANDBOX_ERROR_SIZE, "cannot read the frame: %s", got < 0 ? strerror(errno) : "short");
            return -1;
        }
        done += (uint64_t)got;
    }
    return 0;
}

void basandbox_describe_status(int status, char text[BASANDBOX_ERROR_SIZE]) {
    if (status < 0) {
        snprintf(text, BASANDBOX_ERROR_SIZE, "the decode worker vanished");
    } else if (WIFEXITED(status)) {
        snprintf(text, BASANDBOX_ERROR_SIZE, "the decode worker exited with status %d and no answer",
                 WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
        int signal_number = WTERMSIG(status);
        const char *why = "";
        if (signal_number == SIGSYS) why = " (a system call outside its sandbox)";
        if (signal_number == SIGXCPU) why = " (over its CPU time limit)";
        if (signal_number == SIGXFSZ) why = " (it grew the frame's memfd past the frame)";
        if (signal_number == SIGSEGV || signal_number == SIGBUS) why = " (a memory fault)";
        if (signal_number == SIGABRT) why = " (it aborted, often out of memory under its limit)";
        const char *name = sigabbrev_np(signal_number);
        snprintf(text, BASANDBOX_ERROR_SIZE, "the decode worker was killed by SIG%s%s", name ? name : "?", why);
    } else {
        snprintf(text, BASANDBOX_ERROR_SIZE, "the decode worker stopped (status %d)", status);
    }
}

#define _GNU_SOURCE
#include "CSandbox.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

/* si_code of a SIGSYS from seccomp (linux/signal.h's SYS_SECCOMP, which glibc's headers lack). */
#define BASANDBOX_SYS_SECCOMP 1

#define NAMED(call) {SYS_##call, #call}

/* The names of the calls a library might make and the filter refuses (the rest are numbered only). */
static const struct {
    long number;
    const char *name;
} names[] = {
    NAMED(openat), NAMED(openat2), NAMED(socket), NAMED(socketpair), NAMED(connect), NAMED(bind),
    NAMED(listen), NAMED(accept4), NAMED(sendto), NAMED(recvfrom), NAMED(execve), NAMED(execveat),
    NAMED(ptrace), NAMED(kill), NAMED(tkill), NAMED(clone), NAMED(clone3), NAMED(prctl), NAMED(ioctl),
    NAMED(getdents64), NAMED(statx), NAMED(faccessat), NAMED(faccessat2), NAMED(readlinkat), NAMED(mkdirat),
    NAMED(unlinkat), NAMED(renameat2), NAMED(linkat), NAMED(symlinkat), NAMED(fchmod), NAMED(fchown),
    NAMED(getrandom), NAMED(sysinfo), NAMED(uname), NAMED(getuid), NAMED(geteuid), NAMED(getppid),
    NAMED(prlimit64), NAMED(setrlimit), NAMED(getrlimit), NAMED(sched_setaffinity), NAMED(sched_getparam),
    NAMED(sched_getscheduler), NAMED(sched_setscheduler), NAMED(setpriority), NAMED(membarrier),
    NAMED(memfd_create), NAMED(mbind), NAMED(get_mempolicy), NAMED(set_mempolicy), NAMED(pipe2), NAMED(dup3),
    NAMED(eventfd2), NAMED(epoll_create1), NAMED(epoll_ctl), NAMED(epoll_pwait), NAMED(ppoll), NAMED(pselect6),
    NAMED(timerfd_create), NAMED(signalfd4), NAMED(inotify_init1), NAMED(sigaltstack), NAMED(setsockopt),
    NAMED(getsockopt), NAMED(mount), NAMED(umount2), NAMED(unshare), NAMED(setns), NAMED(chdir), NAMED(fchdir),
    NAMED(getcwd), NAMED(mlock), NAMED(munlock), NAMED(msync), NAMED(mincore), NAMED(process_vm_readv),
    NAMED(bpf), NAMED(perf_event_open), NAMED(seccomp), NAMED(io_uring_setup), NAMED(fsync), NAMED(fdatasync),
    NAMED(fallocate), NAMED(sync_file_range), NAMED(readahead), NAMED(fadvise64), NAMED(nanosleep),
    NAMED(clock_getres), NAMED(gettimeofday), NAMED(times), NAMED(wait4), NAMED(waitid), NAMED(exit),
#if defined(__x86_64__)
    NAMED(open), NAMED(creat), NAMED(access), NAMED(readlink), NAMED(stat), NAMED(lstat), NAMED(fork),
    NAMED(vfork), NAMED(getdents), NAMED(arch_prctl), NAMED(poll), NAMED(select), NAMED(pipe), NAMED(dup2),
    NAMED(time), NAMED(alarm), NAMED(pause), NAMED(epoll_wait), NAMED(mkdir), NAMED(unlink), NAMED(rename),
#endif
};

const char *basandbox_syscall_name(long number) {
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (names[i].number == number) return names[i].name;
    }
    return NULL;
}

void basandbox_describe_call(long number, char text[BASANDBOX_ERROR_SIZE]) {
    const char *name = basandbox_syscall_name(number);
    if (name) {
        snprintf(text, BASANDBOX_ERROR_SIZE, "system call %ld (%s)", number, name);
    } else {
        snprintf(text, BASANDBOX_ERROR_SIZE, "system call %ld", number);
    }
}

static int report_fd = -1;
static int report_as_reply;

/*
 * SIGSYS from the filter (SECCOMP_RET_TRAP): names the refused call to whoever reads `report_fd`,
 * then dies by SIGSYS (SA_RESETHAND made the action the default again). Only allowed calls here:
 * sendmsg or write, rt_sigprocmask, getpid, gettid, tgkill.
 */
static void on_refused_call(int signal_number, siginfo_t *info, void *context) {
    (void)context;
    if (info->si_code != BASANDBOX_SYS_SECCOMP) { /* a SIGSYS sent by kill(2): die of it, naming nothing */
        signal(signal_number, SIG_DFL);
        raise(signal_number);
        return;
    }
    char text[BASANDBOX_ERROR_SIZE];
    basandbox_describe_call(info->si_syscall, text);
    if (report_as_reply) {
        badecode_reply reply;
        memset(&reply, 0, sizeof reply);
        reply.magic = BADECODE_MAGIC;
        reply.version = BADECODE_VERSION;
        reply.fixed_size = sizeof reply;
        reply.status = BADECODE_STATUS_REFUSED_CALL;
        snprintf(reply.message, sizeof reply.message, "%s", text);
        struct iovec part = {.iov_base = &reply, .iov_len = sizeof reply};
        struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
        (void)sendmsg(report_fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
    } else {
        char line[BASANDBOX_ERROR_SIZE + 48];
        int length = snprintf(line, sizeof line, "the decode sandbox refused %s\n", text);
        if (length > 0) (void)!write(report_fd, line, (size_t)length);
    }
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signal_number);
    sigprocmask(SIG_UNBLOCK, &only, NULL);
    syscall(SYS_tgkill, getpid(), gettid(), signal_number);
}

int basandbox_report_refusals(int fd, int as_reply) {
    report_fd = fd;
    report_as_reply = as_reply;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_refused_call;
    action.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    return sigaction(SIGSYS, &action, NULL);
}

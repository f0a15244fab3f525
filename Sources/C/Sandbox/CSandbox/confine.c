#define _GNU_SOURCE
#include "CSandbox.h"
#include "small_file.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * The allow-list, measured with strace -f -c on decodes of PNG, JPEG, WebP and HEIC (single and
 * grid images) by the worker, on x86_64 and aarch64 (docs/decode-sandbox.md, "The allow-list, measured on each architecture"). Nothing opens
 * a file, makes a socket or starts a program: socket, connect, execve, ptrace and the rest are off
 * the list and end the worker (SIGSYS, reported first: basandbox_report_refusals).
 */
static const int allowed[] = {
    SYS_read, SYS_pread64, SYS_write, SYS_close, SYS_lseek, SYS_fstat, SYS_newfstatat,
    SYS_mmap, SYS_munmap, SYS_mremap, SYS_mprotect, SYS_brk, SYS_madvise,
    SYS_futex, SYS_set_robust_list, SYS_rseq, SYS_sched_yield, SYS_sched_getaffinity,
    SYS_exit, SYS_exit_group, SYS_rt_sigreturn, SYS_rt_sigprocmask, SYS_rt_sigaction, SYS_getpid, SYS_gettid, SYS_tgkill,
    SYS_clock_gettime, SYS_clock_nanosleep, SYS_ftruncate, SYS_fcntl, SYS_sendmsg, SYS_recvmsg, SYS_dup,
};

/*
 * Calls that look for a file fail with EACCES instead: a library's probe on first use (a CPU
 * feature in /proc/cpuinfo, a configuration file) then takes its fallback, as it would for a file
 * it may not read, and the worker still opens nothing.
 */
static const int refused_with_eacces[] = {
    SYS_openat, SYS_openat2, SYS_faccessat, SYS_faccessat2, SYS_readlinkat,
#if defined(__x86_64__)
    SYS_open, SYS_creat, SYS_access, SYS_readlink,
#endif
};

#if defined(__x86_64__)
#define BASANDBOX_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define BASANDBOX_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "the decode sandbox knows x86_64 and aarch64"
#endif

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))
#define FILTER_MAX 160


/* Builds the filter into `program`; returns the instruction count. */
static unsigned short build_filter(struct sock_filter *program) {
    unsigned short n = 0;
    /* A syscall of another architecture (i386 via int 0x80, 32-bit ARM) is refused outright. */
    program[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, BASANDBOX_AUDIT_ARCH, 1, 0);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
    /* x32 system calls (the same numbers with bit 30 set) are refused. */
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
#endif
    for (size_t i = 0; i < COUNT(allowed); i++) {
        program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)allowed[i], 0, 1);
        program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    }
    for (size_t i = 0; i < COUNT(refused_with_eacces); i++) {
        program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)refused_with_eacces[i], 0, 1);
        program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES);
    }
    /* clone3's flags are behind a pointer the filter cannot read: ENOSYS makes glibc use clone. */
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
    /* prctl only to name a thread (dav1d names its workers). */
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 4);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]));
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_NAME, 0, 1);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
    /* clone only for a thread (CLONE_THREAD): a new process could escape the limits. */
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]));
    program[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
    /*
     * Anything else: SIGSYS to the calling thread, the call not made. The worker's handler
     * (basandbox_report_refusals) names the call to the slideshow, then dies by SIGSYS; a handler
     * that returned would still have made no call. SIGSYS blocked or ignored kills at once.
     */
    program[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
    return n;
}

static int fail(char error[BASANDBOX_ERROR_SIZE], const char *step) {
    snprintf(error, BASANDBOX_ERROR_SIZE, "%s: %s", step, strerror(errno));
    return -1;
}

/* Closes every descriptor except the `count` in `keep` (sorted here). */
static int close_others(const int *keep, int count) {
    int sorted[8];
    if (count < 0 || count > 8) return -1;
    memcpy(sorted, keep, sizeof(int) * (size_t)count);
    for (int i = 1; i < count; i++) {
        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            int swap = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = swap;
        }
    }
    unsigned int from = 0;
    for (int i = 0; i < count; i++) {
        if (sorted[i] < 0 || (unsigned int)sorted[i] < from) continue;
        if ((unsigned int)sorted[i] > from && syscall(SYS_close_range, from, (unsigned int)sorted[i] - 1, 0) != 0) {
            return -1;
        }
        from = (unsigned int)sorted[i] + 1;
    }
    return (int)syscall(SYS_close_range, from, ~0u, 0);
}

/* The process's thread count, from /proc/self/status (0 when unknown). */
static int thread_count(void) {
    char text[4096];
    if (basandbox_read_small_file("/proc/self/status", text, sizeof text) < 0) return 0;
    const char *line = strstr(text, "\nThreads:");
    return line ? atoi(line + 9) : 0;
}

static int set_limit(int resource, rlim_t soft, rlim_t hard) {
    struct rlimit limit = {.rlim_cur = soft, .rlim_max = hard};
    return setrlimit(resource, &limit);
}

int basandbox_confine(const int *keep, int keep_count, const basandbox_limits *limits,
                      char error[BASANDBOX_ERROR_SIZE]) {
    int threads = thread_count();
    if (close_others(keep, keep_count) != 0) return fail(error, "close_range");
    if (set_limit(RLIMIT_CORE, 0, 0) != 0) return fail(error, "setrlimit(RLIMIT_CORE)");
    if (set_limit(RLIMIT_NOFILE, 16, 16) != 0) return fail(error, "setrlimit(RLIMIT_NOFILE)");
    if (limits->address_space_bytes && set_limit(RLIMIT_AS, limits->address_space_bytes, limits->address_space_bytes)) {
        return fail(error, "setrlimit(RLIMIT_AS)");
    }
    if (limits->cpu_seconds && set_limit(RLIMIT_CPU, limits->cpu_seconds, limits->cpu_seconds + 1) != 0) {
        return fail(error, "setrlimit(RLIMIT_CPU)");
    }
    if (limits->file_bytes && set_limit(RLIMIT_FSIZE, limits->file_bytes, limits->file_bytes) != 0) {
        return fail(error, "setrlimit(RLIMIT_FSIZE)");
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return fail(error, "PR_SET_NO_NEW_PRIVS");
    struct sock_filter program[FILTER_MAX];
    struct sock_fprog filter = {.len = build_filter(program), .filter = program};
    /* TSYNC: every thread of the process (a host runtime's too) gets the filter and no_new_privs. */
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &filter) == 0) return 0;
    /*
     * seccomp(2) itself filtered away (systemd's @system-service lacks it): prctl installs the same
     * filter on this thread only, which covers the process only when it has no other thread.
     */
    int seccomp_errno = errno;
    if (threads != 1) {
        errno = seccomp_errno;
        return fail(error, "seccomp (and the process has other threads, so prctl cannot stand in)");
    }
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter, 0, 0) != 0) return fail(error, "prctl(PR_SET_SECCOMP)");
    return 0;
}

uint64_t basandbox_current_address_space(void) {
    char text[128];
    if (basandbox_read_small_file("/proc/self/statm", text, sizeof text) < 0) return 0;
    unsigned long long pages = 0;
    if (sscanf(text, "%llu", &pages) != 1) return 0;
    return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

basandbox_limits basandbox_worker_limits(uint64_t address_space, const badecode_request *request) {
    uint64_t frame = (uint64_t)request->width * request->height * 4;
    return (basandbox_limits){
        .address_space_bytes = address_space + request->budget_bytes + 2 * frame + BADECODE_ADDRESS_SPACE_MARGIN,
        .cpu_seconds = request->cpu_seconds, .file_bytes = frame};
}

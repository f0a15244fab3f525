#ifndef C_SANDBOX_H
#define C_SANDBOX_H
/*
 * BabyAlbum's decode sandbox: the decode worker's confinement (no new privileges, a seccomp-BPF
 * allow-list, resource limits, no inherited descriptors) and the slideshow's side of the worker
 * protocol (spawn, request, reply, reap).
 *
 * Why this is C: posix_spawn file actions, SCM_RIGHTS control messages and BPF programs are
 * C structures that Swift cannot build without unsafe pointer arithmetic in every caller.
 */
#include "decode_worker_protocol.h"
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define BASANDBOX_ERROR_SIZE 256

/** The worker's resource limits. */
typedef struct {
    /** RLIMIT_AS: the address space the worker may map, in bytes (0: unlimited). */
    uint64_t address_space_bytes;
    /** RLIMIT_CPU: seconds of CPU time (SIGXCPU at this, SIGKILL a second later). */
    uint32_t cpu_seconds;
    /** RLIMIT_FSIZE: how large a file it may make (the frame's memfd), bytes (0: unlimited). */
    uint64_t file_bytes;
} basandbox_limits;

/**
 * Confines the calling process for good: closes every descriptor but the `keep_count` (at most
 * 8) in `keep`, sets the limits, PR_SET_NO_NEW_PRIVS and the seccomp allow-list: a call that
 * looks for a file (openat, faccessat, readlinkat) fails with EACCES, so that a library's probe
 * takes its fallback; clone3 fails with ENOSYS so glibc falls back to clone, which is allowed only
 * for threads; any other call off the list is trapped (SIGSYS: `basandbox_report_refusals` names
 * it, and the process dies). Returns 0, or -1 with the reason in `error`.
 */
int basandbox_confine(const int *keep, int keep_count, const basandbox_limits *limits,
                      char error[BASANDBOX_ERROR_SIZE]);

/**
 * A worker's limits for `request`: RLIMIT_AS = `address_space` (its size once started) + the
 * decode budget + two frames + BADECODE_ADDRESS_SPACE_MARGIN; RLIMIT_CPU = the request's seconds;
 * RLIMIT_FSIZE = one frame (the memfd cannot be grown past it).
 */
basandbox_limits basandbox_worker_limits(uint64_t address_space, const badecode_request *request);

/**
 * Sets the live child `pid`'s RLIMIT_AS and RLIMIT_FSIZE (soft = hard) and RLIMIT_CPU (SIGXCPU at
 * the limit, SIGKILL a second later) from outside, with prlimit: only ever lowered below what it
 * inherited.
 * Returns 0, or -1 with errno set.
 */
int basandbox_limit_process(pid_t pid, const basandbox_limits *limits);

/** The process's current address-space size (VmSize) in bytes, from /proc/self/statm, or 0. */
uint64_t basandbox_current_address_space(void);

/**
 * Starts `path` with argv `argv` (NULL-terminated), an empty environment, default signal
 * handling, an empty signal mask and only `socket_fd` open, as descriptor 3. Returns the pid, or
 * -1 with errno set. The process is started from one thread that lives as long as this process
 * (its PR_SET_PDEATHSIG fires when the thread that started it ends, and a dispatch queue's
 * threads come and go).
 */
pid_t basandbox_spawn(const char *path, char *const argv[], int socket_fd);

/** A start handed to that thread (`basandbox_spawn_later`), not yet waited for. */
typedef struct basandbox_spawn_job basandbox_spawn_job;

/**
 * Starts `path` as `basandbox_spawn` does, on that thread, without waiting: the caller goes on
 * while the program is started. `path`, `argv` and `socket_fd` are copied (the caller closes its
 * own). Returns the job, for `basandbox_spawn_wait`, or NULL with errno set.
 */
basandbox_spawn_job *basandbox_spawn_later(const char *path, char *const argv[], int socket_fd);

/** Waits for `job`'s start and frees it. Returns the pid, or -1 with errno set. */
pid_t basandbox_spawn_wait(basandbox_spawn_job *job);

/**
 * Waits up to `timeout_ms` for a worker's first message. Returns 0 with `*ready` filled when it is
 * confined and waits for its photo; -2 on timeout; -3 when it could not confine itself (the reason
 * in `error`); -4 when the sandbox refused a call it made ("system call N (name)" in `error`); -1
 * when it closed the socket (it died: reap it for the cause) or said nonsense.
 */
int basandbox_await_ready(int socket_fd, int timeout_ms, badecode_ready *ready, char error[BASANDBOX_ERROR_SIZE]);

/**
 * Sends `request`, the photo's descriptor and the frame's memfd (`frame_fd`, sized for the frame)
 * over `socket_fd`. Returns 0 or -1 with errno set.
 */
int basandbox_send_request(int socket_fd, const badecode_request *request, int photo_fd, int frame_fd);

/**
 * Offers the frame memfd `frame_fd` to a waiting worker (`badecode_frame_offer`, at the memfd's
 * current size) so that it maps it before its photo comes. Returns 0, or -1 with errno
 * set (nothing sent: the memfd is empty, or the socket is gone).
 */
int basandbox_offer_frame(int socket_fd, int frame_fd);

/**
 * Waits up to `timeout_ms` for the reply. Returns its length (0: the worker closed the socket,
 * it died), -1 with errno set, or -2 on timeout. Descriptors sent with it are closed.
 */
long basandbox_receive_reply(int socket_fd, void *buffer, size_t capacity, int timeout_ms);

/**
 * A memfd for frames, kept by the slideshow and handed to one worker after another: read only
 * once the worker that wrote it is reaped, then released (`basandbox_release_frame`), so that
 * between photos it keeps its size but holds no memory. Returns the descriptor or -1 with errno set.
 */
int basandbox_frame_memfd(void);

/**
 * Frees the frame memfd's pages (`fallocate` with `FALLOC_FL_PUNCH_HOLE`), keeping its size: it
 * then reads as zeros, the cleared frame the next worker needs, and costs no memory while the
 * photo it held is shown. Returns 0, or -1 with errno set (the caller then drops the memfd).
 */
int basandbox_release_frame(int fd);

/**
 * Reaps `pid`: at once after SIGKILL when `kill_first`, else after up to a second for it to exit
 * by itself (then SIGKILL). Returns its wait status, or -1.
 */
int basandbox_reap(pid_t pid, int kill_first);

/** The peak resident memory (VmHWM) of the live process `pid`, KiB, or -1. */
long basandbox_peak_rss_kb(pid_t pid);

/** The CPU time of the live process `pid`'s main thread (/proc/PID/schedstat), ns, or -1. */
long long basandbox_cpu_ns(pid_t pid);

/** A KiB field of the live process `pid`'s /proc/PID/status (`"VmRSS:"`, `"RssAnon:"`), or -1. */
long basandbox_status_kb(pid_t pid, const char *field);

/**
 * Checks that the frame memfd `fd` (its worker reaped) holds exactly `bytes`, and copies it to
 * `pixels`. Returns 0, or -1 with the reason in `error`.
 */
int basandbox_read_frame(int fd, uint64_t bytes, void *pixels, char error[BASANDBOX_ERROR_SIZE]);

/**
 * Makes the worker name a refused system call before it dies: a SIGSYS handler (the filter traps
 * what it refuses) that writes "system call N (name)" to `fd`, as a `badecode_reply` with
 * `BADECODE_STATUS_REFUSED_CALL` when `as_reply` (the worker's socket), else as a line (standard
 * error, for `babyalbum-decoder --trace`), then ends the process by SIGSYS. Returns 0, or -1 with
 * errno set.
 */
int basandbox_report_refusals(int fd, int as_reply);

/** "system call 257 (openat)": the number, and the name where this build knows it. */
void basandbox_describe_call(long number, char text[BASANDBOX_ERROR_SIZE]);

/** The name of system call `number` on this architecture, or NULL when the table lacks it. */
const char *basandbox_syscall_name(long number);

/** A wait status, described in words ("killed by SIGSYS (a system call outside the sandbox)"). */
void basandbox_describe_status(int status, char text[BASANDBOX_ERROR_SIZE]);

#endif

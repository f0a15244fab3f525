#define _GNU_SOURCE
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Workers are started from one thread that lives as long as the process. A worker's
 * PR_SET_PDEATHSIG fires when the *thread* that started it ends: a waiting worker started from a
 * dispatch queue's thread, which ends after a few idle seconds, would be killed before its photo.
 */

static pid_t spawn_now(const char *path, char *const argv[], int socket_fd) {
    /* dup2 onto itself would keep close-on-exec: move the socket out of the way first. */
    int moved = fcntl(socket_fd, F_DUPFD_CLOEXEC, 10);
    if (moved < 0) return -1;
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    posix_spawn_file_actions_adddup2(&actions, moved, 3);
    posix_spawn_file_actions_addclosefrom_np(&actions, 4);
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    char *const environment[] = {NULL};
    pid_t pid = -1;
    int status = posix_spawn(&pid, path, &actions, &attributes, argv, environment);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(moved);
    if (status != 0) {
        errno = status;
        return -1;
    }
    return pid;
}

/* One spawn handed to the keeper thread, in a queue. */
struct basandbox_spawn_job {
    char *path;
    char **argv;
    int socket_fd;
    pid_t pid;
    int error;
    int done;
    struct basandbox_spawn_job *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t posted = PTHREAD_COND_INITIALIZER;
static pthread_cond_t finished = PTHREAD_COND_INITIALIZER;
static basandbox_spawn_job *first, *last;
static pthread_once_t keeper_once = PTHREAD_ONCE_INIT;
static int keeper_running;

static void *keeper(void *unused) {
    (void)unused;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!first) pthread_cond_wait(&posted, &lock);
        basandbox_spawn_job *job = first;
        first = job->next;
        if (!first) last = NULL;
        pthread_mutex_unlock(&lock);
        job->pid = spawn_now(job->path, job->argv, job->socket_fd);
        job->error = errno;
        close(job->socket_fd);
        pthread_mutex_lock(&lock);
        job->done = 1;
        pthread_cond_broadcast(&finished);
    }
    return NULL;
}

/* The keeper thread, with every signal blocked (the process's signals go to its other threads). */
static void start_keeper(void) {
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 64 * 1024);
    pthread_t thread;
    keeper_running = pthread_create(&thread, &attributes, keeper, NULL) == 0;
    pthread_attr_destroy(&attributes);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (keeper_running) pthread_setname_np(thread, "decode-spawner");
}

static void free_job(basandbox_spawn_job *job) {
    for (char **argument = job->argv; argument && *argument; argument++) free(*argument);
    free(job->argv);
    free(job->path);
    free(job);
}

/* A job with its own copies of `path` and `argv`, and of `socket_fd` (closed once spawned). */
static basandbox_spawn_job *make_job(const char *path, char *const argv[], int socket_fd) {
    basandbox_spawn_job *job = calloc(1, sizeof *job);
    size_t count = 0;
    while (argv[count]) count++;
    if (job) job->argv = calloc(count + 1, sizeof(char *));
    if (job) job->path = strdup(path);
    int ok = job && job->argv && job->path;
    for (size_t i = 0; ok && i < count; i++) ok = (job->argv[i] = strdup(argv[i])) != NULL;
    if (ok) ok = (job->socket_fd = fcntl(socket_fd, F_DUPFD_CLOEXEC, 10)) >= 0;
    if (!ok && job) {
        free_job(job);
        errno = ENOMEM;
        return NULL;
    }
    return job;
}

basandbox_spawn_job *basandbox_spawn_later(const char *path, char *const argv[], int socket_fd) {
    pthread_once(&keeper_once, start_keeper);
    basandbox_spawn_job *job = make_job(path, argv, socket_fd);
    if (!job) return NULL;
    if (!keeper_running) {
        job->pid = spawn_now(job->path, job->argv, job->socket_fd);
        job->error = errno;
        close(job->socket_fd);
        job->done = 1;
        return job;
    }
    pthread_mutex_lock(&lock);
    if (last) last->next = job; else first = job;
    last = job;
    pthread_cond_signal(&posted);
    pthread_mutex_unlock(&lock);
    return job;
}

pid_t basandbox_spawn_wait(basandbox_spawn_job *job) {
    pthread_mutex_lock(&lock);
    while (!job->done) pthread_cond_wait(&finished, &lock);
    pthread_mutex_unlock(&lock);
    pid_t pid = job->pid;
    int error = job->error;
    free_job(job);
    errno = error;
    return pid;
}

pid_t basandbox_spawn(const char *path, char *const argv[], int socket_fd) {
    basandbox_spawn_job *job = basandbox_spawn_later(path, argv, socket_fd);
    return job ? basandbox_spawn_wait(job) : -1;
}

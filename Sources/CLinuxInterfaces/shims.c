#define _GNU_SOURCE /* pipe2 */
#include "CLinuxInterfaces.h"

#include <fcntl.h>
#include <unistd.h>

int CLinuxInterfaces_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

#include <malloc.h>

int CLinuxInterfaces_set_malloc_policy(int mmap_threshold, int arena_max) {
    int ok = mallopt(M_MMAP_THRESHOLD, mmap_threshold);
    ok &= mallopt(M_TRIM_THRESHOLD, mmap_threshold);
    ok &= mallopt(M_ARENA_MAX, arena_max);
    return ok;
}

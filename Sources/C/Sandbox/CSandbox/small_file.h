#ifndef BASANDBOX_SMALL_FILE_H
#define BASANDBOX_SMALL_FILE_H
/* Reading a small /proc file (status, schedstat, statm) whole, as one NUL-terminated string. */
#include <fcntl.h>
#include <stddef.h>
#include <unistd.h>

/** Reads `path` into `text` (at most `size` - 1 bytes, NUL-terminated); its length, or -1. */
static inline ssize_t basandbox_read_small_file(const char *path, char *text, size_t size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t got = read(fd, text, size - 1);
    close(fd);
    if (got <= 0) return -1;
    text[got] = 0;
    return got;
}

#endif

#ifndef C_DECODE_WORKER_H
#define C_DECODE_WORKER_H
/*
 * The decode worker: a process that confines itself (CSandbox), waits for one photo and writes
 * its screen-size frame into the slideshow's memfd. Run as `babyalbum-decoder` (descriptor 3 is its
 * socket to the slideshow), a program of its own so that the slideshow links no decoder.
 */

#include "warm_up.h"

/** Serves one request on `socket_fd` and returns the process's exit status. */
int badecode_worker_main(int socket_fd);

/**
 * Decodes the photo at `path` to a `width` x `height` fill frame in the same sandbox as a
 * worker, after opening it (for `strace -f` measurements of the allow-list and for the bench).
 * Returns 0 when the photo decoded.
 */
int badecode_trace(const char *path, unsigned width, unsigned height);

#endif

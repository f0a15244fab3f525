/*
 * babyalbum-decoder: the decode worker's program, started by the slideshow and `babyalbum doctor`
 * for each photo. SwiftPM builds it with every codec; the package builds it once a format family
 * (/usr/libexec/babyalbum/babyalbum-decoder-jpeg, ..., scripts/package), each linking its own
 * codec's library alone. Its second form is for `strace -f` measurements of the sandbox:
 *   babyalbum-decoder              serve one request on descriptor 3
 *   babyalbum-decoder FILE W H     decode FILE to a W x H frame inside the sandbox
 */
#include "CDecodeWorker.h"

#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc == 4) return badecode_trace(argv[1], (unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]));
    return badecode_worker_main(3);
}

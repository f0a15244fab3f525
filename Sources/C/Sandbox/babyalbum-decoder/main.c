/*
 * babyalbum-decoder: the decode worker as a small C program, for comparing its start-up with
 * `babyalbum decode-worker` (scripts/bench) and for `strace -f` measurements of the sandbox:
 *   babyalbum-decoder              serve one request on descriptor 3
 *   babyalbum-decoder FILE W H     decode FILE to a W x H frame inside the sandbox
 */
#include "CDecodeWorker.h"

#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc == 4) return badecode_trace(argv[1], (unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]));
    return badecode_worker_main(3);
}

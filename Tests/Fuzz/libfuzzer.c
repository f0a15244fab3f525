/*
 * A libFuzzer target for longer runs outside the test command:
 *   Tests/Fuzz/run --libfuzzer [libFuzzer options, e.g. -max_total_time=3600]
 * Each input is written to a scratch file and decoded every way (decode_any.c).
 */
#include "decode_any.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/babyalbum-libfuzzer-%d", (int)getpid());
    FILE *file = fopen(path, "wb");
    if (!file) return 0;
    size_t put = fwrite(data, 1, size, file);
    if (fclose(file) != 0 || put != size) return 0;
    decode_any_file(path, data, size);
    return 0;
}

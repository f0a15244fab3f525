#ifndef C_DECODE_WORKER_WARM_UP_H
#define C_DECODE_WORKER_WARM_UP_H

/** Each format's status from the warm-up decode (BAPHOTO_OK, or a BAPHOTO_ERROR_* code). */
typedef struct {
    int jpeg;
    int png;
    int webp;
    int heif;
} badecode_warm_up_result;

/**
 * Runs every decoder's one-time set-up before the sandbox closes: heif_init (trixie's libheif
 * loads its decoder plugins there), then one 16x16 photo of each format, decoded from a memfd
 * (libjpeg-turbo reads /proc/cpuinfo on arm64 at its first decompressor to pick its SIMD
 * routines). Returns 0 when all four decoded; `result` has each format's status (BAPHOTO_OK for a
 * format this program has no codec for).
 */
int badecode_warm_up(badecode_warm_up_result *result);

#endif

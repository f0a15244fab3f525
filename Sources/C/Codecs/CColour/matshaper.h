#ifndef BACOLOUR_MATSHAPER_H
#define BACOLOUR_MATSHAPER_H
/*
 * The fast path for the common profiles (Display P3, Adobe RGB, ...): an RGB matrix-shaper
 * (colorants and tone curves, no LUTs) converted to sRGB with integer tables and a 3x3 matrix,
 * about ten times quicker than lcms2's general 8-bit path. The same result as lcms2's own
 * matrix-shaper maths (perceptual falls back to relative colorimetric for matrix-shapers, and
 * black-point compensation is a no-op when the curves start at 0), rounded to within a step.
 */
#include <lcms2.h>

#include <stddef.h>
#include <stdint.h>

#define BACOLOUR_LINEAR_ONE 16384
/** Frames of at least this many pixels are converted in bands on up to BACOLOUR_MAX_THREADS threads. */
#define BACOLOUR_THREAD_MIN_PIXELS (512u * 1024u)
#define BACOLOUR_MAX_THREADS 4
/** The stack of the conversion's threads: small, so they fit within the decode worker's RLIMIT_AS. */
#define BACOLOUR_THREAD_STACK_BYTES (64 * 1024)

typedef struct {
    /**
     * What each input channel's 8-bit value adds to each sRGB channel in linear light, Q28 (the
     * Q14 matrix times the Q14 linear value); red's also carries the rounding and the offset of
     * `encode`.
     */
    int32_t contribution[3][256][4];
    /**
     * Linear light, Q14, offset by one (-1 to 2), to sRGB's 8-bit value: the clamp to 0 to 1
     * is in the table, so the loop has no branch.
     */
    uint8_t encode[3 * BACOLOUR_LINEAR_ONE + 1];
} bacolour_matshaper;

/** The fast path's tables for `profile` to `srgb`, or NULL when the profile is not a plain matrix-shaper. */
bacolour_matshaper *bacolour_matshaper_make(cmsHPROFILE profile, cmsHPROFILE srgb);

/** Converts rows of 0x00RRGGBB pixels in place (a large frame in bands, one per usable CPU up to four; the pad byte untouched). */
void bacolour_matshaper_apply(const bacolour_matshaper *m, uint32_t *pixels, uint32_t width, uint32_t height,
                              uint32_t stride);

/**
 * How many CPUs may run this process's threads, at most `most` (sched_getaffinity: the decode
 * worker's filter allows it, where sysconf would open /sys).
 */
int bacolour_usable_cpus(int most);

/** The same on this thread alone: rows already in cache, such as a scaler's finished row. */
void bacolour_matshaper_apply_rows(const bacolour_matshaper *m, uint32_t *pixels, uint32_t width, uint32_t height,
                                   uint32_t stride);

#endif

#ifndef C_COLOUR_FIXTURES_H
#define C_COLOUR_FIXTURES_H
/* ICC profiles for the colour tests, made with lcms2 from their published primaries. */
#include <stddef.h>
#include <stdint.h>

typedef enum {
    /** Display P3: DCI-P3 primaries, D65, the sRGB tone curve. */
    BACOLOUR_FIXTURE_DISPLAY_P3 = 0,
    /** Adobe RGB (1998): its primaries, D65, gamma 563/256. */
    BACOLOUR_FIXTURE_ADOBE_RGB = 1,
    /** lcms2's built-in sRGB. */
    BACOLOUR_FIXTURE_SRGB = 2,
    /** Gray, D65, gamma 1.8 (converted by lcms2 itself, not the matrix-shaper fast path). */
    BACOLOUR_FIXTURE_GRAY_18 = 3,
} bacolour_fixture;

/** Writes the profile into `buffer`; returns its length (0 when it does not fit). */
size_t bacolour_fixture_profile(bacolour_fixture kind, uint8_t *buffer, size_t capacity);

struct bacolour_rows;

/**
 * Converts a frame's rows one by one through a follower (`bacolour_follower_*`), as a decoder
 * does, while this thread may run on one CPU only when `one_cpu` (the follower then converts on
 * this thread, with no second one); the thread's CPUs are restored after. Returns 0, or -1 when
 * the follower or the CPU mask cannot be had.
 */
int bacolour_fixture_follow(const struct bacolour_rows *rows, uint32_t *pixels, uint32_t width, uint32_t height,
                            int one_cpu);

#endif

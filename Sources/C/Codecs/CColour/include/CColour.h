#ifndef C_COLOUR_H
#define C_COLOUR_H
/*
 * BabyAlbum's colour management: a photo's embedded ICC profile converted to sRGB with lcms2.
 *
 * The transform is applied to the screen-size frame after scaling (2 MP, not the photo's 12), or
 * to its rows as a decoder's scaler finishes them (`bacolour_rows`, `bacolour_follower`), in
 * place, to uint32_t 0x00RRGGBB pixels (lcms2's TYPE_BGRA_8 on little-endian), with perceptual
 * intent and black-point compensation. Transforms are cached by the profile's checksum (a few
 * entries). Untagged and sRGB-tagged photos are left untouched (bit-identical); a broken profile
 * is ignored with a one-line reason and the photo is shown as sRGB.
 */
#include <stddef.h>
#include <stdint.h>

/** Profiles larger than this are ignored. */
#define BACOLOUR_MAX_PROFILE_BYTES (4u << 20)
#define BACOLOUR_NAME_SIZE 64
#define BACOLOUR_REASON_SIZE 160

/** What was done to the frame. */
typedef enum {
    /** No profile: the frame is untouched. */
    BACOLOUR_UNTAGGED = 0,
    /** The profile is sRGB: the frame is untouched. */
    BACOLOUR_SRGB = 1,
    /** The frame was converted from the profile to sRGB. */
    BACOLOUR_CONVERTED = 2,
    /** The profile is broken or unusable (`reason` says why): the frame is untouched. */
    BACOLOUR_IGNORED = 3,
} bacolour_result;

/** The outcome of one conversion: the profile's description and, when ignored, why. */
typedef struct {
    bacolour_result result;
    /** The profile's description (ASCII, may be empty); empty when untagged. */
    char name[BACOLOUR_NAME_SIZE];
    /** Why the profile was ignored (BACOLOUR_IGNORED only). */
    char reason[BACOLOUR_REASON_SIZE];
} bacolour_outcome;

/**
 * Does, before a sandbox is entered, what lcms2 would otherwise do on first use with system calls
 * outside the decode worker's allow-list: reading the time zone (lcms2 stamps the profiles it
 * makes, such as sRGB and black-point detection's Lab, with the time) and making sRGB.
 */
void bacolour_prepare(void);

/**
 * Converts `width * height` pixels (rows of `stride` pixels) in place from the ICC profile
 * `icc` (`length` bytes; NULL or 0 for none) to sRGB. Never fails: a profile that cannot be used
 * leaves the pixels untouched. Thread-safe (the cache is locked).
 */
bacolour_outcome bacolour_to_srgb(const uint8_t *icc, size_t length, uint32_t *pixels, uint32_t width,
                                  uint32_t height, uint32_t stride);

/**
 * Converts pixels in place, as `bacolour_to_srgb` does, from an nclx colour description (a HEIF
 * `colr` box of type nclx): ISO/IEC 23091-2 colour `primaries` and `transfer` characteristics,
 * made into an RGB ICC profile with lcms2 (described as "Display P3 (nclx)" and the like) and
 * kept. BT.709 primaries with the sRGB or a BT.709-family transfer are sRGB ("sRGB (nclx)"), and
 * unspecified ones untagged: the pixels are untouched. HDR's PQ (16) and HLG (18) are tone-mapped
 * to SDR in the profile's curve (nclx.c: SDR white at 203 nits, highlights rolled off above 0.75 of
 * it; "BT.2020, PQ (nclx)"). Primaries other than BT.709, BT.601, BT.2020, Display P3 and EBU 3213,
 * and transfers other than those, gamma 2.2 and 2.8 and linear, are ignored with a reason.
 */
bacolour_outcome bacolour_nclx_to_srgb(uint16_t primaries, uint16_t transfer, uint32_t *pixels, uint32_t width,
                                       uint32_t height, uint32_t stride);

/** Chromaticities (x, y) and a tone curve: a PNG's cHRM and gAMA chunks. */
typedef struct {
    double white_x, white_y, red_x, red_y, green_x, green_y, blue_x, blue_y;
    /** gAMA's value, the encoding exponent (0.45455 for 1/2.2); 0 for the sRGB tone curve. */
    double gamma;
} bacolour_chromaticities;

/** sRGB's chromaticities (BT.709 primaries, D65 white) and tone curve. */
extern const bacolour_chromaticities bacolour_srgb_chromaticities;

/**
 * Whether `c` is sRGB within libpng's own tolerances (each x and y within 0.001, the gamma within
 * 5% of 1/2.2 or the sRGB curve): such a photo is shown untouched, as today.
 */
int bacolour_chromaticities_are_srgb(const bacolour_chromaticities *c);

/**
 * Makes an ICC profile (a matrix-shaper, D50-adapted with Bradford as lcms2 does) from `c`,
 * described as `description`, into a new buffer `*profile` (free it); returns its length, or 0
 * (and `*profile` NULL) when lcms2 cannot make one (degenerate chromaticities).
 */
size_t bacolour_profile_from_chromaticities(const bacolour_chromaticities *c, const char *description,
                                            uint8_t **profile);

/** A CMYK profile's transform to sRGB, for rows (see `bacolour_cmyk_open`). */
typedef struct bacolour_cmyk bacolour_cmyk;

/**
 * Opens the transform from the CMYK profile `icc` to sRGB for 8-bit CMYK samples, `inverted` for
 * Adobe's (APP14) files, which store 255 minus the ink. Returns NULL when there is no profile, or
 * (with `outcome` saying why) when it is not a usable CMYK profile: the caller keeps its own
 * conversion. Cached like the RGB transforms; close it with `bacolour_cmyk_close`.
 */
bacolour_cmyk *bacolour_cmyk_open(const uint8_t *icc, size_t length, int inverted, bacolour_outcome *outcome);

/** Converts `width` CMYK pixels to RGB (3 bytes each, sRGB). Thread-safe. */
void bacolour_cmyk_row(const bacolour_cmyk *transform, const uint8_t *cmyk, uint8_t *rgb, uint32_t width);

/** Releases the transform (NULL is fine). */
void bacolour_cmyk_close(bacolour_cmyk *transform);

/** An RGB or gray profile's transform to sRGB, for a frame's rows (see `bacolour_rows_open`). */
typedef struct bacolour_rows bacolour_rows;

/**
 * Opens, before decoding, the conversion `bacolour_to_srgb` would apply to the finished frame, so
 * a decoder can convert each screen-size row as its scaler finishes it, while the row is still in
 * cache. `outcome` is what `bacolour_to_srgb` would return. Returns NULL when the pixels stay as
 * they are (no profile, sRGB, or ignored with a reason). Close it with `bacolour_rows_close`.
 */
bacolour_rows *bacolour_rows_open(const uint8_t *icc, size_t length, bacolour_outcome *outcome);

/** Converts `width` 0x00RRGGBB pixels in place, with the same result as `bacolour_to_srgb`. Thread-safe. */
void bacolour_rows_convert(const bacolour_rows *rows, uint32_t *pixels, uint32_t width);

/** Releases the conversion (NULL is fine). */
void bacolour_rows_close(bacolour_rows *rows);

/**
 * Converts a frame's rows on a second thread while the decoder still decodes: the decoder's
 * scaler finishes screen-size rows top to bottom, and this thread converts them a batch behind,
 * so the conversion's time is hidden behind the decode where a second CPU is free (a Pi has four).
 * Without a second CPU or thread, each row is converted on the decoder's thread as it finishes.
 */
typedef struct bacolour_follower bacolour_follower;

/**
 * Starts following rows of `width` pixels, the first at `first` and each `stride` pixels after
 * the one before, converted with `rows` (which must stay open until the follower finishes).
 * NULL when out of memory.
 */
bacolour_follower *bacolour_follower_start(const bacolour_rows *rows, uint32_t *first, uint32_t width,
                                           uint32_t stride);

/** The decoder has finished the next row (the first, then the one after the last). */
void bacolour_follower_row_done(bacolour_follower *follower);

/** Waits until every finished row is converted, then frees the follower (NULL is fine). */
void bacolour_follower_finish(bacolour_follower *follower);

#endif

#ifndef C_COLOUR_H
#define C_COLOUR_H
/*
 * BabyAlbum's colour management: a photo's embedded ICC profile converted to sRGB with lcms2.
 *
 * The transform is applied to the screen-size frame after scaling (2 MP, not the photo's 12), in
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
 * unspecified ones untagged: the pixels are untouched. Primaries other than BT.709, BT.601,
 * BT.2020, Display P3 and EBU 3213, and transfers other than those, gamma 2.2 and 2.8 and linear
 * (HDR's PQ and HLG), are ignored with a reason.
 */
bacolour_outcome bacolour_nclx_to_srgb(uint16_t primaries, uint16_t transfer, uint32_t *pixels, uint32_t width,
                                       uint32_t height, uint32_t stride);

#endif

#ifndef C_COLOUR_ICC_STRUCTURE_H
#define C_COLOUR_ICC_STRUCTURE_H
/*
 * What an ICC profile's tag structure says a transform made from it will cost, read before lcms2
 * sees the profile (icc_structure.c): a bounded walk of the tag table, every offset and length
 * checked against the profile.
 */
#include <stddef.h>
#include <stdint.h>

/** The most processing elements one multi-process-element tag (D2Bx, B2Dx) may list. */
#define BACOLOUR_MAX_PROCESS_ELEMENTS 16u
/** The largest CLUT, in grid points (the product over its inputs): 128^3, or 38^4. */
#define BACOLOUR_MAX_CLUT_POINTS (1u << 21)

/**
 * Whether the profile `icc` (`length` bytes) would cost lcms2 more than a photo is worth: a
 * multi-process-element tag with more than BACOLOUR_MAX_PROCESS_ELEMENTS elements, or a CLUT
 * (lut8, lut16, mAB, mBA, or an element's) of more than BACOLOUR_MAX_CLUT_POINTS grid points.
 * Returns 0 when it would not (or when the profile is too damaged to say: lcms2 refuses it), else 1
 * with `reason` (`size` bytes) saying why.
 */
int bacolour_icc_too_costly(const uint8_t *icc, size_t length, char *reason, size_t size);

#endif

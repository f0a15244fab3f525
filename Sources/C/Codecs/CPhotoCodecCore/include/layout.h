#ifndef BAPHOTO_LAYOUT_H
#define BAPHOTO_LAYOUT_H
/*
 * Where a photo goes on the frame, and how it is turned upright, for every codec (PNG, JPEG,
 * WebP): fill crops centred, fit adds black bars; the EXIF orientation is applied before
 * scaling, by scaling onto a canvas in the photo's stored orientation and turning that.
 */
#include <stdint.h>

/** The source crop and the destination rectangle of a photo on a canvas. */
typedef struct {
    uint32_t src_x, src_y, src_w, src_h;
    uint32_t dst_x, dst_y, dst_w, dst_h;
} baphoto_placement;

/** Places a `sw` x `sh` photo on a `dw` x `dh` canvas: `fill` non-zero crops, zero fits. */
baphoto_placement baphoto_place(uint32_t sw, uint32_t sh, uint32_t dw, uint32_t dh, int fill);

/**
 * Turns `stored` (the photo scaled as stored, tw x th) upright into `dst` (dw x dh): each
 * upright pixel (x, y) comes from the stored pixel the EXIF orientation (1 to 8) names.
 */
void baphoto_apply_orientation(const uint32_t *stored, uint32_t tw, uint32_t th, uint32_t *dst, uint32_t dw,
                             uint32_t dh, int orientation);

/** The Orientation tag (1 to 8) of a TIFF-structured EXIF payload ("II*\0" or "MM\0*"), or 1. */
int baphoto_exif_orientation(const uint8_t *tiff, uint32_t length);

#endif

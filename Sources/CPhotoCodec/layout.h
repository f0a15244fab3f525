#ifndef BAPHOTO_LAYOUT_H
#define BAPHOTO_LAYOUT_H
/*
 * Where a photo goes on the frame, and how it is turned upright: the same rules as the PNG
 * codec (fill crops centred, fit adds black bars; EXIF orientation applied before scaling).
 */
#include "CPhotoCodec.h"

#include <stdint.h>

/** The source crop and the destination rectangle of a photo on a canvas. */
typedef struct {
    uint32_t src_x, src_y, src_w, src_h;
    uint32_t dst_x, dst_y, dst_w, dst_h;
} baphoto_placement;

/** Places a `sw` x `sh` photo on a `dw` x `dh` canvas. */
baphoto_placement baphoto_place(uint32_t sw, uint32_t sh, uint32_t dw, uint32_t dh, baphoto_scale_mode scale);

/**
 * The canvas the scaler draws on: the target itself when the photo is upright, otherwise a
 * buffer in the photo's stored orientation (width and height swapped for orientations 5 to 8)
 * that `baphoto_canvas_finish` turns upright into the target.
 */
typedef struct {
    uint32_t *pixels;
    uint32_t width, height;
    int orientation;
    uint32_t *owned;
} baphoto_canvas;

/** Prepares the canvas for `target`; returns 0 or -1 when out of memory. */
int baphoto_canvas_init(baphoto_canvas *canvas, const baphoto_target *target, int orientation);

/** Turns the canvas upright into the target (when needed). */
void baphoto_canvas_finish(const baphoto_canvas *canvas, const baphoto_target *target);

/** Frees the canvas's own buffer. */
void baphoto_canvas_free(baphoto_canvas *canvas);

/** The Orientation tag (1 to 8) of a TIFF-structured EXIF payload ("II*\0" or "MM\0*"), or 1. */
int baphoto_exif_orientation(const uint8_t *tiff, uint32_t length);

/** Whether the photo has more pixels than `limits` allow; if so, writes the reason. */
int baphoto_over_pixel_limit(const baphoto_header *header, const baphoto_limits *limits,
                             char reason[BAPHOTO_ERROR_MESSAGE_SIZE]);

/** Formats a byte count as megabytes for reasons ("96 MB"). */
double baphoto_megabytes(uint64_t bytes);

#endif

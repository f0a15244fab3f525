#ifndef BAPHOTO_PHOTO_LAYOUT_H
#define BAPHOTO_PHOTO_LAYOUT_H
/*
 * The JPEG, WebP and HEIF codecs' canvas and limits, over the shared layout (layout.h:
 * placement and orientation, the same for every codec).
 */
#include "CPhotoCodecCore.h"
#include "layout.h"

#include <stdint.h>

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

/** Whether the photo has more pixels than `limits` allow; if so, writes the reason. */
int baphoto_over_pixel_limit(const baphoto_header *header, const baphoto_limits *limits,
                             char reason[BAPHOTO_ERROR_MESSAGE_SIZE]);

/** Formats a byte count as megabytes for reasons ("96 MB"). */
double baphoto_megabytes(uint64_t bytes);

#endif

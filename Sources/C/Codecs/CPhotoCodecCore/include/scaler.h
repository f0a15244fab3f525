#ifndef BAPHOTO_SCALER_H
#define BAPHOTO_SCALER_H
/*
 * A row-streaming resampler: source rows (premultiplied RGB, 3 bytes a pixel) go in top to
 * bottom, destination rows come out as soon as they are complete. Downscaling averages every
 * source pixel a destination pixel covers (box/area filter); upscaling is bilinear. Both the
 * streaming and the whole-image decoder feed it, so their frames are identical.
 */
#include <stdint.h>

/* First source index covered by destination index i when n source cells map onto m (n >= m). */
static inline uint32_t baphoto_box_start(uint32_t i, uint32_t n, uint32_t m) {
    return (uint32_t)(((uint64_t)i * n) / m);
}

/* Bilinear sample position: source index and weight (0..256) of the following index. */
static inline void baphoto_bilinear_position(uint32_t i, uint32_t n, uint32_t m, uint32_t *index, uint32_t *weight) {
    /* centre of destination cell i in source coordinates, in 1/256 units: ((i + 0.5) * n / m - 0.5) */
    int64_t pos = ((int64_t)(2 * i + 1) * n * 256) / (2 * (int64_t)m) - 128;
    if (pos < 0) pos = 0;
    int64_t max = (int64_t)(n - 1) * 256;
    if (pos > max) pos = max;
    *index = (uint32_t)(pos >> 8);
    *weight = (uint32_t)(pos & 255);
}

typedef struct {
    /* Source crop: columns [src_x, src_x + src_w), rows [0, src_h) of what is pushed. */
    uint32_t src_x, src_w, src_h;
    /* Destination rectangle inside a dst_stride-wide frame. */
    uint32_t dst_x, dst_y, dst_w, dst_h;
    uint32_t *dst;
    uint32_t dst_stride;

    /* Horizontal stage: per destination column, first/last source column and weight. */
    uint32_t *col_start, *col_end; /* box: [start, end) */
    uint32_t *col_weight;          /* bilinear: weight of col_end (0..256); box: 2^24 / count */
    int horizontal_box;

    /* Vertical stage. */
    int vertical_box;
    uint64_t *sums;     /* box: per destination column and channel */
    uint32_t *rows[2];  /* bilinear: the two most recent horizontally resampled rows */
    uint32_t *hrow;     /* the current horizontally resampled row (fixed point, x256) */
    uint32_t next_dst_row;
    uint32_t rows_in_sum;
    uint32_t pushed;

    /* Optional: called with each destination row as soon as it is written (dst_w pixels), while
     * it is still in cache, e.g. to convert its colour. Set after baphoto_scaler_init. */
    void (*row_done)(void *context, uint32_t *row, uint32_t width);
    void *row_context;
} baphoto_scaler;

/** Prepares the scaler; returns 0 or -1 when out of memory. */
int baphoto_scaler_init(baphoto_scaler *s, uint32_t src_x, uint32_t src_w, uint32_t src_h, uint32_t *dst,
                      uint32_t dst_stride, uint32_t dst_x, uint32_t dst_y, uint32_t dst_w, uint32_t dst_h);

/** Feeds the next source row (RGB, 3 bytes a pixel, full source width). */
void baphoto_scaler_push(baphoto_scaler *s, const uint8_t *rgb_row);

/** Frees the scaler's buffers. */
void baphoto_scaler_free(baphoto_scaler *s);

#endif

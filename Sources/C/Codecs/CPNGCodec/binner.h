#ifndef BAPNG_BINNER_H
#define BAPNG_BINNER_H
/*
 * An order-free resampler for pixels that arrive out of row order (Adam7 passes): every source
 * pixel is added, with its weight, straight into the destination pixels it contributes to. The
 * weights are the scaler's (an area average when shrinking, bilinear when enlarging), so the frame
 * matches the streaming scaler's within one level of rounding, and memory is one 32-bit sum per
 * destination channel whatever the photo's size.
 */
#include <stdint.h>

/* One axis: for each source index of the crop, the destination indices it feeds and their weights. */
typedef struct {
    uint32_t *first_tap; /* source index s feeds taps [first_tap[s], first_tap[s + 1]) */
    uint32_t *tap_target;
    uint32_t *tap_weight;
    uint32_t *norm; /* per destination index: the sum of its weights (box: the cell count; bilinear: 256) */
    uint32_t largest_norm;
} bapng_axis;

typedef struct {
    uint32_t src_x, src_y, src_w, src_h;
    uint32_t dst_x, dst_y, dst_w, dst_h;
    uint32_t *dst;
    uint32_t dst_stride;
    bapng_axis columns, rows;
    uint32_t *sums; /* dst_w * dst_h * 3 */
} bapng_binner;

enum { BAPNG_BINNER_NO_MEMORY = -1, BAPNG_BINNER_OVERFLOW = -2 };

/**
 * Prepares the binner for the source crop [src_x, src_x + src_w) x [src_y, src_y + src_h) and
 * the destination rectangle. Returns 0, BAPNG_BINNER_NO_MEMORY, or BAPNG_BINNER_OVERFLOW when a
 * destination pixel would cover so many source pixels that its sum could overflow 32 bits.
 */
int bapng_binner_init(bapng_binner *b, uint32_t src_x, uint32_t src_y, uint32_t src_w, uint32_t src_h, uint32_t *dst,
                      uint32_t dst_stride, uint32_t dst_x, uint32_t dst_y, uint32_t dst_w, uint32_t dst_h);

/**
 * Adds `count` pixels of source row `y` (premultiplied RGB, 3 bytes a pixel): pixel k is at
 * column `x0 + k * step`.
 */
void bapng_binner_add(bapng_binner *b, uint32_t y, const uint8_t *rgb, uint32_t count, uint32_t x0, uint32_t step);

/** Writes the averages into the destination (call once, after every pixel was added). */
void bapng_binner_finish(const bapng_binner *b);

/** Frees the binner's buffers. */
void bapng_binner_free(bapng_binner *b);

#endif

#ifndef CFRAMEBLEND_H
#define CFRAMEBLEND_H
/*
 * The crossfade's inner loop, in C so that the compiler vectorises it (SSE2 on x86-64, NEON on
 * the Pi): a linear mix per channel of two frames in ordinary cached memory, written once and
 * in order into the destination, which may be a write-combined dumb buffer that must never be
 * read.
 */
#include <stddef.h>
#include <stdint.h>

/** The weight that gives the second frame exactly. */
#define FRAME_BLEND_WEIGHT_MAX 256

/**
 * Writes `count` XRGB8888 pixels into `out`: each byte is (from * (256 - weight) + to * weight) / 256,
 * rounded down, for `weight` from 0 (`from` exactly) to 256 (`to` exactly). Never brighter than
 * the brighter of the two. Reads `from` and `to` only; writes each byte of `out` once, in order.
 */
void frame_blend_row(uint32_t *restrict out, const uint32_t *restrict from, const uint32_t *restrict to,
                     size_t count, uint32_t weight);

#endif

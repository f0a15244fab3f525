#include "binner.h"
#include "scaler.h"

#include <stdlib.h>
#include <string.h>

static void axis_free(bapng_axis *axis) {
    free(axis->first_tap);
    free(axis->tap_target);
    free(axis->tap_weight);
    free(axis->norm);
    memset(axis, 0, sizeof *axis);
}

/* Adds the tap (source s -> destination d, weight w) in the counting pass (targets NULL) or the filling pass. */
static void axis_tap(bapng_axis *axis, uint32_t *cursor, uint32_t s, uint32_t d, uint32_t w) {
    if (w == 0) return;
    if (!axis->tap_target) {
        axis->first_tap[s + 1]++;
        return;
    }
    uint32_t at = cursor[s]++;
    axis->tap_target[at] = d;
    axis->tap_weight[at] = w;
}

/* Walks every tap of an n -> m axis: the scaler's box cells when shrinking, its bilinear pairs when enlarging. */
static void axis_walk(bapng_axis *axis, uint32_t *cursor, uint32_t n, uint32_t m) {
    for (uint32_t d = 0; d < m; d++) {
        if (n >= m) {
            uint32_t start = baphoto_box_start(d, n, m), end = baphoto_box_start(d + 1, n, m);
            for (uint32_t s = start; s < end; s++) axis_tap(axis, cursor, s, d, 1);
            axis->norm[d] = end - start;
        } else {
            uint32_t index, weight;
            baphoto_bilinear_position(d, n, m, &index, &weight);
            uint32_t following = index + 1 < n ? index + 1 : index;
            if (following == index) {
                axis_tap(axis, cursor, index, d, 256);
            } else {
                axis_tap(axis, cursor, index, d, 256 - weight);
                axis_tap(axis, cursor, following, d, weight);
            }
            axis->norm[d] = 256;
        }
        if (axis->norm[d] > axis->largest_norm) axis->largest_norm = axis->norm[d];
    }
}

/* Builds the taps of an n -> m axis: count, then fill. Returns 0 or -1 when out of memory. */
static int axis_init(bapng_axis *axis, uint32_t n, uint32_t m) {
    memset(axis, 0, sizeof *axis);
    axis->first_tap = calloc((size_t)n + 1, sizeof(uint32_t));
    axis->norm = calloc(m, sizeof(uint32_t));
    uint32_t *cursor = malloc(sizeof(uint32_t) * ((size_t)n + 1));
    if (!axis->first_tap || !axis->norm || !cursor) goto fail;
    axis_walk(axis, cursor, n, m);
    for (uint32_t s = 0; s < n; s++) axis->first_tap[s + 1] += axis->first_tap[s];
    uint32_t taps = axis->first_tap[n];
    axis->tap_target = malloc(sizeof(uint32_t) * (taps ? taps : 1));
    axis->tap_weight = malloc(sizeof(uint32_t) * (taps ? taps : 1));
    if (!axis->tap_target || !axis->tap_weight) goto fail;
    memcpy(cursor, axis->first_tap, sizeof(uint32_t) * ((size_t)n + 1));
    axis->largest_norm = 0;
    axis_walk(axis, cursor, n, m);
    free(cursor);
    return 0;
fail:
    free(cursor);
    axis_free(axis);
    return -1;
}

int bapng_binner_init(bapng_binner *b, uint32_t src_x, uint32_t src_y, uint32_t src_w, uint32_t src_h, uint32_t *dst,
                      uint32_t dst_stride, uint32_t dst_x, uint32_t dst_y, uint32_t dst_w, uint32_t dst_h) {
    memset(b, 0, sizeof *b);
    *b = (bapng_binner){src_x, src_y, src_w, src_h, dst_x, dst_y, dst_w, dst_h, dst, dst_stride, {0}, {0}, NULL};
    if (axis_init(&b->columns, src_w, dst_w) != 0 || axis_init(&b->rows, src_h, dst_h) != 0) {
        bapng_binner_free(b);
        return BAPNG_BINNER_NO_MEMORY;
    }
    if ((uint64_t)255 * b->columns.largest_norm * b->rows.largest_norm > UINT32_MAX) {
        bapng_binner_free(b);
        return BAPNG_BINNER_OVERFLOW;
    }
    b->sums = calloc((size_t)dst_w * dst_h * 3, sizeof(uint32_t));
    if (!b->sums) {
        bapng_binner_free(b);
        return BAPNG_BINNER_NO_MEMORY;
    }
    return 0;
}

void bapng_binner_add(bapng_binner *b, uint32_t y, const uint8_t *rgb, uint32_t count, uint32_t x0, uint32_t step) {
    if (y < b->src_y || y - b->src_y >= b->src_h) return;
    uint32_t row = y - b->src_y;
    const bapng_axis *rows = &b->rows, *columns = &b->columns;
    for (uint32_t k = 0; k < count; k++, rgb += 3) {
        uint64_t x = x0 + (uint64_t)k * step;
        if (x < b->src_x || x - b->src_x >= b->src_w) continue;
        uint32_t column = (uint32_t)(x - b->src_x);
        for (uint32_t v = rows->first_tap[row]; v < rows->first_tap[row + 1]; v++) {
            uint32_t *line = b->sums + (size_t)rows->tap_target[v] * b->dst_w * 3;
            uint32_t wv = rows->tap_weight[v];
            for (uint32_t h = columns->first_tap[column]; h < columns->first_tap[column + 1]; h++) {
                uint32_t *sum = line + (size_t)columns->tap_target[h] * 3;
                uint32_t w = wv * columns->tap_weight[h];
                sum[0] += rgb[0] * w;
                sum[1] += rgb[1] * w;
                sum[2] += rgb[2] * w;
            }
        }
    }
}

void bapng_binner_finish(const bapng_binner *b) {
    for (uint32_t j = 0; j < b->dst_h; j++) {
        uint32_t *out = b->dst + (size_t)(b->dst_y + j) * b->dst_stride + b->dst_x;
        const uint32_t *sum = b->sums + (size_t)j * b->dst_w * 3;
        for (uint32_t i = 0; i < b->dst_w; i++, sum += 3) {
            uint64_t norm = (uint64_t)b->rows.norm[j] * b->columns.norm[i];
            uint64_t r = (sum[0] + norm / 2) / norm, g = (sum[1] + norm / 2) / norm, bl = (sum[2] + norm / 2) / norm;
            out[i] = (uint32_t)(r << 16 | g << 8 | bl);
        }
    }
}

void bapng_binner_free(bapng_binner *b) {
    axis_free(&b->columns);
    axis_free(&b->rows);
    free(b->sums);
    b->sums = NULL;
}

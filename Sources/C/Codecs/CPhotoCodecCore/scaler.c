#include "scaler.h"

#include <stdlib.h>
#include <string.h>

int baphoto_scaler_init(baphoto_scaler *s, uint32_t src_x, uint32_t src_w, uint32_t src_h, uint32_t *dst,
                      uint32_t dst_stride, uint32_t dst_x, uint32_t dst_y, uint32_t dst_w, uint32_t dst_h) {
    memset(s, 0, sizeof *s);
    s->src_x = src_x;
    s->src_w = src_w;
    s->src_h = src_h;
    s->dst = dst;
    s->dst_stride = dst_stride;
    s->dst_x = dst_x;
    s->dst_y = dst_y;
    s->dst_w = dst_w;
    s->dst_h = dst_h;
    s->horizontal_box = src_w >= dst_w;
    s->vertical_box = src_h >= dst_h;
    s->col_start = malloc(sizeof(uint32_t) * dst_w);
    s->col_end = malloc(sizeof(uint32_t) * dst_w);
    s->col_weight = malloc(sizeof(uint32_t) * dst_w);
    s->hrow = malloc(sizeof(uint32_t) * 3 * dst_w);
    if (s->vertical_box) {
        s->sums = calloc((size_t)3 * dst_w, sizeof(uint64_t));
    } else {
        s->rows[0] = malloc(sizeof(uint32_t) * 3 * dst_w);
        s->rows[1] = malloc(sizeof(uint32_t) * 3 * dst_w);
    }
    if (!s->col_start || !s->col_end || !s->col_weight || !s->hrow ||
        (s->vertical_box ? !s->sums : (!s->rows[0] || !s->rows[1]))) {
        baphoto_scaler_free(s);
        return -1;
    }
    for (uint32_t i = 0; i < dst_w; i++) {
        if (s->horizontal_box) {
            s->col_start[i] = baphoto_box_start(i, src_w, dst_w);
            s->col_end[i] = baphoto_box_start(i + 1, src_w, dst_w);
            uint32_t count = s->col_end[i] - s->col_start[i];
            s->col_weight[i] = (uint32_t)(((1u << 24) + count / 2) / count);
        } else {
            uint32_t index, weight;
            baphoto_bilinear_position(i, src_w, dst_w, &index, &weight);
            s->col_start[i] = index;
            s->col_end[i] = index + 1 < src_w ? index + 1 : index;
            s->col_weight[i] = weight;
        }
    }
    return 0;
}

void baphoto_scaler_free(baphoto_scaler *s) {
    free(s->col_start);
    free(s->col_end);
    free(s->col_weight);
    free(s->hrow);
    free(s->sums);
    free(s->rows[0]);
    free(s->rows[1]);
    memset(s, 0, sizeof *s);
}

/* Horizontal stage, bilinear (enlarging): each channel in 1/256 units. */
static void resample_row_bilinear(const baphoto_scaler *s, const uint8_t *row, uint32_t *out) {
    for (uint32_t i = 0; i < s->dst_w; i++) {
        const uint8_t *a = row + (size_t)3 * s->col_start[i], *b = row + (size_t)3 * s->col_end[i];
        uint32_t w = s->col_weight[i];
        for (int c = 0; c < 3; c++) out[3 * i + c] = a[c] * (256 - w) + b[c] * w;
    }
}

/* Horizontal stage: one source row to dst_w pixels, each channel in 1/256 units. */
static void resample_row(const baphoto_scaler *s, const uint8_t *rgb_row, uint32_t *out) {
    const uint8_t *row = rgb_row + (size_t)3 * s->src_x;
    if (!s->horizontal_box) {
        resample_row_bilinear(s, row, out);
        return;
    }
    for (uint32_t i = 0; i < s->dst_w; i++) {
        uint32_t start = s->col_start[i], count = s->col_end[i] - start;
        const uint8_t *p = row + (size_t)3 * start;
        if (count == 1) { /* the same as the general case: (v * 2^24 + 32768) >> 16 == v * 256 */
            out[3 * i + 0] = (uint32_t)p[0] << 8;
            out[3 * i + 1] = (uint32_t)p[1] << 8;
            out[3 * i + 2] = (uint32_t)p[2] << 8;
            continue;
        }
        uint64_t r = 0, g = 0, b = 0;
        for (uint32_t x = 0; x < count; x++, p += 3) {
            r += p[0];
            g += p[1];
            b += p[2];
        }
        /* average x 256, by multiplying with the column's precomputed 2^24 / count */
        uint64_t scale = s->col_weight[i];
        out[3 * i + 0] = (uint32_t)((r * scale + 32768) >> 16);
        out[3 * i + 1] = (uint32_t)((g * scale + 32768) >> 16);
        out[3 * i + 2] = (uint32_t)((b * scale + 32768) >> 16);
    }
}

static uint32_t pack(uint64_t r, uint64_t g, uint64_t b) {
    return (uint32_t)(r << 16 | g << 8 | b);
}

static uint32_t *dst_row(const baphoto_scaler *s, uint32_t j) {
    return s->dst + (size_t)(s->dst_y + j) * s->dst_stride + s->dst_x;
}

/* The destination row is complete: hands it to `row_done` and moves on. */
static void finish_row(baphoto_scaler *s, uint32_t *out) {
    if (s->row_done) s->row_done(s->row_context, out, s->dst_w);
    s->next_dst_row++;
}

void baphoto_scaler_push(baphoto_scaler *s, const uint8_t *rgb_row) {
    uint32_t r = s->pushed++;
    if (r >= s->src_h || s->next_dst_row >= s->dst_h) return;
    if (s->vertical_box) {
        resample_row(s, rgb_row, s->hrow);
        uint32_t j = s->next_dst_row;
        int completes_row = r + 1 == baphoto_box_start(j + 1, s->src_h, s->dst_h);
        if (completes_row && s->rows_in_sum == 0) {
            /* One source row for this destination row: the same as the general case with a sum
             * of one row, since (double)h / 256 + 0.5 truncates to (h + 128) >> 8 exactly. */
            uint32_t *out = dst_row(s, j);
            const uint32_t *h = s->hrow;
            for (uint32_t i = 0; i < s->dst_w; i++, h += 3) {
                out[i] = pack((h[0] + 128) >> 8, (h[1] + 128) >> 8, (h[2] + 128) >> 8);
            }
            finish_row(s, out);
            return;
        }
        for (uint32_t k = 0; k < 3 * s->dst_w; k++) s->sums[k] += s->hrow[k];
        s->rows_in_sum++;
        if (completes_row) {
            /* One division a row, not three a pixel: multiply by the reciprocal. */
            double inverse = 1.0 / ((double)s->rows_in_sum * 256.0);
            uint32_t *out = dst_row(s, j);
            for (uint32_t i = 0; i < s->dst_w; i++) {
                uint64_t *sum = s->sums + 3 * i;
                out[i] = pack((uint64_t)((double)sum[0] * inverse + 0.5), (uint64_t)((double)sum[1] * inverse + 0.5),
                              (uint64_t)((double)sum[2] * inverse + 0.5));
            }
            memset(s->sums, 0, sizeof(uint64_t) * 3 * s->dst_w);
            s->rows_in_sum = 0;
            finish_row(s, out);
        }
        return;
    }
    /* Bilinear: keep the last two resampled rows; emit every destination row they complete. */
    uint32_t *current = s->rows[r & 1];
    resample_row(s, rgb_row, current);
    while (s->next_dst_row < s->dst_h) {
        uint32_t j = s->next_dst_row, index, weight;
        baphoto_bilinear_position(j, s->src_h, s->dst_h, &index, &weight);
        uint32_t following = index + 1 < s->src_h ? index + 1 : index;
        if (following > r) break;
        const uint32_t *a = s->rows[index & 1], *b = s->rows[following & 1];
        uint32_t *out = dst_row(s, j);
        for (uint32_t i = 0; i < s->dst_w; i++) {
            uint64_t c[3];
            for (int k = 0; k < 3; k++) {
                c[k] = ((uint64_t)a[3 * i + k] * (256 - weight) + (uint64_t)b[3 * i + k] * weight + 32768) >> 16;
            }
            out[i] = pack(c[0], c[1], c[2]);
        }
        finish_row(s, out);
    }
}

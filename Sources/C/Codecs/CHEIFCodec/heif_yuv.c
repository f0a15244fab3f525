#include "heif_yuv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* H.273 table 4's Kr and Kb, by MatrixCoefficients; unspecified (2) as BT.601, as libavif takes it. */
static int coefficients(int matrix, int primaries, float *kr, float *kb);

/* Chromaticities of the primaries MatrixCoefficients 12 derives its coefficients from (H.273 table 2). */
static const struct {
    int code;
    double x[4], y[4]; /* red, green, blue, white */
} chromaticities[] = {
    {1, {0.640, 0.300, 0.150, 0.3127}, {0.330, 0.600, 0.060, 0.3290}},
    {5, {0.640, 0.290, 0.150, 0.3127}, {0.330, 0.600, 0.060, 0.3290}},
    {6, {0.630, 0.310, 0.155, 0.3127}, {0.340, 0.595, 0.070, 0.3290}},
    {9, {0.708, 0.170, 0.131, 0.3127}, {0.292, 0.797, 0.046, 0.3290}},
    {12, {0.680, 0.265, 0.150, 0.3127}, {0.320, 0.690, 0.060, 0.3290}},
};

/* Kr and Kb of MatrixCoefficients 12 (H.273 equations 39-40: the luminance of each primary). */
static int derived(int primaries, float *kr, float *kb) {
    if (primaries == 2) primaries = 1;
    for (size_t i = 0; i < sizeof chromaticities / sizeof chromaticities[0]; i++) {
        if (chromaticities[i].code != primaries) continue;
        const double *x = chromaticities[i].x, *y = chromaticities[i].y;
        double z[4];
        for (int c = 0; c < 4; c++) z[c] = 1 - x[c] - y[c];
        double xr = x[0], yr = y[0], zr = z[0], xg = x[1], yg = y[1], zg = z[1], xb = x[2], yb = y[2], zb = z[2];
        double xw = x[3], yw = y[3], zw = z[3];
        double d = xr * (yg * zb - yb * zg) + xg * (yb * zr - yr * zb) + xb * (yr * zg - yg * zr);
        double r = (xw * (yg * zb - yb * zg) + xg * (yb * zw - yw * zb) + xb * (yw * zg - yg * zw)) / d;
        double b = (xr * (yg * zw - yw * zg) + xg * (yw * zr - yr * zw) + xw * (yr * zg - yg * zr)) / d;
        *kr = (float)(yr * r / yw);
        *kb = (float)(yb * b / yw);
        return 0;
    }
    return coefficients(1, 1, kr, kb);
}

static int coefficients(int matrix, int primaries, float *kr, float *kb) {
    switch (matrix) {
    case 1: *kr = 0.2126f, *kb = 0.0722f; return 0;
    case 4: *kr = 0.30f, *kb = 0.11f; return 0;
    case 2:
    case 5:
    case 6: *kr = 0.299f, *kb = 0.114f; return 0;
    case 7: *kr = 0.212f, *kb = 0.087f; return 0;
    case 9: *kr = 0.2627f, *kb = 0.0593f; return 0;
    case 12: return derived(primaries, kr, kb);
    default: return -1;
    }
}

/* A limited-range sample to full range at the same depth (libavif's avifLimitedToFull*: rounded, clamped). */
static int to_full(int v, int bits, int low8, int range8) {
    int max = (1 << bits) - 1, low = low8 << (bits - 8), range = range8 << (bits - 8);
    int value = ((v - low) * max + range / 2) / range;
    if (v < low) value = -(((low - v) * max + range / 2) / range);
    return value < 0 ? 0 : value > max ? max : value;
}

int baheif_yuv_prepare(baheif_yuv *c, int matrix, int primaries, int full) {
    if (c->bits < 8 || c->bits > 16) return -1;
    /* libavif shows an 8-bit monochrome image's samples as they are, whatever its range (libyuv's
     * full-range gray path), and expands deeper ones: so does this. */
    if (c->planes == 1 && c->bits == 8) full = 1;
    c->matrix = matrix;
    float kr = 0.299f, kb = 0.114f;
    if (matrix != 0 && matrix != 8 && coefficients(matrix, primaries, &kr, &kb) != 0) return -1;
    float kg = 1 - kr - kb;
    c->red_cr = 2 * (1 - kr);
    c->blue_cb = 2 * (1 - kb);
    c->green_cb = 2 * kb * (1 - kb) / kg;
    c->green_cr = 2 * kr * (1 - kr) / kg;
    int count = 1 << c->bits;
    float max = (float)(count - 1), bias = (float)(1 << (c->bits - 1));
    for (int p = 0; p < 3; p++) {
        c->table[p] = malloc(sizeof(float) * (size_t)count);
        if (!c->table[p]) return -1;
        /* Matrix 0 (identity) codes G, B and R as luma-like samples; otherwise Cb and Cr centred on 0. */
        int luma = p == 0 || matrix == 0;
        for (int v = 0; v < count; v++) {
            int value = full ? v : luma ? to_full(v, c->bits, 16, 219) : to_full(v, c->bits, 16, 224);
            c->table[p][v] = luma ? (float)value / max : ((float)value - bias) / max;
        }
    }
    if (c->planes == 1) c->shift_x = c->shift_y = 0;
    return 0;
}

int baheif_yuv_set_alpha(baheif_yuv *c, const uint8_t *plane, int stride, int bits, int width, int height, int full) {
    if (bits < 8 || bits > 16 || width <= 0 || height <= 0) return -1;
    int count = 1 << bits, max = count - 1;
    c->alpha_table = malloc((size_t)count);
    if (!c->alpha_table) return -1;
    for (int v = 0; v < count; v++) {
        int value = full ? v : to_full(v, bits, 16, 219);
        c->alpha_table[v] = (uint8_t)((value * 255 + max / 2) / max);
    }
    c->alpha = plane;
    c->alpha_stride = stride;
    c->alpha_bits = bits;
    c->alpha_width = width;
    c->alpha_height = height;
    return 0;
}

int baheif_yuv_set_transforms(baheif_yuv *c, const int32_t *clap, int turns, int mirror) {
    c->left = c->top = 0;
    c->crop_width = c->width;
    c->crop_height = c->height;
    int status = 0;
    if (clap) {
        /* ISO/IEC 14496-12 12.1.4: the aperture's centre is offset from the image's; its corner is
         * (offset + (W - width) / 2), which must be whole and inside the image. */
        int ok = clap[1] > 0 && clap[3] > 0 && clap[5] > 0 && clap[7] > 0 && clap[0] % clap[1] == 0 && clap[2] % clap[3] == 0;
        double width = ok ? (double)(clap[0] / clap[1]) : 0, height = ok ? (double)(clap[2] / clap[3]) : 0;
        double left = ok ? (double)clap[4] / clap[5] + (c->width - width) / 2 : 0;
        double top = ok ? (double)clap[6] / clap[7] + (c->height - height) / 2 : 0;
        if (ok && width >= 1 && height >= 1 && left >= 0 && top >= 0 && left + width <= c->width &&
            top + height <= c->height) {
            c->left = (int)floor(left);
            c->top = (int)floor(top);
            c->crop_width = (int)width;
            c->crop_height = (int)height;
        } else {
            status = -1;
        }
    }
    c->turns = turns & 3;
    c->mirror = mirror;
    c->out_width = c->turns & 1 ? c->crop_height : c->crop_width;
    c->out_height = c->turns & 1 ? c->crop_width : c->crop_height;
    return status;
}

static inline int sample(const uint8_t *row, int wide, int x) {
    return wide ? ((const uint16_t *)(const void *)row)[x] : row[x];
}

static inline uint8_t unorm(float v) { return v <= 0 ? 0 : v >= 1 ? 255 : (uint8_t)(v * 255 + 0.5f); }

void baheif_yuv_row(const baheif_yuv *c, int y, uint8_t *rgb) {
    int wide = c->bits > 8, alpha_wide = c->alpha_bits > 8;
    for (int x = 0; x < c->out_width; x++) {
        /* Shown (x, y) back to the clean aperture: the mirror undone, then the turns. */
        int mx = c->mirror == 1 ? c->out_width - 1 - x : x, my = c->mirror == 0 ? c->out_height - 1 - y : y;
        int cx, cy;
        switch (c->turns) {
        case 1: cx = c->crop_width - 1 - my, cy = mx; break;
        case 2: cx = c->crop_width - 1 - mx, cy = c->crop_height - 1 - my; break;
        case 3: cx = my, cy = c->crop_height - 1 - mx; break;
        default: cx = mx, cy = my; break;
        }
        int sx = cx + c->left, sy = cy + c->top;
        uint32_t a = 255;
        if (c->alpha) {
            int ax = (int)((int64_t)sx * c->alpha_width / c->width);
            int ay = (int)((int64_t)sy * c->alpha_height / c->height);
            a = c->alpha_table[sample(c->alpha + (size_t)ay * (size_t)c->alpha_stride, alpha_wide, ax)];
        }
        if (c->rgb) {
            const uint8_t *p = c->rgb + (size_t)sy * (size_t)c->rgb_stride + 3 * (size_t)sx;
            for (int k = 0; k < 3; k++) rgb[3 * x + k] = (uint8_t)((p[k] * a + 127) / 255);
            continue;
        }
        float luma = c->table[0][sample(c->plane[0] + (size_t)sy * (size_t)c->stride[0], wide, sx)];
        float r = luma, g = luma, b = luma;
        if (c->planes == 3) {
            int ux = sx >> c->shift_x, uy = sy >> c->shift_y;
            float cb = c->table[1][sample(c->plane[1] + (size_t)uy * (size_t)c->stride[1], wide, ux)];
            float cr = c->table[2][sample(c->plane[2] + (size_t)uy * (size_t)c->stride[2], wide, ux)];
            if (c->matrix == 0) { /* identity: the planes are G, B and R */
                b = cb;
                r = cr;
            } else if (c->matrix == 8) { /* YCgCo: Cb holds Cg, Cr holds Co */
                float t = luma - cb;
                g = luma + cb;
                r = t + cr;
                b = t - cr;
            } else {
                r = luma + c->red_cr * cr;
                g = luma - c->green_cb * cb - c->green_cr * cr;
                b = luma + c->blue_cb * cb;
            }
        }
        rgb[3 * x] = (uint8_t)((unorm(r) * a + 127) / 255);
        rgb[3 * x + 1] = (uint8_t)((unorm(g) * a + 127) / 255);
        rgb[3 * x + 2] = (uint8_t)((unorm(b) * a + 127) / 255);
    }
}

void baheif_yuv_free(baheif_yuv *c) {
    for (int p = 0; p < 3; p++) free(c->table[p]);
    free(c->alpha_table);
    memset(c, 0, sizeof *c);
}

#include "matshaper.h"

#include <math.h>
#include <stdlib.h>

static const cmsTagSignature colorant_tags[3] = {cmsSigRedColorantTag, cmsSigGreenColorantTag,
                                                 cmsSigBlueColorantTag};
static const cmsTagSignature curve_tags[3] = {cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};

/* The colorants as the columns of an RGB-to-XYZ matrix (row-major). */
static int colorant_matrix(cmsHPROFILE profile, double m[9]) {
    for (int c = 0; c < 3; c++) {
        const cmsCIEXYZ *xyz = cmsReadTag(profile, colorant_tags[c]);
        if (!xyz) return 0;
        m[c] = xyz->X;
        m[3 + c] = xyz->Y;
        m[6 + c] = xyz->Z;
    }
    return 1;
}

static int invert(const double a[9], double out[9]) {
    double det = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
                 a[2] * (a[3] * a[7] - a[4] * a[6]);
    if (fabs(det) < 1e-9) return 0;
    out[0] = (a[4] * a[8] - a[5] * a[7]) / det;
    out[1] = (a[2] * a[7] - a[1] * a[8]) / det;
    out[2] = (a[1] * a[5] - a[2] * a[4]) / det;
    out[3] = (a[5] * a[6] - a[3] * a[8]) / det;
    out[4] = (a[0] * a[8] - a[2] * a[6]) / det;
    out[5] = (a[2] * a[3] - a[0] * a[5]) / det;
    out[6] = (a[3] * a[7] - a[4] * a[6]) / det;
    out[7] = (a[1] * a[6] - a[0] * a[7]) / det;
    out[8] = (a[0] * a[4] - a[1] * a[3]) / det;
    return 1;
}

/* A plain matrix-shaper: colorants and curves, no LUT lcms2 would prefer, black at 0. */
static int plain_matrix_shaper(cmsHPROFILE profile) {
    if (cmsGetColorSpace(profile) != cmsSigRgbData) return 0;
    if (cmsIsTag(profile, cmsSigAToB0Tag) || cmsIsTag(profile, cmsSigAToB1Tag) || cmsIsTag(profile, cmsSigAToB2Tag) ||
        cmsIsTag(profile, cmsSigDToB0Tag))
        return 0;
    for (int c = 0; c < 3; c++) {
        const cmsToneCurve *curve = cmsReadTag(profile, curve_tags[c]);
        if (!curve || cmsEvalToneCurveFloat(curve, 0) != 0) return 0;
    }
    return 1;
}

static double srgb_encode(double linear) {
    return linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055;
}

bacolour_matshaper *bacolour_matshaper_make(cmsHPROFILE profile, cmsHPROFILE srgb) {
    double from[9], to[9], to_inverse[9];
    if (!plain_matrix_shaper(profile) || !colorant_matrix(profile, from) || !colorant_matrix(srgb, to) ||
        !invert(to, to_inverse))
        return NULL;
    bacolour_matshaper *m = malloc(sizeof *m);
    if (!m) return NULL;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) {
            double sum = 0;
            for (int k = 0; k < 3; k++) sum += to_inverse[r * 3 + k] * from[k * 3 + c];
            m->matrix[r * 3 + c] = (int32_t)lround(sum * BACOLOUR_LINEAR_ONE);
        }
    }
    for (int c = 0; c < 3; c++) {
        const cmsToneCurve *curve = cmsReadTag(profile, curve_tags[c]);
        for (int v = 0; v < 256; v++) {
            double linear = cmsEvalToneCurveFloat(curve, (float)(v / 255.0));
            linear = linear < 0 ? 0 : linear > 1 ? 1 : linear;
            m->linear[c][v] = (uint16_t)lround(linear * BACOLOUR_LINEAR_ONE);
        }
    }
    for (int i = 0; i <= BACOLOUR_LINEAR_ONE; i++)
        m->encode[i] = (uint8_t)lround(srgb_encode((double)i / BACOLOUR_LINEAR_ONE) * 255);
    return m;
}

static inline uint32_t channel(const bacolour_matshaper *m, const int32_t *row, int32_t r, int32_t g, int32_t b) {
    int32_t v = (row[0] * r + row[1] * g + row[2] * b + BACOLOUR_LINEAR_ONE / 2) >> 14;
    v = v < 0 ? 0 : v > BACOLOUR_LINEAR_ONE ? BACOLOUR_LINEAR_ONE : v;
    return m->encode[v];
}

void bacolour_matshaper_apply(const bacolour_matshaper *m, uint32_t *pixels, uint32_t width, uint32_t height,
                              uint32_t stride) {
    for (uint32_t y = 0; y < height; y++) {
        uint32_t *row = pixels + (size_t)y * stride;
        for (uint32_t x = 0; x < width; x++) {
            uint32_t p = row[x];
            int32_t r = m->linear[0][(p >> 16) & 0xff], g = m->linear[1][(p >> 8) & 0xff], b = m->linear[2][p & 0xff];
            row[x] = (p & 0xff000000u) | channel(m, m->matrix, r, g, b) << 16 | channel(m, m->matrix + 3, r, g, b) << 8 |
                     channel(m, m->matrix + 6, r, g, b);
        }
    }
}

#include "matshaper.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Profile RGB to sRGB, linear light: sRGB's colorants inverted times the profile's; 0 when the
 * sums could leave the encode table's range (-1 to 2), which no real profile comes near. */
static int srgb_matrix(cmsHPROFILE profile, cmsHPROFILE srgb, double m[9]) {
    double from[9], to[9], to_inverse[9];
    if (!colorant_matrix(profile, from) || !colorant_matrix(srgb, to) || !invert(to, to_inverse)) return 0;
    for (int r = 0; r < 3; r++) {
        double low = 0, high = 0;
        for (int c = 0; c < 3; c++) {
            double sum = 0;
            for (int k = 0; k < 3; k++) sum += to_inverse[r * 3 + k] * from[k * 3 + c];
            m[r * 3 + c] = sum;
            if (sum < 0) low += sum;
            else high += sum;
        }
        if (low < -0.99 || high > 1.99) return 0;
    }
    return 1;
}

bacolour_matshaper *bacolour_matshaper_make(cmsHPROFILE profile, cmsHPROFILE srgb) {
    double matrix[9];
    if (!plain_matrix_shaper(profile) || !srgb_matrix(profile, srgb, matrix)) return NULL;
    bacolour_matshaper *m = malloc(sizeof *m);
    if (!m) return NULL;
    const int32_t one = BACOLOUR_LINEAR_ONE;
    for (int c = 0; c < 3; c++) {
        const cmsToneCurve *curve = cmsReadTag(profile, curve_tags[c]);
        for (int v = 0; v < 256; v++) {
            double linear = cmsEvalToneCurveFloat(curve, (float)(v / 255.0));
            int32_t q = (int32_t)lround((linear < 0 ? 0 : linear > 1 ? 1 : linear) * one);
            for (int out = 0; out < 3; out++) {
                int32_t weight = (int32_t)lround(matrix[out * 3 + c] * one);
                m->contribution[c][v][out] = weight * q + (c == 0 ? one / 2 + one * one : 0);
            }
            m->contribution[c][v][3] = 0;
        }
    }
    /* Below 0 is black, above 1 white; only 0 to 1 is computed. */
    memset(m->encode, 0, (size_t)one);
    for (int32_t v = 0; v <= one; v++) m->encode[one + v] = (uint8_t)lround(srgb_encode((double)v / one) * 255);
    memset(m->encode + 2 * one + 1, 255, (size_t)one);
    return m;
}

void bacolour_matshaper_apply(const bacolour_matshaper *m, uint32_t *pixels, uint32_t width, uint32_t height,
                              uint32_t stride) {
    const uint8_t *encode = m->encode;
    for (uint32_t y = 0; y < height; y++) {
        uint32_t *row = pixels + (size_t)y * stride;
        for (uint32_t x = 0; x < width; x++) {
            uint32_t p = row[x];
            const int32_t *r = m->contribution[0][(p >> 16) & 0xff], *g = m->contribution[1][(p >> 8) & 0xff],
                          *b = m->contribution[2][p & 0xff];
            row[x] = (p & 0xff000000u) | (uint32_t)encode[(r[0] + g[0] + b[0]) >> 14] << 16 |
                     (uint32_t)encode[(r[1] + g[1] + b[1]) >> 14] << 8 | encode[(r[2] + g[2] + b[2]) >> 14];
        }
    }
}

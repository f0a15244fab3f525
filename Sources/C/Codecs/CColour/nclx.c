#include "CColour.h"
#include <lcms2.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * An nclx colour description (ISO/IEC 23091-2 code points, as in a HEIF `colr` box) made into
 * an RGB matrix-shaper ICC profile with lcms2, then converted as an embedded profile is (the same
 * cache, fast path and outcome). Each distinct description's profile is made once and kept.
 */

/* Colour primaries with a D65 white, by their code point. */
typedef struct {
    uint16_t code;
    const char *name;
    cmsCIExyYTRIPLE xy;
} nclx_primaries;

static const nclx_primaries primaries_table[] = {
    {1, "sRGB", {{0.640, 0.330, 1.0}, {0.300, 0.600, 1.0}, {0.150, 0.060, 1.0}}},
    {5, "BT.601 625-line", {{0.640, 0.330, 1.0}, {0.290, 0.600, 1.0}, {0.150, 0.060, 1.0}}},
    {6, "BT.601 525-line", {{0.630, 0.340, 1.0}, {0.310, 0.595, 1.0}, {0.155, 0.070, 1.0}}},
    {7, "SMPTE 240M", {{0.630, 0.340, 1.0}, {0.310, 0.595, 1.0}, {0.155, 0.070, 1.0}}},
    {9, "BT.2020", {{0.708, 0.292, 1.0}, {0.170, 0.797, 1.0}, {0.131, 0.046, 1.0}}},
    {12, "Display P3", {{0.680, 0.320, 1.0}, {0.265, 0.690, 1.0}, {0.150, 0.060, 1.0}}},
    {22, "EBU 3213", {{0.630, 0.340, 1.0}, {0.295, 0.605, 1.0}, {0.155, 0.077, 1.0}}},
};

#define PRIMARIES_COUNT (sizeof primaries_table / sizeof primaries_table[0])

/*
 * Tone curves. The BT.709-family transfers (1, 6, 14, 15) are shown as sRGB, as libheif, browsers
 * and phones show photos tagged with them; unspecified (2) is sRGB too. HDR ones (PQ 16, HLG 18)
 * are tone-mapped to SDR by their curve (hdr_curve, below).
 */
typedef enum { TRC_SRGB = 0, TRC_GAMMA_22, TRC_GAMMA_28, TRC_LINEAR, TRC_PQ, TRC_HLG, TRC_COUNT } nclx_trc;

static const char *const trc_suffix[TRC_COUNT] = {"", ", gamma 2.2", ", gamma 2.8", ", linear", ", PQ", ", HLG"};

/*
 * HDR to SDR, per channel, in the curve of a matrix-shaper profile (so the conversion keeps its
 * cache and fast path): the signal to display light in nits (PQ: SMPTE ST 2084's EOTF; HLG: BT.2100's
 * inverse OETF and its OOTF for a 1,000-nit display, the gamma of 1.2 applied to each channel
 * rather than to the luminance), then relative to SDR's reference white of 203 nits (BT.2408), then
 * highlights above 0.75 rolled off towards 1 (x for x <= 0.75, else 0.75 + 0.25 (1 - e^(-(x - 0.75)
 * / 0.25)): continuous with its slope, never clipped). Then the primaries' matrix to sRGB.
 */
#define HDR_REFERENCE_WHITE 203.0
#define HDR_KNEE 0.75
#define HDR_CURVE_POINTS 4096

static double pq_nits(double e) {
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32,
                 c3 = 2392.0 / 4096 * 32;
    double p = pow(e, 1 / m2), top = p - c1;
    return top <= 0 ? 0 : 10000 * pow(top / (c2 - c3 * p), 1 / m1);
}

static double hlg_nits(double e) {
    const double a = 0.17883277, b = 1 - 4 * 0.17883277, c = 0.5 - 0.17883277 * log(4 * 0.17883277);
    double scene = e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12;
    return 1000 * pow(scene, 1.2);
}

static double roll_off(double x) {
    return x <= HDR_KNEE ? x : HDR_KNEE + (1 - HDR_KNEE) * (1 - exp(-(x - HDR_KNEE) / (1 - HDR_KNEE)));
}

static cmsToneCurve *hdr_curve(int trc) {
    float values[HDR_CURVE_POINTS];
    for (int i = 0; i < HDR_CURVE_POINTS; i++) {
        double e = (double)i / (HDR_CURVE_POINTS - 1);
        double nits = trc == TRC_PQ ? pq_nits(e) : hlg_nits(e);
        values[i] = (float)roll_off(nits / HDR_REFERENCE_WHITE);
    }
    return cmsBuildTabulatedToneCurveFloat(NULL, HDR_CURVE_POINTS, values);
}

static int trc_of(uint16_t transfer) {
    switch (transfer) {
    case 1:
    case 2:
    case 6:
    case 13:
    case 14:
    case 15: return TRC_SRGB;
    case 4: return TRC_GAMMA_22;
    case 5: return TRC_GAMMA_28;
    case 8: return TRC_LINEAR;
    case 16: return TRC_PQ;
    case 18: return TRC_HLG;
    default: return -1;
    }
}

static int primaries_of(uint16_t primaries) {
    if (primaries == 2) primaries = 1; /* unspecified: sRGB's */
    for (size_t i = 0; i < PRIMARIES_COUNT; i++)
        if (primaries_table[i].code == primaries) return (int)i;
    return -1;
}

typedef struct {
    uint8_t *bytes;
    size_t length;
    int made;
} made_profile;

static pthread_mutex_t made_lock = PTHREAD_MUTEX_INITIALIZER;
static made_profile made[PRIMARIES_COUNT][TRC_COUNT];

static cmsToneCurve *tone_curve(int trc) {
    double srgb[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    if (trc == TRC_SRGB) return cmsBuildParametricToneCurve(NULL, 4, srgb);
    if (trc == TRC_PQ || trc == TRC_HLG) return hdr_curve(trc);
    return cmsBuildGamma(NULL, trc == TRC_GAMMA_22 ? 2.2 : trc == TRC_GAMMA_28 ? 2.8 : 1.0);
}

/* The ICC profile's bytes for the description, described as "Display P3 (nclx)" and the like. */
static void make_profile(int primaries, int trc, made_profile *out) {
    cmsCIExyY white = {0.3127, 0.3290, 1.0};
    cmsToneCurve *curve = tone_curve(trc);
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = curve ? cmsCreateRGBProfile(&white, &primaries_table[primaries].xy, curves) : NULL;
    if (curve) cmsFreeToneCurve(curve);
    cmsMLU *description = cmsMLUalloc(NULL, 1);
    char name[BACOLOUR_NAME_SIZE];
    snprintf(name, sizeof name, "%s%s (nclx)", primaries_table[primaries].name, trc_suffix[trc]);
    if (profile && description && cmsMLUsetASCII(description, "en", "US", name))
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, description);
    if (description) cmsMLUfree(description);
    cmsUInt32Number length = 0;
    if (profile && cmsSaveProfileToMem(profile, NULL, &length) && length > 0) {
        out->bytes = malloc(length);
        if (out->bytes && cmsSaveProfileToMem(profile, out->bytes, &length)) out->length = length;
    }
    if (profile) cmsCloseProfile(profile);
    out->made = 1;
}

/* The description's profile, made on first use and kept for the process's life. */
static const made_profile *profile_for(int primaries, int trc) {
    pthread_mutex_lock(&made_lock);
    made_profile *entry = &made[primaries][trc];
    if (!entry->made) make_profile(primaries, trc, entry);
    pthread_mutex_unlock(&made_lock);
    return entry;
}

static bacolour_outcome ignored(uint16_t primaries, uint16_t transfer, const char *reason) {
    bacolour_outcome outcome = {.result = BACOLOUR_IGNORED};
    snprintf(outcome.name, sizeof outcome.name, "nclx %u/%u", primaries, transfer);
    snprintf(outcome.reason, sizeof outcome.reason, "%s", reason);
    return outcome;
}

bacolour_outcome bacolour_nclx_to_srgb(uint16_t primaries, uint16_t transfer, uint32_t *pixels, uint32_t width,
                                       uint32_t height, uint32_t stride) {
    int p = primaries_of(primaries), trc = trc_of(transfer);
    char reason[BACOLOUR_REASON_SIZE];
    if (p < 0) {
        snprintf(reason, sizeof reason, "nclx colour primaries %u are not converted", primaries);
        return ignored(primaries, transfer, reason);
    }
    if (trc < 0) {
        snprintf(reason, sizeof reason, "nclx transfer characteristics %u are not converted", transfer);
        return ignored(primaries, transfer, reason);
    }
    bacolour_outcome outcome = {.result = BACOLOUR_UNTAGGED};
    if (primaries == 2 && transfer == 2) return outcome; /* says nothing: shown as sRGB, as untagged */
    if (primaries_table[p].code == 1 && trc == TRC_SRGB) {
        outcome.result = BACOLOUR_SRGB;
        snprintf(outcome.name, sizeof outcome.name, "sRGB (nclx)");
        return outcome;
    }
    const made_profile *profile = profile_for(p, trc);
    if (!profile->bytes) return ignored(primaries, transfer, "lcms2 cannot make a profile for it");
    return bacolour_to_srgb(profile->bytes, profile->length, pixels, width, height, stride);
}

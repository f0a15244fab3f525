#include "CColour.h"
#include <lcms2.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const bacolour_chromaticities bacolour_srgb_chromaticities = {
    .white_x = 0.3127, .white_y = 0.3290, .red_x = 0.64, .red_y = 0.33, .green_x = 0.30, .green_y = 0.60,
    .blue_x = 0.15, .blue_y = 0.06, .gamma = 0};

/* libpng's tolerances: 100 in its fixed point (1e-5) for x and y, 5% for the gamma. */
#define XY_TOLERANCE 0.001
#define GAMMA_TOLERANCE 0.05
#define SRGB_GAMMA (1 / 2.2)

static int near(double a, double b) { return fabs(a - b) <= XY_TOLERANCE; }

int bacolour_chromaticities_are_srgb(const bacolour_chromaticities *c) {
    const bacolour_chromaticities *s = &bacolour_srgb_chromaticities;
    int gamma = c->gamma == 0 || fabs(c->gamma / SRGB_GAMMA - 1) <= GAMMA_TOLERANCE;
    return gamma && near(c->white_x, s->white_x) && near(c->white_y, s->white_y) && near(c->red_x, s->red_x) &&
           near(c->red_y, s->red_y) && near(c->green_x, s->green_x) && near(c->green_y, s->green_y) &&
           near(c->blue_x, s->blue_x) && near(c->blue_y, s->blue_y);
}

/* gAMA's exponent as lcms2's decoding curve (1 / gamma), or sRGB's own curve. */
static cmsToneCurve *tone_curve(double gamma) {
    if (gamma > 0) return cmsBuildGamma(NULL, 1 / gamma);
    double srgb[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    return cmsBuildParametricToneCurve(NULL, 4, srgb);
}

static size_t save(cmsHPROFILE profile, uint8_t **bytes) {
    cmsUInt32Number length = 0;
    if (!cmsSaveProfileToMem(profile, NULL, &length) || length == 0) return 0;
    *bytes = malloc(length);
    if (*bytes && cmsSaveProfileToMem(profile, *bytes, &length)) return length;
    free(*bytes);
    *bytes = NULL;
    return 0;
}

size_t bacolour_profile_from_chromaticities(const bacolour_chromaticities *c, const char *description,
                                            uint8_t **profile) {
    *profile = NULL;
    if (c->white_y <= 0 || c->red_y <= 0 || c->green_y <= 0 || c->blue_y <= 0) return 0;
    cmsCIExyY white = {c->white_x, c->white_y, 1.0};
    cmsCIExyYTRIPLE primaries = {{c->red_x, c->red_y, 1.0}, {c->green_x, c->green_y, 1.0}, {c->blue_x, c->blue_y, 1.0}};
    cmsToneCurve *curve = tone_curve(c->gamma);
    if (!curve) return 0;
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE built = cmsCreateRGBProfile(&white, &primaries, curves);
    cmsFreeToneCurve(curve);
    if (!built) return 0;
    cmsMLU *text = cmsMLUalloc(NULL, 1);
    size_t length = 0;
    if (text && cmsMLUsetASCII(text, "en", "US", description) &&
        cmsWriteTag(built, cmsSigProfileDescriptionTag, text))
        length = save(built, profile);
    if (text) cmsMLUfree(text);
    cmsCloseProfile(built);
    return length;
}

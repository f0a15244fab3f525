#include "CColourFixtures.h"

#include <lcms2.h>

static cmsHPROFILE rgb_profile(const cmsCIExyYTRIPLE *primaries, cmsToneCurve *curve, const char *name) {
    cmsCIExyY white = {0.3127, 0.3290, 1.0};
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, primaries, curves);
    cmsFreeToneCurve(curve);
    cmsMLU *description = cmsMLUalloc(NULL, 1);
    if (profile && description) {
        cmsMLUsetASCII(description, "en", "US", name);
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, description);
    }
    if (description) cmsMLUfree(description);
    return profile;
}

static cmsHPROFILE make(bacolour_fixture kind) {
    if (kind == BACOLOUR_FIXTURE_SRGB) return cmsCreate_sRGBProfile();
    if (kind == BACOLOUR_FIXTURE_GRAY_18) {
        cmsCIExyY white = {0.3127, 0.3290, 1.0};
        cmsToneCurve *curve = cmsBuildGamma(NULL, 1.8);
        cmsHPROFILE gray = cmsCreateGrayProfile(&white, curve);
        cmsFreeToneCurve(curve);
        return gray;
    }
    if (kind == BACOLOUR_FIXTURE_DISPLAY_P3) {
        cmsCIExyYTRIPLE p3 = {{0.680, 0.320, 1.0}, {0.265, 0.690, 1.0}, {0.150, 0.060, 1.0}};
        double srgb_curve[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
        return rgb_profile(&p3, cmsBuildParametricToneCurve(NULL, 4, srgb_curve), "Display P3");
    }
    cmsCIExyYTRIPLE adobe = {{0.64, 0.33, 1.0}, {0.21, 0.71, 1.0}, {0.15, 0.06, 1.0}};
    return rgb_profile(&adobe, cmsBuildGamma(NULL, 563.0 / 256.0), "Adobe RGB (1998)");
}

size_t bacolour_fixture_profile(bacolour_fixture kind, uint8_t *buffer, size_t capacity) {
    cmsHPROFILE profile = make(kind);
    if (!profile) return 0;
    cmsUInt32Number length = 0;
    size_t written = 0;
    if (cmsSaveProfileToMem(profile, NULL, &length) && length <= capacity &&
        cmsSaveProfileToMem(profile, buffer, &length))
        written = length;
    cmsCloseProfile(profile);
    return written;
}

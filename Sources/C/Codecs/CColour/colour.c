#include "CColour.h"
#include "icc_structure.h"
#include "matshaper.h"
#include <lcms2.h>

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define CACHE_ENTRIES 4
#define TRC_SAMPLES 33

/* What a transform takes: frames of 0x00RRGGBB pixels (RGB and gray profiles), or CMYK rows. */
typedef enum { KIND_FRAME = 0, KIND_CMYK = 1, KIND_CMYK_INVERTED = 2 } transform_kind;

/* One remembered profile: its transform (NULL for sRGB and ignored ones) and its outcome. */
typedef struct {
    uint64_t checksum;
    size_t length;
    transform_kind kind;
    cmsHTRANSFORM transform;
    bacolour_matshaper *fast; /* the matrix-shaper fast path, used instead of `transform` */
    bacolour_outcome outcome;
    int used;
    int users; /* open CMYK and row handles: the entry is not reused while they last */
    int detached; /* made outside the cache (every entry was in use): freed when closed */
} cache_entry;

struct bacolour_cmyk {
    cache_entry entry;
};

struct bacolour_rows {
    cache_entry entry;
};

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry cache[CACHE_ENTRIES];
static unsigned next_victim;
static cmsHPROFILE srgb_profile;

/* FNV-1a, 64-bit: tells profiles apart (the length is compared as well). */
static uint64_t checksum(const uint8_t *bytes, size_t length) {
    uint64_t hash = 14695981039346656037ull;
    for (size_t i = 0; i < length; i++) hash = (hash ^ bytes[i]) * 1099511628211ull;
    return hash;
}

static cmsHPROFILE srgb(void) {
    if (!srgb_profile) srgb_profile = cmsCreate_sRGBProfile();
    return srgb_profile;
}

/* The profile's description, printable ASCII only, without trailing spaces. */
static void describe(cmsHPROFILE profile, char name[BACOLOUR_NAME_SIZE]) {
    name[0] = 0;
    cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", name, BACOLOUR_NAME_SIZE);
    name[BACOLOUR_NAME_SIZE - 1] = 0;
    for (char *c = name; *c; c++)
        if (*c < 0x20 || *c > 0x7e) *c = '?';
    for (size_t n = strlen(name); n > 0 && name[n - 1] == ' '; n--) name[n - 1] = 0;
}

static int same_xyz(cmsHPROFILE a, cmsHPROFILE b, cmsTagSignature tag) {
    const cmsCIEXYZ *x = cmsReadTag(a, tag), *y = cmsReadTag(b, tag);
    if (!x || !y) return 0;
    return fabs(x->X - y->X) < 0.002 && fabs(x->Y - y->Y) < 0.002 && fabs(x->Z - y->Z) < 0.002;
}

static int same_curve(cmsHPROFILE a, cmsHPROFILE b, cmsTagSignature tag) {
    const cmsToneCurve *x = cmsReadTag(a, tag), *y = cmsReadTag(b, tag);
    if (!x || !y) return 0;
    for (int i = 0; i < TRC_SAMPLES; i++) {
        float v = (float)i / (TRC_SAMPLES - 1);
        if (fabsf(cmsEvalToneCurveFloat(x, v) - cmsEvalToneCurveFloat(y, v)) > 0.5f / 255) return 0;
    }
    return 1;
}

/* sRGB by its content: a matrix-shaper with sRGB's colorants and tone curves (to within 1/2 step). */
static int is_srgb(cmsHPROFILE profile) {
    if (cmsGetColorSpace(profile) != cmsSigRgbData || cmsIsTag(profile, cmsSigAToB0Tag)) return 0;
    cmsHPROFILE s = srgb();
    return s && same_xyz(profile, s, cmsSigRedColorantTag) && same_xyz(profile, s, cmsSigGreenColorantTag) &&
           same_xyz(profile, s, cmsSigBlueColorantTag) && same_curve(profile, s, cmsSigRedTRCTag) &&
           same_curve(profile, s, cmsSigGreenTRCTag) && same_curve(profile, s, cmsSigBlueTRCTag);
}

static const char *space_name(cmsColorSpaceSignature space) {
    switch (space) {
    case cmsSigCmykData: return "a CMYK";
    case cmsSigRgbData: return "an RGB";
    case cmsSigGrayData: return "a gray";
    case cmsSigLabData: return "a Lab";
    case cmsSigYCbCrData: return "a YCbCr";
    default: return "a non-RGB";
    }
}

/* Gray is read from the pixel's blue byte (R = G = B), the other three bytes skipped. */
#define TYPE_GRAY_8_SKIP3 (COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | BYTES_SH(1) | EXTRA_SH(3))

/* Opens the profile and makes its transform (or the fast path's tables), or says why not. */
static cmsHTRANSFORM make_cmyk_transform(cmsHPROFILE profile, transform_kind kind, bacolour_outcome *outcome) {
    cmsColorSpaceSignature space = cmsGetColorSpace(profile);
    outcome->result = BACOLOUR_IGNORED;
    if (space != cmsSigCmykData) {
        snprintf(outcome->reason, sizeof outcome->reason, "%s profile on a CMYK photo", space_name(space));
        return NULL;
    }
    cmsUInt32Number input = kind == KIND_CMYK_INVERTED ? TYPE_CMYK_8_REV : TYPE_CMYK_8;
    cmsHTRANSFORM transform = cmsCreateTransform(profile, input, srgb(), TYPE_RGB_8, INTENT_PERCEPTUAL,
                                                 cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOCACHE);
    if (transform) outcome->result = BACOLOUR_CONVERTED;
    else snprintf(outcome->reason, sizeof outcome->reason, "lcms2 cannot make a transform to sRGB from it");
    return transform;
}

static cmsHTRANSFORM make_transform(const uint8_t *icc, size_t length, transform_kind kind, bacolour_outcome *outcome,
                                    bacolour_matshaper **fast) {
    if (bacolour_icc_too_costly(icc, length, outcome->reason, sizeof outcome->reason)) {
        outcome->result = BACOLOUR_IGNORED;
        return NULL;
    }
    cmsHPROFILE profile = cmsOpenProfileFromMem(icc, (cmsUInt32Number)length);
    if (!profile) {
        snprintf(outcome->reason, sizeof outcome->reason, "not an ICC profile lcms2 can read (%zu bytes)", length);
        outcome->result = BACOLOUR_IGNORED;
        return NULL;
    }
    describe(profile, outcome->name);
    if (kind != KIND_FRAME) {
        cmsHTRANSFORM cmyk = make_cmyk_transform(profile, kind, outcome);
        cmsCloseProfile(profile);
        return cmyk;
    }
    cmsColorSpaceSignature space = cmsGetColorSpace(profile);
    cmsHTRANSFORM transform = NULL;
    outcome->result = BACOLOUR_IGNORED;
    if (space != cmsSigRgbData && space != cmsSigGrayData) {
        snprintf(outcome->reason, sizeof outcome->reason, "%s profile (only RGB and gray are converted)",
                 space_name(space));
    } else if (is_srgb(profile)) {
        outcome->result = BACOLOUR_SRGB;
    } else if ((*fast = bacolour_matshaper_make(profile, srgb())) != NULL) {
        outcome->result = BACOLOUR_CONVERTED;
    } else {
        cmsUInt32Number input = space == cmsSigGrayData ? TYPE_GRAY_8_SKIP3 : TYPE_BGRA_8;
        transform = cmsCreateTransform(profile, input, srgb(), TYPE_BGRA_8, INTENT_PERCEPTUAL,
                                       cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOCACHE);
        if (transform) outcome->result = BACOLOUR_CONVERTED;
        else snprintf(outcome->reason, sizeof outcome->reason, "lcms2 cannot make a transform to sRGB from it");
    }
    cmsCloseProfile(profile);
    return transform;
}

static void entry_clear(cache_entry *entry) {
    if (entry->transform) cmsDeleteTransform(entry->transform);
    free(entry->fast);
    memset(entry, 0, sizeof *entry);
}

static void entry_make(cache_entry *entry, const uint8_t *icc, size_t length, transform_kind kind, uint64_t sum) {
    entry->transform = make_transform(icc, length, kind, &entry->outcome, &entry->fast);
    entry->checksum = sum;
    entry->length = length;
    entry->kind = kind;
    entry->used = 1;
}

/* The next entry to reuse: one no CMYK handle holds; NULL when all are held. */
static cache_entry *victim(void) {
    for (int tries = 0; tries < CACHE_ENTRIES; tries++) {
        cache_entry *entry = &cache[next_victim++ % CACHE_ENTRIES];
        if (entry->users == 0) return entry;
    }
    return NULL;
}

/* The cached entry for the profile, made on first use (NULL when every entry is held). Called with the lock held. */
static cache_entry *lookup(const uint8_t *icc, size_t length, transform_kind kind) {
    uint64_t sum = checksum(icc, length);
    for (int i = 0; i < CACHE_ENTRIES; i++)
        if (cache[i].used && cache[i].checksum == sum && cache[i].length == length && cache[i].kind == kind)
            return &cache[i];
    cache_entry *entry = victim();
    if (!entry) return NULL;
    entry_clear(entry);
    entry_make(entry, icc, length, kind, sum);
    return entry;
}

void bacolour_prepare(void) {
    tzset();
    pthread_mutex_lock(&cache_lock);
    srgb();
    pthread_mutex_unlock(&cache_lock);
}

/* Converts the frame with the entry's fast path or transform (neither: untouched). */
static void apply(const cache_entry *entry, uint32_t *pixels, uint32_t width, uint32_t height, uint32_t stride) {
    if (entry->fast && pixels) {
        bacolour_matshaper_apply(entry->fast, pixels, width, height, stride);
    } else if (entry->transform && pixels && width && height) {
        if (stride == width) {
            cmsDoTransform(entry->transform, pixels, pixels, width * height);
        } else {
            cmsDoTransformLineStride(entry->transform, pixels, pixels, width, height, stride * 4, stride * 4, 0, 0);
        }
    }
}

bacolour_outcome bacolour_to_srgb(const uint8_t *icc, size_t length, uint32_t *pixels, uint32_t width,
                                  uint32_t height, uint32_t stride) {
    bacolour_outcome outcome = {.result = BACOLOUR_UNTAGGED};
    if (!icc || length == 0) return outcome;
    if (length > BACOLOUR_MAX_PROFILE_BYTES) {
        outcome.result = BACOLOUR_IGNORED;
        snprintf(outcome.reason, sizeof outcome.reason, "the profile is larger than 4 MB (%zu bytes)", length);
        return outcome;
    }
    pthread_mutex_lock(&cache_lock);
    cache_entry *entry = lookup(icc, length, KIND_FRAME);
    cache_entry own = {0};
    if (!entry) {
        /* Every entry is held by a CMYK decode: this frame's transform is made for it alone. */
        entry_make(&own, icc, length, KIND_FRAME, 0);
        entry = &own;
    }
    outcome = entry->outcome;
    apply(entry, pixels, width, height, stride);
    if (entry == &own) entry_clear(&own);
    pthread_mutex_unlock(&cache_lock);
    return outcome;
}

/* Whether the entry changes pixels: a CMYK or RGB transform, or the fast path. */
static int entry_converts(const cache_entry *entry) { return entry->transform != NULL || entry->fast != NULL; }

/*
 * The cached entry for the profile, held (`users`) until closed, or one made for the caller alone
 * when every entry is held; NULL (with `outcome` saying why) when it converts nothing.
 */
static cache_entry *open_entry(const uint8_t *icc, size_t length, transform_kind kind, bacolour_outcome *outcome) {
    memset(outcome, 0, sizeof *outcome);
    if (!icc || length == 0) return NULL;
    if (length > BACOLOUR_MAX_PROFILE_BYTES) {
        outcome->result = BACOLOUR_IGNORED;
        snprintf(outcome->reason, sizeof outcome->reason, "the profile is larger than 4 MB (%zu bytes)", length);
        return NULL;
    }
    pthread_mutex_lock(&cache_lock);
    cache_entry *entry = lookup(icc, length, kind);
    cache_entry *handle = NULL;
    if (entry) {
        *outcome = entry->outcome;
        if (entry_converts(entry)) {
            entry->users++;
            handle = entry;
        }
    }
    pthread_mutex_unlock(&cache_lock);
    if (entry) return handle;
    /* Every entry is held by an open handle: this one gets a transform of its own. */
    entry = calloc(1, sizeof *entry);
    if (!entry) return NULL;
    pthread_mutex_lock(&cache_lock); /* lcms2's sRGB profile is shared */
    entry_make(entry, icc, length, kind, 0);
    pthread_mutex_unlock(&cache_lock);
    *outcome = entry->outcome;
    entry->detached = 1;
    if (entry_converts(entry)) return entry;
    entry_clear(entry);
    free(entry);
    return NULL;
}

static void close_entry(cache_entry *entry) {
    if (!entry) return;
    if (entry->detached) {
        entry_clear(entry);
        free(entry);
        return;
    }
    pthread_mutex_lock(&cache_lock);
    entry->users--;
    pthread_mutex_unlock(&cache_lock);
}

bacolour_cmyk *bacolour_cmyk_open(const uint8_t *icc, size_t length, int inverted, bacolour_outcome *outcome) {
    return (bacolour_cmyk *)open_entry(icc, length, inverted ? KIND_CMYK_INVERTED : KIND_CMYK, outcome);
}

void bacolour_cmyk_row(const bacolour_cmyk *transform, const uint8_t *cmyk, uint8_t *rgb, uint32_t width) {
    cmsDoTransform(((const cache_entry *)transform)->transform, cmyk, rgb, width);
}

void bacolour_cmyk_close(bacolour_cmyk *transform) { close_entry((cache_entry *)transform); }

bacolour_rows *bacolour_rows_open(const uint8_t *icc, size_t length, bacolour_outcome *outcome) {
    return (bacolour_rows *)open_entry(icc, length, KIND_FRAME, outcome);
}

void bacolour_rows_convert(const bacolour_rows *rows, uint32_t *pixels, uint32_t width) {
    const cache_entry *entry = (const cache_entry *)rows;
    if (entry->fast) bacolour_matshaper_apply_rows(entry->fast, pixels, width, 1, width);
    else cmsDoTransform(entry->transform, pixels, pixels, width);
}

void bacolour_rows_close(bacolour_rows *rows) { close_entry((cache_entry *)rows); }

#include "icc_structure.h"

#include <stdio.h>

/*
 * The walk: the tag table (ICC.1:2010 7.3), then each tag by its type signature. `mpet`
 * (10.14): its element count and each element's `clut` (11.2.2); `mAB ` and `mBA ` (10.10,
 * 10.11): their CLUT's grid points; `mft1` and `mft2` (10.8, 10.9): one grid-point count for
 * every input. Every read is bounds-checked; nothing is allocated.
 */

#define SIG(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))
/* lcms2 reads at most 100 tags (MAX_TABLE_TAG); a few more are looked at here. */
#define MAX_TAGS 1024u

typedef struct {
    const uint8_t *data;
    size_t size;
} bytes;

static int has(bytes b, size_t at, size_t count) { return at <= b.size && b.size - at >= count; }

static uint32_t u32(bytes b, size_t at) {
    if (!has(b, at, 4)) return 0;
    return ((uint32_t)b.data[at] << 24) | ((uint32_t)b.data[at + 1] << 16) | ((uint32_t)b.data[at + 2] << 8) |
           b.data[at + 3];
}

static uint32_t u16(bytes b, size_t at) { return has(b, at, 2) ? ((uint32_t)b.data[at] << 8) | b.data[at + 1] : 0; }

static uint32_t u8(bytes b, size_t at) { return has(b, at, 1) ? b.data[at] : 0; }

static void name_tag(uint32_t signature, char name[5]) {
    for (int i = 0; i < 4; i++) {
        char c = (char)(signature >> (24 - 8 * i));
        name[i] = c >= 0x20 && c < 0x7f ? c : '?';
    }
    name[4] = 0;
}

/* The product of `inputs` grid-point counts at `at` (one byte each), saturating past the bound. */
static uint64_t grid_points(bytes b, size_t at, uint32_t inputs) {
    uint64_t product = 1;
    for (uint32_t i = 0; i < inputs && i < 16; i++) {
        product *= u8(b, at + i);
        if (product > BACOLOUR_MAX_CLUT_POINTS) return (uint64_t)BACOLOUR_MAX_CLUT_POINTS + 1;
    }
    return inputs ? product : 0;
}

static int too_many_points(uint64_t points, uint32_t tag, char *reason, size_t size) {
    if (points <= BACOLOUR_MAX_CLUT_POINTS) return 0;
    char name[5];
    name_tag(tag, name);
    snprintf(reason, size, "its %s tag has a colour table of more than %u grid points", name,
             BACOLOUR_MAX_CLUT_POINTS);
    return 1;
}

/* A multi-process-element tag: its element count, and each `clut` element's grid. */
static int mpet_too_costly(bytes t, uint32_t tag, char *reason, size_t size) {
    uint32_t elements = u32(t, 12);
    if (elements > BACOLOUR_MAX_PROCESS_ELEMENTS) {
        char name[5];
        name_tag(tag, name);
        snprintf(reason, size, "its %s tag lists %u processing elements, more than the %u allowed", name, elements,
                 BACOLOUR_MAX_PROCESS_ELEMENTS);
        return 1;
    }
    for (uint32_t i = 0; i < elements; i++) {
        size_t entry = 16 + (size_t)i * 8;
        if (!has(t, entry, 8)) return 0;
        uint32_t offset = u32(t, entry);
        if (u32(t, offset) != SIG('c', 'l', 'u', 't')) continue;
        if (too_many_points(grid_points(t, (size_t)offset + 12, u16(t, (size_t)offset + 8)), tag, reason, size))
            return 1;
    }
    return 0;
}

/* One tag's data `t`, by its type. */
static int tag_too_costly(bytes t, uint32_t tag, char *reason, size_t size) {
    switch (u32(t, 0)) {
    case SIG('m', 'p', 'e', 't'): return mpet_too_costly(t, tag, reason, size);
    case SIG('m', 'f', 't', '1'):
    case SIG('m', 'f', 't', '2'): {
        uint32_t inputs = u8(t, 8), grid = u8(t, 10);
        uint64_t points = 1;
        for (uint32_t i = 0; i < inputs && i < 16 && points <= BACOLOUR_MAX_CLUT_POINTS; i++) points *= grid;
        return too_many_points(points, tag, reason, size);
    }
    case SIG('m', 'A', 'B', ' '):
    case SIG('m', 'B', 'A', ' '): {
        uint32_t clut = u32(t, 24);
        return clut && too_many_points(grid_points(t, clut, u8(t, 8)), tag, reason, size);
    }
    default: return 0;
    }
}

int bacolour_icc_too_costly(const uint8_t *icc, size_t length, char *reason, size_t size) {
    bytes profile = {icc, icc ? length : 0};
    uint32_t count = u32(profile, 128);
    if (count > MAX_TAGS) count = MAX_TAGS;
    for (uint32_t i = 0; i < count; i++) {
        size_t entry = 132 + (size_t)i * 12;
        if (!has(profile, entry, 12)) return 0;
        uint32_t offset = u32(profile, entry + 4), tag_size = u32(profile, entry + 8);
        if (!has(profile, offset, tag_size)) continue;
        bytes t = {icc + offset, tag_size};
        if (tag_too_costly(t, u32(profile, entry), reason, size)) return 1;
    }
    return 0;
}

#include "layout.h"

#include <stddef.h>

static uint32_t rounded_ratio(uint64_t a, uint64_t b, uint64_t c) {
    uint64_t value = (a * b + c / 2) / c;
    return value < 1 ? 1 : (uint32_t)value;
}

/* Sets `*length` to `wanted`, at most `extent`, centred in `extent` at `*offset`. */
static void centre(uint32_t wanted, uint32_t extent, uint32_t *length, uint32_t *offset) {
    *length = wanted > extent ? extent : wanted;
    *offset = (extent - *length) / 2;
}

baphoto_placement baphoto_place(uint32_t sw, uint32_t sh, uint32_t dw, uint32_t dh, int fill) {
    baphoto_placement p = {0, 0, sw, sh, 0, 0, dw, dh};
    int source_is_wider = (uint64_t)sw * dh > (uint64_t)sh * dw;
    if (fill && source_is_wider) {
        centre(rounded_ratio(sh, dw, dh), sw, &p.src_w, &p.src_x); /* crop the sides */
    } else if (fill) {
        centre(rounded_ratio(sw, dh, dw), sh, &p.src_h, &p.src_y); /* crop top and bottom */
    } else if (source_is_wider) {
        centre(rounded_ratio(sh, dw, sw), dh, &p.dst_h, &p.dst_y); /* bars above and below */
    } else {
        centre(rounded_ratio(sw, dh, sh), dw, &p.dst_w, &p.dst_x); /* bars at the sides */
    }
    return p;
}

void baphoto_apply_orientation(const uint32_t *stored, uint32_t tw, uint32_t th, uint32_t *dst, uint32_t dw,
                             uint32_t dh, int orientation) {
    for (uint32_t y = 0; y < dh; y++) {
        uint32_t *out = dst + (size_t)y * dw;
        for (uint32_t x = 0; x < dw; x++) {
            uint32_t sx, sy;
            switch (orientation) {
            case 2: sx = tw - 1 - x; sy = y; break;
            case 3: sx = tw - 1 - x; sy = th - 1 - y; break;
            case 4: sx = x; sy = th - 1 - y; break;
            case 5: sx = y; sy = x; break;
            case 6: sx = y; sy = th - 1 - x; break;
            case 7: sx = tw - 1 - y; sy = th - 1 - x; break;
            case 8: sx = tw - 1 - y; sy = x; break;
            default: sx = x; sy = y; break;
            }
            out[x] = stored[(size_t)sy * tw + sx];
        }
    }
}

static uint32_t tiff_read(const uint8_t *p, int bytes, int big_endian) {
    uint32_t value = 0;
    for (int i = 0; i < bytes; i++) value |= (uint32_t)p[big_endian ? i : bytes - 1 - i] << (8 * (bytes - 1 - i));
    return value;
}

int baphoto_exif_orientation(const uint8_t *tiff, uint32_t length) {
    if (length < 8) return 1;
    int big_endian;
    if (tiff[0] == 'M' && tiff[1] == 'M') big_endian = 1;
    else if (tiff[0] == 'I' && tiff[1] == 'I') big_endian = 0;
    else return 1;
    uint32_t ifd = tiff_read(tiff + 4, 4, big_endian);
    if (ifd > length - 2) return 1;
    uint32_t count = tiff_read(tiff + ifd, 2, big_endian);
    for (uint32_t i = 0; i < count; i++) {
        uint64_t entry = ifd + 2 + 12 * (uint64_t)i;
        if (entry + 12 > length) break;
        if (tiff_read(tiff + entry, 2, big_endian) == 0x0112 && tiff_read(tiff + entry + 2, 2, big_endian) == 3) {
            uint32_t value = tiff_read(tiff + entry + 8, 2, big_endian);
            return value >= 1 && value <= 8 ? (int)value : 1;
        }
    }
    return 1;
}

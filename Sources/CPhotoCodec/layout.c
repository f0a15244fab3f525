#include "layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rounded_ratio(uint64_t a, uint64_t b, uint64_t c) {
    uint64_t value = (a * b + c / 2) / c;
    return value < 1 ? 1 : (uint32_t)value;
}

baphoto_placement baphoto_place(uint32_t sw, uint32_t sh, uint32_t dw, uint32_t dh, baphoto_scale_mode scale) {
    baphoto_placement p = {0, 0, sw, sh, 0, 0, dw, dh};
    int source_is_wider = (uint64_t)sw * dh > (uint64_t)sh * dw;
    if (scale == BAPHOTO_SCALE_FILL) {
        if (source_is_wider) {
            p.src_w = rounded_ratio(sh, dw, dh);
            if (p.src_w > sw) p.src_w = sw;
            p.src_x = (sw - p.src_w) / 2;
        } else {
            p.src_h = rounded_ratio(sw, dh, dw);
            if (p.src_h > sh) p.src_h = sh;
            p.src_y = (sh - p.src_h) / 2;
        }
    } else {
        if (source_is_wider) {
            p.dst_h = rounded_ratio(sh, dw, sw);
            if (p.dst_h > dh) p.dst_h = dh;
            p.dst_y = (dh - p.dst_h) / 2;
        } else {
            p.dst_w = rounded_ratio(sw, dh, sh);
            if (p.dst_w > dw) p.dst_w = dw;
            p.dst_x = (dw - p.dst_w) / 2;
        }
    }
    return p;
}

int baphoto_canvas_init(baphoto_canvas *canvas, const baphoto_target *target, int orientation) {
    memset(canvas, 0, sizeof *canvas);
    canvas->orientation = orientation >= 1 && orientation <= 8 ? orientation : 1;
    int transposed = canvas->orientation >= 5;
    canvas->width = transposed ? target->height : target->width;
    canvas->height = transposed ? target->width : target->height;
    if (canvas->orientation == 1) {
        canvas->pixels = target->pixels;
        return 0;
    }
    canvas->owned = calloc((size_t)target->width * target->height, sizeof(uint32_t));
    canvas->pixels = canvas->owned;
    return canvas->owned ? 0 : -1;
}

/* Each upright pixel (x, y) comes from the stored pixel the EXIF orientation names. */
void baphoto_canvas_finish(const baphoto_canvas *canvas, const baphoto_target *target) {
    if (canvas->orientation == 1) return;
    uint32_t tw = canvas->width, th = canvas->height;
    for (uint32_t y = 0; y < target->height; y++) {
        uint32_t *out = target->pixels + (size_t)y * target->width;
        for (uint32_t x = 0; x < target->width; x++) {
            uint32_t sx, sy;
            switch (canvas->orientation) {
            case 2: sx = tw - 1 - x; sy = y; break;
            case 3: sx = tw - 1 - x; sy = th - 1 - y; break;
            case 4: sx = x; sy = th - 1 - y; break;
            case 5: sx = y; sy = x; break;
            case 6: sx = y; sy = th - 1 - x; break;
            case 7: sx = tw - 1 - y; sy = th - 1 - x; break;
            case 8: sx = tw - 1 - y; sy = x; break;
            default: sx = x; sy = y; break;
            }
            out[x] = canvas->pixels[(size_t)sy * tw + sx];
        }
    }
}

void baphoto_canvas_free(baphoto_canvas *canvas) {
    free(canvas->owned);
    memset(canvas, 0, sizeof *canvas);
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

double baphoto_megabytes(uint64_t bytes) { return (double)bytes / (1024.0 * 1024.0); }

int baphoto_over_pixel_limit(const baphoto_header *header, const baphoto_limits *limits,
                             char reason[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    uint64_t pixels = (uint64_t)header->width * header->height;
    if (pixels <= limits->max_pixels) return 0;
    snprintf(reason, BAPHOTO_ERROR_MESSAGE_SIZE, "photo is %ux%u (%.1f megapixels), over the limit of %.1f megapixels",
             header->width, header->height, (double)pixels / 1e6, (double)limits->max_pixels / 1e6);
    return 1;
}

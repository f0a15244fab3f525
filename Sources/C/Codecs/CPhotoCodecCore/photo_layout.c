#include "photo_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void baphoto_canvas_finish(const baphoto_canvas *canvas, const baphoto_target *target) {
    if (canvas->orientation == 1) return;
    baphoto_apply_orientation(canvas->pixels, canvas->width, canvas->height, target->pixels, target->width,
                            target->height, canvas->orientation);
}

void baphoto_canvas_free(baphoto_canvas *canvas) {
    free(canvas->owned);
    memset(canvas, 0, sizeof *canvas);
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

void baphoto_metadata_free(baphoto_metadata *metadata) {
    if (!metadata) return;
    free(metadata->exif);
    free(metadata->icc);
    memset(metadata, 0, sizeof *metadata);
}

void baphoto_convert_to_srgb(const baphoto_target *target, baphoto_metadata *metadata) {
    if (metadata->has_nclx) {
        metadata->colour = bacolour_nclx_to_srgb(metadata->nclx_primaries, metadata->nclx_transfer, target->pixels,
                                                 target->width, target->height, target->width);
    } else {
        metadata->colour = bacolour_to_srgb(metadata->icc, metadata->icc_length, target->pixels, target->width,
                                            target->height, target->width);
    }
}

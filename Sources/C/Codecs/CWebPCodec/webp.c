#include "CWebPCodec.h"
#include "orientation.h"
#include "photo_layout.h"
#include "webp_layout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <webp/decode.h>

/*
 * WebP through libwebp. The file's chunks are walked (webp_layout.c) to find the first image
 * (of an animation or a still) and the EXIF and ICCP chunks; only those bytes are read.
 * WebPDecode crops and scales the image straight onto the canvas. Everything libwebp holds
 * beyond a few rows is counted against the decode-memory budget before decoding: the image's
 * bytes, a lossless image's whole pixels (vp8l_dec.c: 4 bytes a pixel, transform and entropy
 * images up to 3/4 byte more, row caches), and a lossy image's alpha plane (frame_dec.c: 1 byte
 * a pixel, plus 4 more when the alpha is itself lossless-compressed, alpha_dec.c).
 */
typedef struct {
    /* The first image's bytes ([ALPH] VP8 or VP8L chunks). */
    uint8_t *file;
    size_t file_size;
    bawebp_layout layout;
    int fd;
    baphoto_canvas canvas;
    char *message;
} webp_context;

static int failure(webp_context *context, int status, const char *reason) {
    snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "%s", reason);
    return status;
}

static void context_free(webp_context *context) {
    baphoto_canvas_free(&context->canvas);
    free(context->file);
}

/* Finds the first image and reads its bytes, within the budget. */
static int read_image(webp_context *context, int fd, const baphoto_limits *limits) {
    struct stat status;
    if (fstat(fd, &status) != 0) return failure(context, BAPHOTO_ERROR_IO, strerror(errno));
    const char *reason = NULL;
    if (bawebp_find_layout(fd, (uint64_t)status.st_size, &context->layout, &reason) != 0) {
        return failure(context, BAPHOTO_ERROR_CORRUPT, reason);
    }
    context->fd = fd;
    uint64_t size = context->layout.image.size;
    if (size > limits->budget_bytes) {
        char text[BAPHOTO_ERROR_MESSAGE_SIZE];
        snprintf(text, sizeof text, "WebP image data of %.0f MB is over the decode-memory budget of %.0f MB",
                 baphoto_megabytes(size), baphoto_megabytes(limits->budget_bytes));
        return failure(context, BAPHOTO_ERROR_TOO_LARGE, text);
    }
    context->file_size = (size_t)size;
    context->file = malloc(context->file_size ? context->file_size : 1);
    if (!context->file) return failure(context, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    if (bawebp_read_span(fd, context->layout.image, context->file) != 0) {
        return failure(context, BAPHOTO_ERROR_CORRUPT, "truncated WebP");
    }
    return BAPHOTO_OK;
}

/* The EXIF chunk's TIFF bytes (without an "Exif\0\0" name), read when at most 64 KB; or NULL. */
static uint8_t *read_exif(const webp_context *context, size_t *length) {
    bawebp_span span = context->layout.exif;
    if (span.size == 0 || span.size > (64u << 10)) return NULL;
    uint8_t *bytes = malloc((size_t)span.size);
    if (!bytes || bawebp_read_span(context->fd, span, bytes) != 0) {
        free(bytes);
        return NULL;
    }
    size_t size = (size_t)span.size;
    if (size > 6 && memcmp(bytes, "Exif\0\0", 6) == 0) {
        memmove(bytes, bytes + 6, size - 6);
        size -= 6;
    }
    *length = size;
    return bytes;
}

static int exif_orientation(const webp_context *context) {
    size_t length = 0;
    uint8_t *exif = read_exif(context, &length);
    if (!exif) return 1;
    int orientation = baphoto_exif_orientation(exif, (uint32_t)length);
    free(exif);
    return orientation;
}

/* What libwebp holds beyond a few rows, besides the image's bytes (see the comment above). */
static uint64_t decoder_bytes(const webp_context *context, const WebPBitstreamFeatures *features) {
    uint64_t pixels = (uint64_t)features->width * (uint64_t)features->height;
    if (features->format == 2) return pixels * 5 + (uint64_t)features->width * 128;
    if (!features->has_alpha) return 0;
    /* ALPH's first payload byte: bits 0-1 are the compression (1: lossless). */
    int compressed = context->file_size > 8 && memcmp(context->file, "ALPH", 4) == 0 && (context->file[8] & 3) == 1;
    return pixels * (compressed ? 5 : 1);
}

/* Finds and reads the first frame and fills the header; checks the limits. */
static int open_frame(webp_context *context, int fd, const baphoto_limits *limits, baphoto_header *header) {
    memset(header, 0, sizeof *header);
    int status = read_image(context, fd, limits);
    if (status != BAPHOTO_OK) return status;
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(context->file, context->file_size, &features) != VP8_STATUS_OK) {
        return failure(context, BAPHOTO_ERROR_CORRUPT, "corrupt WebP image data");
    }
    header->width = (uint32_t)features.width;
    header->height = (uint32_t)features.height;
    header->components = features.has_alpha ? 4 : 3;
    header->animated = (context->layout.flags & BAWEBP_ANIMATION_FLAG) != 0;
    header->orientation = exif_orientation(context);
    header->whole_image = features.format == 2;
    header->dct_scale_eighths = 8;
    header->whole_image_bytes = context->file_size + decoder_bytes(context, &features);
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
    if (baphoto_over_pixel_limit(header, limits, reason)) return failure(context, BAPHOTO_ERROR_TOO_LARGE, reason);
    if (header->whole_image_bytes > limits->budget_bytes) {
        snprintf(reason, sizeof reason, "%s WebP of %ux%u needs %.0f MB to decode, over the decode-memory budget of %.0f MB",
                 features.format == 2 ? "lossless" : "transparent", header->width, header->height,
                 baphoto_megabytes(header->whole_image_bytes), baphoto_megabytes(limits->budget_bytes));
        return failure(context, BAPHOTO_ERROR_TOO_LARGE, reason);
    }
    return BAPHOTO_OK;
}

int baphoto_webp_read_header(int fd, const baphoto_limits *limits, baphoto_header *header,
                             char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    webp_context context = {.message = error};
    error[0] = 0;
    int status = open_frame(&context, fd, limits, header);
    context_free(&context);
    return status;
}

static int decode_status(webp_context *context, VP8StatusCode code) {
    switch (code) {
    case VP8_STATUS_OK: return BAPHOTO_OK;
    case VP8_STATUS_OUT_OF_MEMORY: return failure(context, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    case VP8_STATUS_NOT_ENOUGH_DATA: return failure(context, BAPHOTO_ERROR_CORRUPT, "truncated WebP");
    case VP8_STATUS_UNSUPPORTED_FEATURE: return failure(context, BAPHOTO_ERROR_UNSUPPORTED, "unsupported WebP feature");
    default: return failure(context, BAPHOTO_ERROR_CORRUPT, "corrupt WebP image data");
    }
}

/* Crops and scales the frame onto the canvas with libwebp, then drops the alpha byte. */
static int decode_frame(webp_context *context, const baphoto_header *header, const baphoto_target *target) {
    int orientation = ba_orientation_on_panel(header->orientation, target->quarter_turns);
    if (baphoto_canvas_init(&context->canvas, target, orientation) != 0) {
        return failure(context, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    }
    baphoto_canvas *canvas = &context->canvas;
    baphoto_placement p = baphoto_place(header->width, header->height, canvas->width, canvas->height,
                                    target->scale == BAPHOTO_SCALE_FILL);
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return failure(context, BAPHOTO_ERROR_UNSUPPORTED, "libwebp version mismatch");
    config.options.use_cropping = 1;
    config.options.crop_left = (int)p.src_x;
    config.options.crop_top = (int)p.src_y;
    config.options.crop_width = (int)p.src_w;
    config.options.crop_height = (int)p.src_h;
    config.options.use_scaling = p.src_w != p.dst_w || p.src_h != p.dst_h;
    config.options.scaled_width = (int)p.dst_w;
    config.options.scaled_height = (int)p.dst_h;
    /* Premultiplied B, G, R, A: composited over black, in XRGB8888's byte order. */
    config.output.colorspace = MODE_bgrA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = (uint8_t *)(canvas->pixels + (size_t)p.dst_y * canvas->width + p.dst_x);
    config.output.u.RGBA.stride = (int)(canvas->width * 4);
    config.output.u.RGBA.size = (size_t)canvas->width * 4 * (p.dst_h - 1) + (size_t)p.dst_w * 4;
    int status = decode_status(context, WebPDecode(context->file, context->file_size, &config));
    WebPFreeDecBuffer(&config.output);
    if (status != BAPHOTO_OK) return status;
    for (uint32_t y = p.dst_y; y < p.dst_y + p.dst_h; y++) {
        uint32_t *row = canvas->pixels + (size_t)y * canvas->width;
        for (uint32_t x = p.dst_x; x < p.dst_x + p.dst_w; x++) row[x] &= 0x00FFFFFFu;
    }
    baphoto_canvas_finish(canvas, target);
    return BAPHOTO_OK;
}

/* The EXIF (at most 64 KB) and ICCP (at most 4 MB) chunks, when they fit the budget. */
static void copy_metadata(const webp_context *context, const baphoto_limits *limits, baphoto_header *header,
                          baphoto_metadata *metadata) {
    size_t length = 0;
    uint8_t *exif = read_exif(context, &length);
    if (exif && header->whole_image_bytes + length <= limits->budget_bytes) {
        metadata->exif = exif;
        metadata->exif_length = length;
        header->whole_image_bytes += length;
    } else {
        free(exif);
    }
    bawebp_span iccp = context->layout.iccp;
    if (iccp.size == 0 || iccp.size > (4u << 20) || header->whole_image_bytes + iccp.size > limits->budget_bytes) return;
    uint8_t *icc = malloc((size_t)iccp.size);
    if (icc && bawebp_read_span(context->fd, iccp, icc) == 0) {
        metadata->icc = icc;
        metadata->icc_length = (size_t)iccp.size;
        header->whole_image_bytes += iccp.size;
    } else {
        free(icc);
    }
}

int baphoto_webp_decode(int fd, const baphoto_limits *limits, const baphoto_target *target,
                        baphoto_header *header, baphoto_metadata *metadata,
                        char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    webp_context context = {.message = error};
    error[0] = 0;
    if (metadata) memset(metadata, 0, sizeof *metadata);
    int status = open_frame(&context, fd, limits, header);
    if (status == BAPHOTO_OK && metadata) copy_metadata(&context, limits, header, metadata);
    if (status == BAPHOTO_OK) status = decode_frame(&context, header, target);
    if (status == BAPHOTO_OK && metadata) baphoto_convert_to_srgb(target, metadata);
    context_free(&context);
    if (status != BAPHOTO_OK && metadata) baphoto_metadata_free(metadata);
    return status;
}

const char *baphoto_webp_version(void) {
    static _Thread_local char text[40];
    int version = WebPGetDecoderVersion(); /* 0x010204: 1.2.4 */
    snprintf(text, sizeof text, "libwebp %d.%d.%d", version >> 16 & 0xFF, version >> 8 & 0xFF, version & 0xFF);
    return text;
}

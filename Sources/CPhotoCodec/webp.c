#include "CPhotoCodec.h"
#include "orientation.h"
#include "photo_layout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <webp/decode.h>
#include <webp/demux.h>

/*
 * WebP through libwebp. The demuxer finds the first frame (of an animation or a still) and the
 * EXIF chunk; WebPDecode crops and scales it straight onto the canvas. Lossy files decode in a
 * few rows at a time; lossless files always hold the whole image (width * height * 4 bytes,
 * vp8l_dec.c), which is checked against the decode-memory budget before decoding.
 */
typedef struct {
    uint8_t *file;
    size_t file_size;
    WebPDemuxer *demux;
    WebPIterator frame;
    int has_frame;
    baphoto_canvas canvas;
    char *message;
} webp_context;

static int failure(webp_context *context, int status, const char *reason) {
    snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "%s", reason);
    return status;
}

static void context_free(webp_context *context) {
    if (context->has_frame) WebPDemuxReleaseIterator(&context->frame);
    WebPDemuxDelete(context->demux);
    baphoto_canvas_free(&context->canvas);
    free(context->file);
}

/* Reads the whole file (a WebP is decoded from memory), within the budget. */
static int read_file(webp_context *context, int fd, const baphoto_limits *limits) {
    struct stat status;
    if (fstat(fd, &status) != 0 || lseek(fd, 0, SEEK_SET) != 0) {
        return failure(context, BAPHOTO_ERROR_IO, strerror(errno));
    }
    if ((uint64_t)status.st_size > limits->budget_bytes) {
        char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
        snprintf(reason, sizeof reason, "WebP file of %.0f MB is over the decode-memory budget of %.0f MB",
                 baphoto_megabytes((uint64_t)status.st_size), baphoto_megabytes(limits->budget_bytes));
        return failure(context, BAPHOTO_ERROR_TOO_LARGE, reason);
    }
    context->file_size = (size_t)status.st_size;
    context->file = malloc(context->file_size ? context->file_size : 1);
    if (!context->file) return failure(context, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    size_t done = 0;
    while (done < context->file_size) {
        ssize_t got = read(fd, context->file + done, context->file_size - done);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return failure(context, BAPHOTO_ERROR_IO, strerror(errno));
        if (got == 0) break;
        done += (size_t)got;
    }
    context->file_size = done;
    return BAPHOTO_OK;
}

/* The Orientation of the EXIF chunk (raw TIFF, or TIFF after "Exif\0\0"), or 1. */
static int chunk_orientation(const WebPDemuxer *demux) {
    WebPChunkIterator chunk;
    if (!WebPDemuxGetChunk(demux, "EXIF", 1, &chunk)) return 1;
    const uint8_t *bytes = chunk.chunk.bytes;
    size_t size = chunk.chunk.size;
    if (size > 6 && memcmp(bytes, "Exif\0\0", 6) == 0) {
        bytes += 6;
        size -= 6;
    }
    int orientation = bapng_exif_orientation(bytes, size > UINT32_MAX ? UINT32_MAX : (uint32_t)size);
    WebPDemuxReleaseChunkIterator(&chunk);
    return orientation;
}

/* Demuxes the file, finds the first frame and fills the header; checks the limits. */
static int open_frame(webp_context *context, int fd, const baphoto_limits *limits, baphoto_header *header) {
    memset(header, 0, sizeof *header);
    int status = read_file(context, fd, limits);
    if (status != BAPHOTO_OK) return status;
    WebPData data = {context->file, context->file_size};
    context->demux = WebPDemux(&data);
    if (!context->demux) return failure(context, BAPHOTO_ERROR_CORRUPT, "corrupt or truncated WebP");
    context->has_frame = WebPDemuxGetFrame(context->demux, 1, &context->frame);
    if (!context->has_frame) return failure(context, BAPHOTO_ERROR_CORRUPT, "WebP without an image");
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(context->frame.fragment.bytes, context->frame.fragment.size, &features) != VP8_STATUS_OK) {
        return failure(context, BAPHOTO_ERROR_CORRUPT, "corrupt WebP image data");
    }
    uint32_t flags = WebPDemuxGetI(context->demux, WEBP_FF_FORMAT_FLAGS);
    header->width = (uint32_t)features.width;
    header->height = (uint32_t)features.height;
    header->components = features.has_alpha ? 4 : 3;
    header->animated = (flags & ANIMATION_FLAG) != 0;
    header->orientation = chunk_orientation(context->demux);
    header->whole_image = features.format == 2;
    header->dct_scale_eighths = 8;
    uint64_t whole_image = header->whole_image ? (uint64_t)header->width * header->height * 4 : 0;
    header->whole_image_bytes = context->file_size + whole_image;
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
    if (baphoto_over_pixel_limit(header, limits, reason)) return failure(context, BAPHOTO_ERROR_TOO_LARGE, reason);
    if (header->whole_image_bytes > limits->budget_bytes) {
        snprintf(reason, sizeof reason,
                 "lossless WebP of %ux%u needs %.0f MB to decode, over the decode-memory budget of %.0f MB",
                 header->width, header->height, baphoto_megabytes(header->whole_image_bytes),
                 baphoto_megabytes(limits->budget_bytes));
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
    bapng_placement p = bapng_place(header->width, header->height, canvas->width, canvas->height,
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
    const WebPData *fragment = &context->frame.fragment;
    int status = decode_status(context, WebPDecode(fragment->bytes, fragment->size, &config));
    WebPFreeDecBuffer(&config.output);
    if (status != BAPHOTO_OK) return status;
    for (uint32_t y = p.dst_y; y < p.dst_y + p.dst_h; y++) {
        uint32_t *row = canvas->pixels + (size_t)y * canvas->width;
        for (uint32_t x = p.dst_x; x < p.dst_x + p.dst_w; x++) row[x] &= 0x00FFFFFFu;
    }
    baphoto_canvas_finish(canvas, target);
    return BAPHOTO_OK;
}

/*
 * Copies the chunk `fourcc` (without an "Exif\0\0" name when `strip_exif_name` is set) if it is at most
 * `most` bytes and fits the budget beside what the decode holds; NULL otherwise.
 */
static uint8_t *copy_chunk(const WebPDemuxer *demux, const char *fourcc, int strip_exif_name, size_t most,
                           baphoto_header *header, const baphoto_limits *limits, size_t *length) {
    WebPChunkIterator chunk;
    if (!WebPDemuxGetChunk(demux, fourcc, 1, &chunk)) return NULL;
    const uint8_t *bytes = chunk.chunk.bytes;
    size_t size = chunk.chunk.size;
    if (strip_exif_name && size > 6 && memcmp(bytes, "Exif\0\0", 6) == 0) {
        bytes += 6;
        size -= 6;
    }
    uint8_t *copy = NULL;
    if (size > 0 && size <= most && header->whole_image_bytes + size <= limits->budget_bytes) {
        copy = malloc(size);
        if (copy) {
            memcpy(copy, bytes, size);
            header->whole_image_bytes += size;
            *length = size;
        }
    }
    WebPDemuxReleaseChunkIterator(&chunk);
    return copy;
}

/* The EXIF (at most 64 KB) and ICCP (at most 4 MB) chunks, counted in the decode's bytes. */
static void copy_metadata(const webp_context *context, const baphoto_limits *limits, baphoto_header *header,
                          baphoto_metadata *metadata) {
    metadata->exif = copy_chunk(context->demux, "EXIF", 1, 64u << 10, header, limits, &metadata->exif_length);
    metadata->icc = copy_chunk(context->demux, "ICCP", 0, 4u << 20, header, limits, &metadata->icc_length);
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
    context_free(&context);
    if (status != BAPHOTO_OK && metadata) baphoto_metadata_free(metadata);
    return status;
}

/* The codec layer's one entry point: every format's header and decode, dispatched on the format. */
#include "CPhotoCodec.h"
#include "../CHEIFCodec/include/CHEIFCodec.h"
#include "../CPNGCodec/include/CPNGCodec.h"
#include "../CJPEGCodec/include/CJPEGCodec.h"
#include "../CWebPCodec/include/CWebPCodec.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * Each format's codec is referenced weakly: a decode worker built with one codec (the package's
 * babyalbum-decoder-jpeg, -png, -webp and -heif, scripts/package) links that codec's library
 * alone, and the other codecs read as absent (baphoto_has_codec).
 */
#pragma weak bapng_read_header
#pragma weak bapng_decode
#pragma weak baphoto_jpeg_read_header
#pragma weak baphoto_jpeg_decode
#pragma weak baphoto_webp_read_header
#pragma weak baphoto_webp_decode
#pragma weak baphoto_heif_read_header
#pragma weak baphoto_heif_decode
#pragma weak bapng_version
#pragma weak baphoto_jpeg_version
#pragma weak baphoto_webp_version
#pragma weak baphoto_heif_library_version

int baphoto_has_codec(baphoto_format format) {
    switch (format) {
    case BAPHOTO_FORMAT_PNG: return bapng_read_header && bapng_decode;
    case BAPHOTO_FORMAT_JPEG: return baphoto_jpeg_read_header && baphoto_jpeg_decode;
    case BAPHOTO_FORMAT_WEBP: return baphoto_webp_read_header && baphoto_webp_decode;
    case BAPHOTO_FORMAT_HEIF: return baphoto_heif_read_header && baphoto_heif_decode;
    default: return 0;
    }
}

baphoto_format baphoto_detect_format(int fd) {
    uint8_t head[16] = {0};
    ssize_t got = pread(fd, head, sizeof head, 0);
    if (got >= 8 && memcmp(head, "\x89PNG\r\n\x1a\n", 8) == 0) return BAPHOTO_FORMAT_PNG;
    if (got >= 3 && memcmp(head, "\xff\xd8\xff", 3) == 0) return BAPHOTO_FORMAT_JPEG;
    if (got >= 12 && memcmp(head, "RIFF", 4) == 0 && memcmp(head + 8, "WEBP", 4) == 0) return BAPHOTO_FORMAT_WEBP;
    if (got >= 12 && memcmp(head + 4, "ftyp", 4) == 0) return BAPHOTO_FORMAT_HEIF;
    return BAPHOTO_FORMAT_UNKNOWN;
}

static int unknown_format(baphoto_header *header, char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    memset(header, 0, sizeof *header);
    snprintf(error, BAPHOTO_ERROR_MESSAGE_SIZE, "not a photo (neither JPEG, PNG, WebP nor HEIF)");
    return BAPHOTO_ERROR_WRONG_FORMAT;
}

/* A format whose codec this program was built without (a worker of another format). */
static int codec_absent(baphoto_header *header, char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    memset(header, 0, sizeof *header);
    snprintf(error, BAPHOTO_ERROR_MESSAGE_SIZE, "this decode worker was built without the photo's codec");
    return BAPHOTO_ERROR_UNSUPPORTED;
}

int baphoto_read_header(int fd, baphoto_format format, const baphoto_limits *limits, baphoto_header *header,
                        char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    if (format != BAPHOTO_FORMAT_UNKNOWN && !baphoto_has_codec(format)) return codec_absent(header, error);
    switch (format) {
    case BAPHOTO_FORMAT_PNG: return bapng_read_header(fd, limits, header, error);
    case BAPHOTO_FORMAT_JPEG: return baphoto_jpeg_read_header(fd, limits, header, error);
    case BAPHOTO_FORMAT_WEBP: return baphoto_webp_read_header(fd, limits, header, error);
    case BAPHOTO_FORMAT_HEIF: return baphoto_heif_read_header(fd, limits, header, error);
    default: return unknown_format(header, error);
    }
}

static int decode_format(int fd, baphoto_format format, const baphoto_limits *limits, const baphoto_target *target,
                         baphoto_header *header, baphoto_metadata *metadata, char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    if (format != BAPHOTO_FORMAT_UNKNOWN && !baphoto_has_codec(format)) return codec_absent(header, error);
    switch (format) {
    case BAPHOTO_FORMAT_PNG: return bapng_decode(fd, limits, target, header, metadata, error);
    case BAPHOTO_FORMAT_JPEG: return baphoto_jpeg_decode(fd, limits, target, header, metadata, error);
    case BAPHOTO_FORMAT_WEBP: return baphoto_webp_decode(fd, limits, target, header, metadata, error);
    case BAPHOTO_FORMAT_HEIF: return baphoto_heif_decode(fd, limits, target, header, metadata, error);
    default: return unknown_format(header, error);
    }
}

const char *baphoto_codec_version(baphoto_format format) {
    if (format == BAPHOTO_FORMAT_UNKNOWN || !baphoto_has_codec(format)) return NULL;
    switch (format) {
    case BAPHOTO_FORMAT_PNG: return bapng_version();
    case BAPHOTO_FORMAT_JPEG: return baphoto_jpeg_version();
    case BAPHOTO_FORMAT_WEBP: return baphoto_webp_version();
    case BAPHOTO_FORMAT_HEIF: return baphoto_heif_library_version();
    default: return NULL;
    }
}

int baphoto_decode(int fd, baphoto_format format, const baphoto_limits *limits, const baphoto_target *target,
                   baphoto_header *header, baphoto_metadata *metadata, char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    return decode_format(fd, format, limits, target, header, metadata, error);
}

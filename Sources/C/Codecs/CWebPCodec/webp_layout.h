#ifndef BAPHOTO_WEBP_LAYOUT_H
#define BAPHOTO_WEBP_LAYOUT_H
/*
 * Where a WebP file's first image and its metadata chunks are, found by walking the RIFF
 * chunks with pread instead of demuxing the file: libwebp's demuxer allocates a record for
 * every frame of an animation (1.8 million 1x1 frames took 300 MB) and needs the whole file in
 * memory. Only the first image's bytes, the EXIF chunk and the ICCP chunk are read later.
 */
#include <stdint.h>

/** Most chunks looked at, top-level and inside the first frame; later ones are not read. */
#define BAWEBP_MAX_CHUNKS 64

/** A byte range of the file. */
typedef struct {
    uint64_t offset;
    uint64_t size;
} bawebp_span;

typedef struct {
    /* The bytes libwebp decodes: [ALPH] VP8 or VP8L, with their chunk headers. */
    bawebp_span image;
    bawebp_span exif, iccp;
    /* The VP8X flags (0 for a simple file). */
    uint32_t flags;
} bawebp_layout;

/** VP8X's animation flag. */
#define BAWEBP_ANIMATION_FLAG 0x02u

/**
 * Walks the file at `fd` (of `file_size` bytes); returns 0, or -1 with a reason when there is no
 * image (not a WebP, truncated, or an image chunk that runs past the end).
 */
int bawebp_find_layout(int fd, uint64_t file_size, bawebp_layout *layout, const char **reason);

/** Reads `span` of `fd` into `out` (span.size bytes); returns 0 or -1. */
int bawebp_read_span(int fd, bawebp_span span, uint8_t *out);

#endif

#include "webp_layout.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static uint32_t le32(const uint8_t *bytes) {
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
}

int bawebp_read_span(int fd, bawebp_span span, uint8_t *out) {
    uint64_t done = 0;
    while (done < span.size) {
        ssize_t got = pread(fd, out + done, (size_t)(span.size - done), (off_t)(span.offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return -1;
        done += (uint64_t)got;
    }
    return 0;
}

/* The chunk at `offset`: its fourcc and payload size; 0 or -1 when its header is not there. */
static int chunk_at(int fd, uint64_t offset, uint64_t end, uint8_t fourcc[4], uint64_t *size) {
    uint8_t header[8];
    if (offset + 8 > end || bawebp_read_span(fd, (bawebp_span){offset, 8}, header) != 0) return -1;
    memcpy(fourcc, header, 4);
    *size = le32(header + 4);
    return 0;
}

static int is_image(const uint8_t fourcc[4]) { return memcmp(fourcc, "VP8 ", 4) == 0 || memcmp(fourcc, "VP8L", 4) == 0; }

/*
 * Finds [ALPH] VP8/VP8L among the chunks in [offset, end): the first image of the file or of an
 * ANMF frame. Counts the chunks looked at in `*chunks`.
 */
static int find_image(int fd, uint64_t offset, uint64_t end, int *chunks, bawebp_span *image) {
    uint64_t alpha = UINT64_MAX;
    while (offset < end && (*chunks)++ < BAWEBP_MAX_CHUNKS) {
        uint8_t fourcc[4];
        uint64_t size;
        if (chunk_at(fd, offset, end, fourcc, &size) != 0) return -1;
        uint64_t next = offset + 8 + size + (size & 1);
        if (is_image(fourcc)) {
            if (offset + 8 + size > end) return -1;
            uint64_t start = alpha != UINT64_MAX ? alpha : offset;
            *image = (bawebp_span){start, offset + 8 + size - start};
            return 0;
        }
        alpha = memcmp(fourcc, "ALPH", 4) == 0 ? offset : UINT64_MAX;
        offset = next;
    }
    return -1;
}

static void note_metadata(const uint8_t fourcc[4], uint64_t offset, uint64_t size, uint64_t end,
                          bawebp_layout *layout) {
    bawebp_span span = {offset + 8, size};
    if (offset + 8 + size > end) return;
    if (memcmp(fourcc, "EXIF", 4) == 0 && layout->exif.size == 0) layout->exif = span;
    if (memcmp(fourcc, "ICCP", 4) == 0 && layout->iccp.size == 0) layout->iccp = span;
}

int bawebp_find_layout(int fd, uint64_t file_size, bawebp_layout *layout, const char **reason) {
    memset(layout, 0, sizeof *layout);
    *reason = "corrupt or truncated WebP";
    uint8_t riff[12];
    if (file_size < 20 || bawebp_read_span(fd, (bawebp_span){0, 12}, riff) != 0) return -1;
    if (memcmp(riff, "RIFF", 4) != 0 || memcmp(riff + 8, "WEBP", 4) != 0) return -1;
    uint64_t end = 8 + (uint64_t)le32(riff + 4);
    if (end > file_size) {
        *reason = "truncated WebP: the file is shorter than its RIFF header says";
        return -1;
    }
    int chunks = 0, found = 0;
    for (uint64_t offset = 12; offset < end && chunks++ < BAWEBP_MAX_CHUNKS;) {
        uint8_t fourcc[4];
        uint64_t size;
        if (chunk_at(fd, offset, end, fourcc, &size) != 0) break;
        uint8_t flags[4];
        if (memcmp(fourcc, "VP8X", 4) == 0 && size >= 4 && bawebp_read_span(fd, (bawebp_span){offset + 8, 4}, flags) == 0) {
            layout->flags = le32(flags);
        } else if (!found && memcmp(fourcc, "ANMF", 4) == 0 && size > 16) {
            uint64_t frame_end = offset + 8 + size < end ? offset + 8 + size : end;
            found = find_image(fd, offset + 8 + 16, frame_end, &chunks, &layout->image) == 0;
            if (!found) break;
        } else if (!found && (is_image(fourcc) || memcmp(fourcc, "ALPH", 4) == 0)) {
            found = find_image(fd, offset, end, &chunks, &layout->image) == 0;
            if (!found) break;
            offset = layout->image.offset + layout->image.size;
            offset += offset & 1;
            continue;
        }
        note_metadata(fourcc, offset, size, end, layout);
        offset += 8 + size + (size & 1);
    }
    if (!found) {
        *reason = "WebP without an image (corrupt or truncated)";
        return -1;
    }
    return 0;
}

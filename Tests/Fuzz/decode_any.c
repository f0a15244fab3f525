#include "decode_any.h"

#include "CPhotoCodec.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TARGET_WIDTH = 48, TARGET_HEIGHT = 30 };

/* The PNG's header, then two decodes (fill with its metadata, eXIf copy included; fit through the Adam7 path). */
static void decode_png(const char *path) {
    baphoto_limits limits = {.max_pixels = 4000000, .max_chunk_bytes = 1 << 20};
    baphoto_header header;
    char error[BAPHOTO_ERROR_MESSAGE_SIZE];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    baphoto_read_header(fd, BAPHOTO_FORMAT_PNG, &limits, &header, error);
    static uint32_t pixels[TARGET_WIDTH * TARGET_HEIGHT];
    baphoto_target fill = {.pixels = pixels, .width = TARGET_WIDTH, .height = TARGET_HEIGHT, .scale = BAPHOTO_SCALE_FILL};
    baphoto_metadata metadata = {0};
    baphoto_decode(fd, BAPHOTO_FORMAT_PNG, &limits, &fill, &header, &metadata, error);
    baphoto_metadata_free(&metadata);
    baphoto_target fit = {
        .pixels = pixels, .width = TARGET_HEIGHT, .height = TARGET_WIDTH, .scale = BAPHOTO_SCALE_FIT, .whole_image = 1};
    baphoto_decode(fd, BAPHOTO_FORMAT_PNG, &limits, &fit, &header, NULL, error);
    close(fd);
}

/* The header, then a fill decode with the metadata (and its colour conversion) and a turned fit without. */
static void decode_photo(const char *path, baphoto_format format) {
    baphoto_limits limits = {.max_pixels = 4000000, .budget_bytes = 64u << 20, .max_scans = 64};
    baphoto_header header;
    char error[BAPHOTO_ERROR_MESSAGE_SIZE];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    baphoto_read_header(fd, format, &limits, &header, error);
    close(fd);
    static uint32_t pixels[TARGET_WIDTH * TARGET_HEIGHT];
    for (int turns = 0; turns < 2; turns++) {
        memset(pixels, 0, sizeof pixels);
        baphoto_target target = {pixels, TARGET_WIDTH, TARGET_HEIGHT, turns ? BAPHOTO_SCALE_FIT : BAPHOTO_SCALE_FILL,
                                 0, turns};
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) return;
        baphoto_metadata metadata = {0};
        baphoto_decode(fd, format, &limits, &target, &header, turns ? NULL : &metadata, error);
        if (!turns) baphoto_metadata_free(&metadata);
        close(fd);
    }
}

fuzz_format decode_any_file(const char *path, const unsigned char *head, size_t head_length) {
    static const unsigned char png[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    if (head_length >= 8 && memcmp(head, png, 8) == 0) {
        decode_png(path);
        return FORMAT_PNG;
    }
    if (head_length >= 2 && head[0] == 0xFF && head[1] == 0xD8) {
        decode_photo(path, BAPHOTO_FORMAT_JPEG);
        return FORMAT_JPEG;
    }
    if (head_length >= 12 && memcmp(head, "RIFF", 4) == 0 && memcmp(head + 8, "WEBP", 4) == 0) {
        decode_photo(path, BAPHOTO_FORMAT_WEBP);
        return FORMAT_WEBP;
    }
    if (head_length >= 12 && memcmp(head + 4, "ftyp", 4) == 0) {
        decode_photo(path, BAPHOTO_FORMAT_HEIF);
        return FORMAT_HEIF;
    }
    decode_png(path); /* not a photo: every decoder must refuse it cleanly */
    return FORMAT_OTHER;
}

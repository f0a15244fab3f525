#include "decode_any.h"

#include "CHEIFCodec.h"
#include "CPNGCodec.h"
#include "CPhotoCodec.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TARGET_WIDTH = 48, TARGET_HEIGHT = 30 };

static void decode_png(const char *path) {
    baphoto_limits limits = {.max_pixels = 4000000, .max_chunk_bytes = 1 << 20};
    static uint8_t exif[4096]; /* the eXIf copy is fuzzed too */
    bapng_header header = {.exif = exif, .exif_capacity = sizeof exif};
    char error[BAPHOTO_ERROR_MESSAGE_SIZE];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    bapng_read_header(fd, &limits, &header, error);
    static uint32_t pixels[TARGET_WIDTH * TARGET_HEIGHT];
    baphoto_target fill = {.pixels = pixels, .width = TARGET_WIDTH, .height = TARGET_HEIGHT, .scale = BAPHOTO_SCALE_FILL};
    bapng_decode(fd, &limits, &fill, &header, error);
    baphoto_target fit = {
        .pixels = pixels, .width = TARGET_HEIGHT, .height = TARGET_WIDTH, .scale = BAPHOTO_SCALE_FIT, .whole_image = 1};
    bapng_decode(fd, &limits, &fit, &header, error);
    close(fd);
}

typedef int (*photo_header_fn)(int, const baphoto_limits *, baphoto_header *, char *);
typedef int (*photo_decode_fn)(int, const baphoto_limits *, const baphoto_target *, baphoto_header *,
                               baphoto_metadata *, char *);

static void decode_photo(const char *path, photo_header_fn read_header, photo_decode_fn decode) {
    baphoto_limits limits = {.max_pixels = 4000000, .budget_bytes = 64u << 20, .max_scans = 64};
    baphoto_header header;
    char error[BAPHOTO_ERROR_MESSAGE_SIZE];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    read_header(fd, &limits, &header, error);
    close(fd);
    static uint32_t pixels[TARGET_WIDTH * TARGET_HEIGHT];
    for (int turns = 0; turns < 2; turns++) {
        memset(pixels, 0, sizeof pixels);
        baphoto_target target = {pixels, TARGET_WIDTH, TARGET_HEIGHT, turns ? BAPHOTO_SCALE_FIT : BAPHOTO_SCALE_FILL,
                                 0, turns};
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) return;
        baphoto_metadata metadata;
        decode(fd, &limits, &target, &header, turns ? NULL : &metadata, error);
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
        decode_photo(path, baphoto_jpeg_read_header, baphoto_jpeg_decode);
        return FORMAT_JPEG;
    }
    if (head_length >= 12 && memcmp(head, "RIFF", 4) == 0 && memcmp(head + 8, "WEBP", 4) == 0) {
        decode_photo(path, baphoto_webp_read_header, baphoto_webp_decode);
        return FORMAT_WEBP;
    }
    if (head_length >= 12 && memcmp(head + 4, "ftyp", 4) == 0) {
        decode_photo(path, baphoto_heif_read_header, baphoto_heif_decode);
        return FORMAT_HEIF;
    }
    decode_png(path); /* not a photo: every decoder must refuse it cleanly */
    return FORMAT_OTHER;
}

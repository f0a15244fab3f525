#include "heif_bits.h"
#include "heif_grid.h"

/*
 * The coded size of an AV1 image from its data (AV1 5.3, 5.5): the sequence header OBU's
 * max_frame_width_minus_1 and max_frame_height_minus_1, read with a bounded bit reader. An
 * `av1C` may leave its configOBUs out (libheif's encoder does), so the item's own data is read.
 */

/* How many OBUs are looked at before the sequence header: it comes first, after a temporal delimiter. */
#define MAX_OBUS 8
#define OBU_SEQUENCE_HEADER 1

/* uvlc() (4.10.3), skipped. */
static void skip_uvlc(baheif_bits *b) {
    unsigned zeros = 0;
    while (!b->bad && baheif_read_bits(b, 1) == 0)
        if (++zeros >= 32) b->bad = 1;
    if (!b->bad) baheif_read_bits(b, zeros);
}

/* leb128() (4.10.5): at most 8 bytes; 0 (and `*bad`) when it runs out. */
static uint64_t leb128(const uint8_t *data, size_t size, size_t *at, int *bad) {
    uint64_t value = 0;
    for (unsigned i = 0; i < 8; i++) {
        if (*at >= size) break;
        uint8_t byte = data[(*at)++];
        value |= (uint64_t)(byte & 0x7f) << (7 * i);
        if (!(byte & 0x80)) return value;
    }
    *bad = 1;
    return 0;
}

/* The timing and operating-point fields before the frame size (5.5.1), skipped. */
static void skip_operating_points(baheif_bits *b) {
    int decoder_model = 0;
    unsigned delay_length = 0;
    if (baheif_read_bits(b, 1)) { /* timing_info_present_flag */
        baheif_read_bits(b, 32);
        baheif_read_bits(b, 32);
        if (baheif_read_bits(b, 1)) skip_uvlc(b);
        decoder_model = (int)baheif_read_bits(b, 1);
        if (decoder_model) {
            delay_length = baheif_read_bits(b, 5) + 1;
            baheif_read_bits(b, 32);
            baheif_read_bits(b, 10);
        }
    }
    int display_delay = (int)baheif_read_bits(b, 1);
    unsigned points = baheif_read_bits(b, 5) + 1;
    for (unsigned i = 0; i < points && !b->bad; i++) {
        baheif_read_bits(b, 12);
        if (baheif_read_bits(b, 5) > 7) baheif_read_bits(b, 1);
        if (decoder_model && baheif_read_bits(b, 1)) {
            baheif_read_bits(b, delay_length);
            baheif_read_bits(b, delay_length);
            baheif_read_bits(b, 1);
        }
        if (display_delay && baheif_read_bits(b, 1)) baheif_read_bits(b, 4);
    }
}

static int sequence_header_size(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height) {
    baheif_bits b = {.data = data, .size = size};
    baheif_read_bits(&b, 3);
    baheif_read_bits(&b, 1);
    if (baheif_read_bits(&b, 1)) baheif_read_bits(&b, 5); /* reduced_still_picture_header: seq_level_idx */
    else skip_operating_points(&b);
    unsigned width_bits = baheif_read_bits(&b, 4) + 1, height_bits = baheif_read_bits(&b, 4) + 1;
    uint32_t w = baheif_read_bits(&b, width_bits) + 1, h = baheif_read_bits(&b, height_bits) + 1;
    if (b.bad) return -1;
    *width = w;
    *height = h;
    return 0;
}

int baheif_av1_size(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height) {
    size_t at = 0;
    for (int n = 0; n < MAX_OBUS && at < size; n++) {
        uint8_t header = data[at++];
        unsigned type = (header >> 3) & 15;
        if (header & 4) at++; /* obu_extension_flag */
        int bad = 0;
        uint64_t length = (header & 2) ? leb128(data, size, &at, &bad) : size - (at < size ? at : size);
        if (bad || at > size || length > size - at) return -1;
        if (type == OBU_SEQUENCE_HEADER) return sequence_header_size(data + at, (size_t)length, width, height);
        at += (size_t)length;
    }
    return -1;
}

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

/* The most operating points a sequence header lists (5.5.1: operating_points_cnt_minus_1 is 5 bits). */
#define MAX_OPERATING_POINTS 32

/* The timing and operating-point fields before the frame size (5.5.1), skipped; each operating
 * point's operating_point_idc goes to `idc` (when not NULL), their number to `*count`. */
static void read_operating_points(baheif_bits *b, uint32_t *idc, unsigned *count) {
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
    if (count) *count = points;
    for (unsigned i = 0; i < points && !b->bad; i++) {
        uint32_t point_idc = baheif_read_bits(b, 12);
        if (idc) idc[i] = point_idc;
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
    else read_operating_points(&b, NULL, NULL);
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

/* One OBU of `data` at `*at`: its header's offset, its type and extension byte (0 without one),
 * and the span of its payload. Returns 0, or -1 at the end or on a damaged OBU. */
static int next_obu(const uint8_t *data, size_t size, size_t *at, size_t *header, unsigned *type, int *extension,
                    size_t *payload, size_t *length) {
    if (*at >= size) return -1;
    *header = *at;
    uint8_t byte = data[(*at)++];
    *type = (byte >> 3) & 15;
    *extension = -1;
    if (byte & 4) {
        if (*at >= size) return -1;
        *extension = data[(*at)++];
    }
    int bad = 0;
    uint64_t count = (byte & 2) ? leb128(data, size, at, &bad) : size - *at;
    if (bad || *at > size || count > size - *at) return -1;
    *payload = *at;
    *length = (size_t)count;
    *at += (size_t)count;
    return 0;
}

#define OBU_PADDING 15

int baheif_av1_operating_points(const uint8_t *data, size_t size) {
    size_t at = 0, header, payload, length;
    unsigned type, points = 0;
    int extension;
    for (int n = 0; n < MAX_OBUS; n++) {
        if (next_obu(data, size, &at, &header, &type, &extension, &payload, &length) != 0) return -1;
        if (type != OBU_SEQUENCE_HEADER) continue;
        baheif_bits b = {.data = data + payload, .size = length};
        baheif_read_bits(&b, 4);
        if (baheif_read_bits(&b, 1)) return 1; /* reduced_still_picture_header: one operating point */
        read_operating_points(&b, NULL, &points);
        return b.bad ? -1 : (int)points;
    }
    return -1;
}

int baheif_av1_select_layer(uint8_t *data, size_t size, int operating_point, int layer) {
    uint32_t idc[MAX_OPERATING_POINTS] = {0};
    unsigned points = 0, type;
    size_t at = 0, header, payload, length;
    int extension, found = 0;
    for (int n = 0; n < MAX_OBUS && !found; n++) {
        if (next_obu(data, size, &at, &header, &type, &extension, &payload, &length) != 0) return -1;
        if (type != OBU_SEQUENCE_HEADER) continue;
        baheif_bits b = {.data = data + payload, .size = length};
        baheif_read_bits(&b, 4);
        if (baheif_read_bits(&b, 1)) return 0; /* reduced_still_picture_header: one layer */
        read_operating_points(&b, idc, &points);
        if (b.bad) return -1;
        found = 1;
    }
    if (!found) return -1;
    if (operating_point < 0) operating_point = 0;
    if ((unsigned)operating_point >= points) return -1;
    uint32_t chosen = idc[operating_point];
    unsigned spatial = chosen >> 8, temporal = chosen & 0xff;
    /* The layer shown: the one `lsel` names, else the highest of the operating point. */
    int top = 3;
    if (layer >= 0) top = layer;
    else if (spatial)
        while (top > 0 && !(spatial & (1u << top))) top--;
    int padded = 0;
    at = 0;
    while (at < size) {
        if (next_obu(data, size, &at, &header, &type, &extension, &payload, &length) != 0) return padded ? padded : -1;
        if (extension < 0 || type == OBU_SEQUENCE_HEADER || type == 2 /* temporal delimiter */ || type == OBU_PADDING)
            continue;
        unsigned spatial_id = ((unsigned)extension >> 3) & 3, temporal_id = (unsigned)extension >> 5;
        int outside = (int)spatial_id > top;
        if (chosen && (!(spatial & (1u << spatial_id)) || !(temporal & (1u << temporal_id)))) outside = 1;
        if (!outside) continue;
        data[header] = (uint8_t)((data[header] & ~0x78) | (OBU_PADDING << 3));
        padded++;
    }
    return padded;
}

/* Writes `count` bits of `value` at bit `at` of `data` (most significant first). */
static void write_bits(uint8_t *data, size_t at, unsigned count, uint32_t value) {
    for (unsigned i = 0; i < count; i++, at++) {
        uint8_t bit = (uint8_t)(1u << (7 - at % 8));
        if ((value >> (count - 1 - i)) & 1) data[at / 8] |= bit;
        else data[at / 8] &= (uint8_t)~bit;
    }
}

/* The sequence header (5.5) read up to its color_config: the colour description and range. */
static int sequence_header_colour(const uint8_t *data, size_t size, baheif_av1_colour *colour) {
    baheif_bits b = {.data = data, .size = size};
    unsigned profile = baheif_read_bits(&b, 3);
    baheif_read_bits(&b, 1);
    int reduced = (int)baheif_read_bits(&b, 1);
    if (reduced) baheif_read_bits(&b, 5);
    else read_operating_points(&b, NULL, NULL);
    unsigned width_bits = baheif_read_bits(&b, 4) + 1, height_bits = baheif_read_bits(&b, 4) + 1;
    baheif_read_bits(&b, width_bits);
    baheif_read_bits(&b, height_bits);
    if (!reduced && baheif_read_bits(&b, 1)) { /* frame_id_numbers_present_flag */
        baheif_read_bits(&b, 4);
        baheif_read_bits(&b, 3);
    }
    baheif_read_bits(&b, 3); /* use_128x128_superblock, enable_filter_intra, enable_intra_edge_filter */
    if (!reduced) {
        baheif_read_bits(&b, 4); /* interintra, masked compound, warped motion, dual filter */
        int order_hint = (int)baheif_read_bits(&b, 1);
        if (order_hint) baheif_read_bits(&b, 2); /* enable_jnt_comp, enable_ref_frame_mvs */
        unsigned force_screen_content = 2;
        if (!baheif_read_bits(&b, 1)) force_screen_content = baheif_read_bits(&b, 1); /* seq_choose_screen_content_tools */
        if (force_screen_content > 0 && !baheif_read_bits(&b, 1)) baheif_read_bits(&b, 1); /* integer mv */
        if (order_hint) baheif_read_bits(&b, 3);
    }
    baheif_read_bits(&b, 3); /* enable_superres, enable_cdef, enable_restoration */
    /* color_config (5.5.2) */
    int high = (int)baheif_read_bits(&b, 1);
    if (profile == 2 && high) baheif_read_bits(&b, 1);
    int mono = profile == 1 ? 0 : (int)baheif_read_bits(&b, 1);
    colour->primaries = colour->transfer = colour->matrix = 2;
    if (baheif_read_bits(&b, 1)) { /* color_description_present_flag */
        colour->primaries = (int)baheif_read_bits(&b, 8);
        colour->transfer = (int)baheif_read_bits(&b, 8);
        colour->matrix = (int)baheif_read_bits(&b, 8);
    }
    if (mono || !(colour->primaries == 1 && colour->transfer == 13 && colour->matrix == 0))
        colour->full = (int)baheif_read_bits(&b, 1);
    else
        colour->full = 1; /* sRGB in 4:4:4: full range, not coded */
    return b.bad ? -1 : 0;
}

int baheif_av1_read_colour(const uint8_t *data, size_t size, baheif_av1_colour *colour) {
    size_t at = 0, header, payload, length;
    unsigned type;
    int extension;
    for (int n = 0; n < MAX_OBUS; n++) {
        if (next_obu(data, size, &at, &header, &type, &extension, &payload, &length) != 0) return -1;
        if (type == OBU_SEQUENCE_HEADER) return sequence_header_colour(data + payload, length, colour);
    }
    return -1;
}

int baheif_av1_limit_size(uint8_t *data, size_t size, uint32_t width, uint32_t height) {
    size_t at = 0, header, payload, length;
    unsigned type;
    int extension, changed = 0;
    while (at < size) {
        if (next_obu(data, size, &at, &header, &type, &extension, &payload, &length) != 0) break;
        if (type != OBU_SEQUENCE_HEADER) continue;
        baheif_bits b = {.data = data + payload, .size = length};
        baheif_read_bits(&b, 4);
        if (baheif_read_bits(&b, 1)) baheif_read_bits(&b, 5);
        else read_operating_points(&b, NULL, NULL);
        unsigned width_bits = baheif_read_bits(&b, 4) + 1, height_bits = baheif_read_bits(&b, 4) + 1;
        size_t width_at = b.bit;
        uint32_t w = baheif_read_bits(&b, width_bits) + 1, h = baheif_read_bits(&b, height_bits) + 1;
        if (b.bad || width > w || height > h || width == 0 || height == 0) continue;
        write_bits(data + payload, width_at, width_bits, width - 1);
        write_bits(data + payload, width_at + width_bits, height_bits, height - 1);
        changed++;
    }
    return changed;
}

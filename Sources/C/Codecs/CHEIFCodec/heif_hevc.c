#include "heif_bits.h"
#include "heif_grid.h"

/*
 * The coded size of an HEVC image from its `hvcC` (ISO/IEC 14496-15 8.3.3): the first sequence
 * parameter set's pic_width_in_luma_samples and pic_height_in_luma_samples (H.265 7.3.2.2),
 * read through a bounded bit reader that drops the emulation-prevention bytes.
 */

#define SPS_NAL_TYPE 33
/* The most SPS bytes looked at: the size comes within the first few dozen. */
#define SPS_BYTES 256

/* ue(v): an Exp-Golomb code (at most 31 leading zeros). */
static uint32_t read_ue(baheif_bits *b) {
    unsigned zeros = 0;
    while (!b->bad && baheif_read_bits(b, 1) == 0)
        if (++zeros > 31) b->bad = 1;
    if (b->bad) return 0;
    return (uint32_t)(((uint64_t)1 << zeros) - 1 + baheif_read_bits(b, zeros));
}

/* The NAL unit's payload without its 2-byte header and emulation-prevention bytes, into `out`
 * (SPS_BYTES at most); returns its length. */
static size_t unescape(const uint8_t *nal, size_t length, uint8_t out[SPS_BYTES]) {
    unsigned zeros = 0;
    size_t size = 0;
    for (size_t i = 2; i < length && size < SPS_BYTES; i++) {
        if (zeros >= 2 && nal[i] == 3) {
            zeros = 0;
            continue;
        }
        zeros = nal[i] == 0 ? zeros + 1 : 0;
        out[size++] = nal[i];
    }
    return size;
}

/* profile_tier_level(1, max_sub_layers_minus1), skipped. */
static void skip_profile_tier_level(baheif_bits *b, unsigned sub_layers) {
    baheif_read_bits(b, 8);
    baheif_read_bits(b, 32);
    baheif_read_bits(b, 32);
    baheif_read_bits(b, 16);
    baheif_read_bits(b, 8);
    unsigned profile_present[8] = {0}, level_present[8] = {0};
    for (unsigned i = 0; i < sub_layers; i++) {
        profile_present[i] = baheif_read_bits(b, 1);
        level_present[i] = baheif_read_bits(b, 1);
    }
    if (sub_layers > 0)
        for (unsigned i = sub_layers; i < 8; i++) baheif_read_bits(b, 2);
    for (unsigned i = 0; i < sub_layers; i++) {
        if (profile_present[i]) {
            baheif_read_bits(b, 32);
            baheif_read_bits(b, 32);
            baheif_read_bits(b, 24);
        }
        if (level_present[i]) baheif_read_bits(b, 8);
    }
}

static int sps_size(const uint8_t *nal, size_t length, uint32_t *width, uint32_t *height) {
    uint8_t payload[SPS_BYTES];
    baheif_bits b = {.data = payload, .size = unescape(nal, length, payload)};
    baheif_read_bits(&b, 4);
    unsigned sub_layers = baheif_read_bits(&b, 3);
    baheif_read_bits(&b, 1);
    if (sub_layers > 6) return -1;
    skip_profile_tier_level(&b, sub_layers);
    read_ue(&b);
    if (read_ue(&b) == 3) baheif_read_bits(&b, 1);
    uint32_t w = read_ue(&b), h = read_ue(&b);
    if (b.bad || w == 0 || h == 0) return -1;
    *width = w;
    *height = h;
    return 0;
}

int baheif_hvcc_size(const uint8_t *hvcc, size_t size, uint32_t *width, uint32_t *height) {
    if (size < 23) return -1;
    size_t at = 23;
    unsigned arrays = hvcc[22];
    for (unsigned a = 0; a < arrays; a++) {
        if (size - at < 3) return -1;
        unsigned type = hvcc[at] & 0x3f, count = ((unsigned)hvcc[at + 1] << 8) | hvcc[at + 2];
        at += 3;
        for (unsigned n = 0; n < count; n++) {
            if (size - at < 2) return -1;
            size_t length = ((size_t)hvcc[at] << 8) | hvcc[at + 1];
            at += 2;
            if (size - at < length) return -1;
            if (type == SPS_NAL_TYPE && length > 2) return sps_size(hvcc + at, length, width, height);
            at += length;
        }
    }
    return -1;
}

#ifndef BAHEIF_BITS_H
#define BAHEIF_BITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * A bounded, most-significant-bit-first bit reader over a byte buffer, shared by the AV1 and
 * HEVC size readers. Reading past the end sets `bad` and yields 0, so a caller checks `bad`
 * once at the end.
 */
typedef struct {
    const uint8_t *data;
    size_t size, bit;
    int bad;
} baheif_bits;

static inline uint32_t baheif_read_bits(baheif_bits *b, unsigned count) {
    uint32_t value = 0;
    for (unsigned i = 0; i < count; i++) {
        if (b->bit >= b->size * 8) {
            b->bad = 1;
            return 0;
        }
        value = (value << 1) | ((b->data[b->bit / 8] >> (7 - b->bit % 8)) & 1);
        b->bit++;
    }
    return value;
}

#endif

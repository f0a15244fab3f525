/*
 * The fuzz job of the test command: seeded mutants of the photo fixtures through BabyAlbum's
 * decoders, built with AddressSanitizer and UndefinedBehaviorSanitizer (Tests/Fuzz/run).
 *
 *   mutants [--seconds S] [--min N] [--seed N] SCRATCH_DIR FILE...
 *
 * Each mutant is one seed file with 1 to 8 mutations (bit flips, bytes set to edge values,
 * a chunk length or a 32-bit field changed, bytes inserted, removed, duplicated, the file cut);
 * for PNG seeds, half the mutants get every chunk CRC recomputed, so the damage reaches the
 * zlib stream and the pixel paths instead of stopping at the first CRC check. Mutants are made
 * until the time is up; fewer than --min of them is a failure. A sanitizer report aborts the
 * run (the file that caused it is kept in SCRATCH_DIR as crash-input).
 */
#include "decode_any.h"
#include "fuzz_random.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

typedef struct {
    unsigned char *bytes;
    size_t length;
} buffer;

static size_t below(size_t n) { return n ? (size_t)(next_random() % n) : 0; }

static int read_file(const char *path, buffer *out) {
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    out->bytes = malloc(length > 0 ? (size_t)length : 1);
    out->length = length > 0 ? (size_t)length : 0;
    size_t got = out->bytes ? fread(out->bytes, 1, out->length, file) : 0;
    fclose(file);
    return out->bytes && got == out->length ? 0 : -1;
}

static void put_be32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static uint32_t get_be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Recomputes the CRC of every whole chunk of a PNG. */
static void fix_png_crcs(buffer *b) {
    size_t offset = 8;
    while (offset + 12 <= b->length) {
        uint32_t length = get_be32(b->bytes + offset);
        if (length > b->length - offset - 12) break;
        uLong crc = crc32(0, b->bytes + offset + 4, length + 4);
        put_be32(b->bytes + offset + 8 + length, (uint32_t)crc);
        offset += 12 + (size_t)length;
    }
}

/* One random mutation of `b` (which has room for `capacity` bytes). */
static void mutate_once(buffer *b, size_t capacity) {
    static const uint32_t edges[] = {0, 1, 0x7F, 0x80, 0xFF, 0xFFFF, 0x7FFFFFFF, 0x80000000u, 0xFFFFFFFFu, 16384, 65535};
    if (b->length == 0) return;
    size_t at = below(b->length);
    switch (below(8)) {
    case 0: b->bytes[at] ^= (unsigned char)(1u << below(8)); break;
    case 1: b->bytes[at] = (unsigned char)edges[below(sizeof edges / sizeof edges[0])]; break;
    case 2: b->bytes[at] = (unsigned char)next_random(); break;
    case 3: /* a 32-bit field (a chunk length, a width, a marker length) set to an edge value */
        if (b->length >= 4) put_be32(b->bytes + below(b->length - 3), edges[below(sizeof edges / sizeof edges[0])]);
        break;
    case 4: { /* insert up to 64 random bytes */
        size_t count = 1 + below(64);
        if (b->length + count > capacity) break;
        memmove(b->bytes + at + count, b->bytes + at, b->length - at);
        for (size_t i = 0; i < count; i++) b->bytes[at + i] = (unsigned char)next_random();
        b->length += count;
        break;
    }
    case 5: { /* remove up to 256 bytes */
        size_t count = 1 + below(256);
        if (count > b->length - at) count = b->length - at;
        memmove(b->bytes + at, b->bytes + at + count, b->length - at - count);
        b->length -= count;
        break;
    }
    case 6: { /* duplicate a run of up to 512 bytes */
        size_t count = 1 + below(512);
        if (count > b->length - at) count = b->length - at;
        if (b->length + count > capacity) break;
        memmove(b->bytes + at + count, b->bytes + at, b->length - at);
        b->length += count;
        break;
    }
    default: b->length = at; /* cut the file */
    }
}

static int write_file(const char *path, const buffer *b) {
    FILE *file = fopen(path, "wb");
    if (!file) return -1;
    size_t put = fwrite(b->bytes, 1, b->length, file);
    return fclose(file) == 0 && put == b->length ? 0 : -1;
}

static double seconds_since(const struct timespec *start) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    double budget = 60;
    long minimum = 2000;
    uint64_t seed = 1;
    int first = 1;
    for (; first + 1 < argc && strncmp(argv[first], "--", 2) == 0; first += 2) {
        if (strcmp(argv[first], "--seconds") == 0) budget = atof(argv[first + 1]);
        else if (strcmp(argv[first], "--min") == 0) minimum = atol(argv[first + 1]);
        else if (strcmp(argv[first], "--seed") == 0) seed = strtoull(argv[first + 1], NULL, 10);
    }
    if (argc - first < 2) {
        fprintf(stderr, "usage: mutants [--seconds S] [--min N] [--seed N] SCRATCH_DIR FILE...\n");
        return 2;
    }
    const char *scratch = argv[first];
    int seeds = argc - first - 1;
    buffer *originals = calloc((size_t)seeds, sizeof *originals);
    for (int i = 0; i < seeds; i++) {
        if (read_file(argv[first + 1 + i], &originals[i]) != 0) {
            fprintf(stderr, "cannot read %s\n", argv[first + 1 + i]);
            return 2;
        }
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/crash-input", scratch);
    rng_state = seed;
    long made = 0, by_format[5] = {0};
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (seconds_since(&start) < budget) {
        const buffer *original = &originals[below((size_t)seeds)];
        size_t capacity = original->length + 8 * 600 + 1;
        buffer mutant = {malloc(capacity), original->length};
        memcpy(mutant.bytes, original->bytes, original->length);
        int mutations = 1 + (int)below(8);
        for (int m = 0; m < mutations; m++) mutate_once(&mutant, capacity);
        int is_png = original->length >= 8 && memcmp(original->bytes, "\211PNG", 4) == 0;
        if (is_png && below(2)) fix_png_crcs(&mutant);
        if (write_file(path, &mutant) != 0) {
            fprintf(stderr, "cannot write %s\n", path);
            return 2;
        }
        by_format[decode_any_file(path, mutant.bytes, mutant.length)]++;
        free(mutant.bytes);
        made++;
    }
    remove(path);
    for (int i = 0; i < seeds; i++) free(originals[i].bytes);
    free(originals);
    printf("fuzz: %ld mutants of %d seed files in %.0f s (seed %llu): %ld PNG, %ld JPEG, %ld WebP, %ld HEIF, %ld other\n",
           made, seeds, seconds_since(&start), (unsigned long long)seed, by_format[FORMAT_PNG], by_format[FORMAT_JPEG],
           by_format[FORMAT_WEBP], by_format[FORMAT_HEIF], by_format[FORMAT_OTHER]);
    if (made < minimum) {
        printf("fuzz: only %ld mutants in the time budget, fewer than %ld\n", made, minimum);
        printf("fuzz: %ld mutants, 1 failure\n", made);
        return 1;
    }
    printf("fuzz: %ld mutants, 0 failures\n", made);
    return 0;
}

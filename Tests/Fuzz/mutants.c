/*
 * The fuzz job of the test command: seeded mutants of the photo fixtures through BabyAlbum's
 * decoders, built with AddressSanitizer and UndefinedBehaviorSanitizer (Tests/Fuzz/run).
 *
 *   mutants [--seconds S] [--min N] [--seed N] SCRATCH_DIR FILE...
 *
 * Each mutant is one seed file with 1 to 8 mutations (bit flips, bytes set to edge values,
 * a chunk length or a 32-bit field changed, bytes inserted, removed, duplicated, the file cut);
 * for PNG seeds, half the mutants get every chunk CRC recomputed, so the damage reaches the
 * zlib stream and the pixel paths instead of stopping at the first CRC check. Half the mutants of
 * HEIF seeds get structure-aware mutations of their `meta` boxes (a grid's `dimg` references made
 * to repeat a tile, `ispe` sizes, `iloc` extents, the grid descriptor), and half of those of seeds
 * that carry an ICC profile get mutations of its tag table and its multi-process-element, mAB and
 * lut tags (element counts, grid points, tag offsets). Mutants are made
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

static const uint32_t structure_edges[] = {0, 1, 2, 6, 16, 255, 256, 4096, 65535, 65536, 0x7FFFFFFF, 0xFFFFFFFFu};

static uint32_t structure_edge(void) { return structure_edges[below(sizeof structure_edges / sizeof structure_edges[0])]; }

static void put_be16(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v >> 8);
    p[1] = (unsigned char)v;
}

/* Where the `nth` occurrence of the 4 bytes `tag` starts in `b` (from `from`), or b->length. */
static size_t find_tag(const buffer *b, size_t from, const char *tag, size_t nth) {
    for (size_t at = from; at + 4 <= b->length; at++) {
        if (memcmp(b->bytes + at, tag, 4) != 0) continue;
        if (nth-- == 0) return at;
    }
    return b->length;
}

/* How many times `tag` occurs in `b` from `from` (at most 64). */
static size_t count_tag(const buffer *b, size_t from, const char *tag) {
    size_t n = 0;
    while (n < 64 && find_tag(b, from, tag, n) < b->length) n++;
    return n;
}

/* Sets the 16- or 32-bit field `offset` bytes past `at` to an edge value, when it is inside `b`. */
static void set_field(buffer *b, size_t at, size_t offset, int wide, uint32_t value) {
    if (at > b->length || b->length - at < offset + (wide ? 4 : 2)) return;
    if (wide) put_be32(b->bytes + at + offset, value);
    else put_be16(b->bytes + at + offset, value);
}

/*
 * One mutation of a HEIF's `meta` boxes, at a box's type: the grid's `dimg` references (a tile
 * repeated, the count changed), an `ispe`, an `iloc` or `ipma` field, the grid descriptor in `idat`.
 */
static void mutate_heif_structure(buffer *b) {
    static const char *const boxes[] = {"dimg", "ispe", "iloc", "idat", "ipma", "hvcC", "pitm", "iinf", "av1C"};
    const char *tag = boxes[below(sizeof boxes / sizeof boxes[0])];
    size_t n = count_tag(b, 0, tag);
    if (n == 0) return;
    size_t at = find_tag(b, 0, tag, below(n)) + 4; /* the box's payload */
    if (strcmp(tag, "dimg") == 0) {
        size_t references = at + 6 <= b->length ? (b->bytes[at + 2] << 8 | b->bytes[at + 3]) : 0;
        if (below(2) && references > 1 && at + 4 + 2 * references <= b->length) {
            size_t copies = 1 + below(references - 1); /* the first tile, again and again */
            for (size_t i = 0; i < copies; i++) memcpy(b->bytes + at + 4 + 2 * (1 + below(references - 1)), b->bytes + at + 4, 2);
        } else {
            set_field(b, at, 2 + 2 * below(references + 1), 0, structure_edge());
        }
    } else if (strcmp(tag, "ispe") == 0) {
        set_field(b, at, 4 + 4 * below(2), 1, structure_edge());
    } else if (strcmp(tag, "idat") == 0) {
        if (at + 4 <= b->length) b->bytes[at + 1 + below(3)] = (unsigned char)next_random(); /* flags, rows, columns */
        set_field(b, at, 4 + 2 * below(2), 0, structure_edge());
    } else {
        set_field(b, at, below(32), below(2), below(2) ? structure_edge() : (uint32_t)next_random());
    }
}

/*
 * One mutation of the ICC profile in `b` (found by its `acsp` signature): its tag count, a tag's
 * offset or size (pointing it at another tag's data), or inside an `mpet`, `clut`, `mAB ` or `mft2`
 * tag, its element count, channel counts or grid points.
 */
static void mutate_icc_structure(buffer *b) {
    size_t signature = find_tag(b, 0, "acsp", 0);
    if (signature < 36 || signature >= b->length) return;
    size_t profile = signature - 36, tags = profile + 128;
    switch (below(3)) {
    case 0: set_field(b, tags, 0, 1, below(2) ? structure_edge() : (uint32_t)below(200)); break;
    case 1: {
        size_t count = tags + 4 <= b->length ? get_be32(b->bytes + tags) : 0;
        size_t entry = tags + 4 + 12 * below(count < 32 ? count + 1 : 32);
        if (below(2) && count > 1 && entry + 12 <= b->length && tags + 16 <= b->length)
            memcpy(b->bytes + entry + 4, b->bytes + tags + 4 + 4, 8); /* aliases the first tag's data */
        else set_field(b, entry, 4 + 4 * below(2), 1, structure_edge());
        break;
    }
    default: {
        static const char *const types[] = {"mpet", "clut", "mAB ", "mBA ", "mft2", "mft1"};
        const char *type = types[below(sizeof types / sizeof types[0])];
        size_t n = count_tag(b, profile, type);
        if (n == 0) return;
        size_t at = find_tag(b, profile, type, below(n));
        if (strcmp(type, "mpet") == 0) set_field(b, at, 12, 1, structure_edge()); /* the element count */
        else if (at + 28 <= b->length) b->bytes[at + 8 + below(20)] = (unsigned char)structure_edge(); /* channels, grid */
    }
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
    long made = 0, by_format[5] = {0}, structured[2] = {0};
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (seconds_since(&start) < budget) {
        const buffer *original = &originals[below((size_t)seeds)];
        size_t capacity = original->length + 8 * 600 + 1;
        buffer mutant = {malloc(capacity), original->length};
        memcpy(mutant.bytes, original->bytes, original->length);
        int is_heif = original->length >= 12 && memcmp(original->bytes + 4, "ftyp", 4) == 0;
        int has_icc = find_tag(original, 0, "acsp", 0) < original->length;
        int mutations = 1 + (int)below(8);
        if (is_heif && below(2)) {
            for (int m = 0; m < mutations; m++) mutate_heif_structure(&mutant);
            structured[0]++;
        } else if (has_icc && below(2)) {
            for (int m = 0; m < mutations; m++) mutate_icc_structure(&mutant);
            structured[1]++;
        } else {
            for (int m = 0; m < mutations; m++) mutate_once(&mutant, capacity);
        }
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
    printf("fuzz: %ld HEIF-structure and %ld ICC-structure mutants among them\n", structured[0], structured[1]);
    if (made < minimum) {
        printf("fuzz: only %ld mutants in the time budget, fewer than %ld\n", made, minimum);
        printf("fuzz: %ld mutants, 1 failure\n", made);
        return 1;
    }
    printf("fuzz: %ld mutants, 0 failures\n", made);
    return 0;
}

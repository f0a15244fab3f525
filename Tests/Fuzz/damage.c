/*
 * Damaged JPEGs are never shown (Tests/Fuzz/run --damage): seeded mutants of real JPEGs go
 * through BabyAlbum's decoder and through an oracle, libjpeg-turbo itself fed one byte at a
 * time, which keeps it on its careful Huffman path, where every bad code, premature end and
 * stray byte is a warning (djpeg's 4 KB buffer takes the fast path, which skips some). A
 * mutant the oracle finds damaged must be refused by BabyAlbum. Every seed itself must decode
 * (no good photo refused) and must be clean by the oracle.
 *
 *   damage [--mutants N] [--seed N] FILE...     ends with "damage: N checks, M failures"
 */
#include "CJPEGCodec.h"
#include "CPhotoCodec.h"
#include "fuzz_random.h"

#include <fcntl.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr error;
    jmp_buf jump;
    int warnings;
} oracle_errors;

/* The oracle's first warning or error, for the report. */
static char oracle_said[JMSG_LENGTH_MAX];

static void oracle_exit(j_common_ptr cinfo) {
    (*cinfo->err->format_message)(cinfo, oracle_said);
    longjmp(((oracle_errors *)cinfo->err)->jump, 1);
}

static void oracle_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    if (((oracle_errors *)cinfo->err)->warnings++ == 0) (*cinfo->err->format_message)(cinfo, oracle_said);
}

/* One byte a time: libjpeg-turbo's fast Huffman path needs hundreds of bytes in the buffer. */
typedef struct {
    struct jpeg_source_mgr source;
    const uint8_t *bytes;
    size_t length, at;
} byte_source;

static void source_nothing(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean source_fill(j_decompress_ptr cinfo) {
    static const uint8_t eoi[2] = {0xFF, 0xD9};
    byte_source *s = (byte_source *)cinfo->src;
    if (s->at >= s->length) {
        WARNMS(cinfo, JWRN_JPEG_EOF);
        s->source.next_input_byte = eoi;
        s->source.bytes_in_buffer = 2;
        return TRUE;
    }
    s->source.next_input_byte = s->bytes + s->at++;
    s->source.bytes_in_buffer = 1;
    return TRUE;
}

static void source_skip(j_decompress_ptr cinfo, long count) {
    while (count > 0) {
        if (cinfo->src->bytes_in_buffer == 0) source_fill(cinfo);
        cinfo->src->next_input_byte++;
        cinfo->src->bytes_in_buffer--;
        count--;
    }
}

/* 1 when libjpeg-turbo reports the data as damaged (an error or any warning), else 0. */
static int oracle_damaged(const uint8_t *bytes, size_t length) {
    struct jpeg_decompress_struct cinfo;
    oracle_errors errors;
    byte_source source = {.bytes = bytes, .length = length};
    cinfo.err = jpeg_std_error(&errors.error);
    errors.error.error_exit = oracle_exit;
    errors.error.emit_message = oracle_message;
    errors.warnings = 0;
    jpeg_create_decompress(&cinfo);
    source.source.init_source = source_nothing;
    source.source.term_source = source_nothing;
    source.source.fill_input_buffer = source_fill;
    source.source.skip_input_data = source_skip;
    source.source.resync_to_restart = jpeg_resync_to_restart;
    cinfo.src = &source.source;
    cinfo.mem->max_memory_to_use = 256L << 20;
    int damaged = 1;
    if (!setjmp(errors.jump)) {
        jpeg_read_header(&cinfo, TRUE);
        cinfo.scale_num = 1;
        cinfo.scale_denom = 8;
        jpeg_start_decompress(&cinfo);
        JSAMPLE *row = malloc((size_t)cinfo.output_width * (size_t)cinfo.output_components);
        while (cinfo.output_scanline < cinfo.output_height) jpeg_read_scanlines(&cinfo, &row, 1);
        free(row);
        jpeg_finish_decompress(&cinfo);
        damaged = errors.warnings > 0;
    }
    jpeg_destroy_decompress(&cinfo);
    return damaged;
}

/* 1 when BabyAlbum shows the file (decodes it without an error). */
static int shown(const char *path, char reason[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    static uint32_t pixels[480 * 270];
    memset(pixels, 0, sizeof pixels);
    baphoto_limits limits = {.max_pixels = 100000000, .budget_bytes = 96u << 20, .max_scans = 100};
    baphoto_target target = {pixels, 480, 270, BAPHOTO_SCALE_FILL, 0, 0};
    baphoto_header header;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    int status = baphoto_jpeg_decode(fd, &limits, &target, &header, NULL, reason);
    close(fd);
    return status == BAPHOTO_OK;
}

static uint8_t *read_all(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    uint8_t *bytes = malloc(size > 0 ? (size_t)size : 1);
    *length = bytes ? fread(bytes, 1, (size_t)size, file) : 0;
    fclose(file);
    return bytes;
}

/* The offset just after the last SOS header: the entropy-coded data, where damage hides. */
static size_t entropy_start(const uint8_t *bytes, size_t length) {
    size_t start = 2;
    for (size_t i = 2; i + 4 < length; i++) {
        if (bytes[i] == 0xFF && bytes[i + 1] == 0xDA) {
            start = i + 2 + ((size_t)bytes[i + 2] << 8 | bytes[i + 3]);
            break;
        }
    }
    return start < length ? start : 2;
}

static int write_file(const char *path, const uint8_t *bytes, size_t length) {
    FILE *file = fopen(path, "wb");
    if (!file) return -1;
    size_t done = fwrite(bytes, 1, length, file);
    fclose(file);
    return done == length ? 0 : -1;
}

int main(int argc, char **argv) {
    int mutants = 1000, first = 1;
    rng_state = 1;
    while (first + 1 < argc && strncmp(argv[first], "--", 2) == 0) {
        if (strcmp(argv[first], "--mutants") == 0) mutants = atoi(argv[first + 1]);
        if (strcmp(argv[first], "--seed") == 0) rng_state = strtoull(argv[first + 1], NULL, 10);
        first += 2;
    }
    int seeds = argc - first, passed = 0, failed = 0, damaged = 0, refused = 0;
    char scratch[] = "/tmp/babyalbum-damage-XXXXXX";
    int scratch_fd = mkstemp(scratch);
    if (seeds <= 0 || scratch_fd < 0) return 64;
    close(scratch_fd);
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
    for (int s = 0; s < seeds; s++) {
        const char *path = argv[first + s];
        size_t length = 0;
        uint8_t *original = read_all(path, &length);
        if (!original || length < 4) continue;
        if (!shown(path, reason) || oracle_damaged(original, length)) {
            printf("damage: good photo refused or unclean: %s: %s\n", path, reason);
            failed++;
            free(original);
            continue;
        }
        passed++;
        uint8_t *mutant = malloc(length);
        size_t start = entropy_start(original, length);
        int count = mutants / seeds + (s < mutants % seeds);
        for (int m = 0; m < count; m++) {
            memcpy(mutant, original, length);
            int changes = 1 + (int)(next_random() % 4);
            for (int c = 0; c < changes; c++) {
                size_t at = start + (size_t)(next_random() % (length - start));
                mutant[at] = (uint8_t)next_random();
            }
            if (write_file(scratch, mutant, length) != 0) return 1;
            int bad = oracle_damaged(mutant, length);
            int ok = shown(scratch, reason);
            damaged += bad;
            refused += !ok;
            if (bad && ok) {
                char kept[64];
                snprintf(kept, sizeof kept, "/tmp/babyalbum-damaged-shown-%d-%d.jpg", s, m);
                write_file(kept, mutant, length);
                printf("damage: a damaged mutant of %s is shown (kept as %s): %s\n", path, kept, oracle_said);
                failed++;
            } else {
                passed++;
            }
        }
        free(mutant);
        free(original);
    }
    unlink(scratch);
    printf("damage: %d seeds, %d mutants in the entropy data: %d damaged by the oracle, %d refused by BabyAlbum\n",
           seeds, mutants, damaged, refused);
    printf("damage: %d checks, %d failures\n", passed + failed, failed);
    return failed ? 1 : 0;
}

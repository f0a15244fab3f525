#include "CPNGCodec.h"
#include "binner.h"
#include "layout.h"
#include "orientation.h"
#include "scaler.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "frames are XRGB8888 in little-endian memory (B, G, R, X)"
#endif

/* The eXIf chunk's bytes kept for the caller, at most (the dates sit in the first few hundred). */
#define EXIF_KEPT_BYTES (64u * 1024u)

/*
 * What one read of a PNG learns, PNG's own facts included; handed to the caller as the shared
 * baphoto_header and baphoto_metadata (fill_photo_header, fill_metadata).
 */
typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    /** Non-zero for Adam7. */
    int interlaced;
    /** The eXIf orientation, 1 to 8 (1 when there is none). */
    int orientation;
    /** In: where to copy the eXIf chunk (its first `exif_capacity` bytes), or NULL. Out: the bytes copied. */
    uint8_t *exif;
    uint32_t exif_capacity;
    uint32_t exif_size;
    /** Non-zero when a tIME chunk of 7 bytes was seen: its fields, as stored. */
    int has_time;
    int time_fields[6];
    /** Out (decodes only): what the conversion to sRGB did. */
    bacolour_outcome colour;
} png_facts;

/*
 * All libpng state of one decode. Everything allocated after setjmp lives here (not in locals),
 * so the error path can free it after a longjmp.
 */
typedef struct {
    FILE *file;
    png_structp png;
    png_infop info;
    char *message; /* BAPHOTO_ERROR_MESSAGE_SIZE bytes */
    uint8_t *block; /* one block of the file, as fed to libpng */
    uint8_t *rgb;   /* one decoded row, premultiplied RGB */
    uint32_t *stored; /* the scaled photo before it is turned upright (eXIf orientation) */
    baphoto_scaler scaler;
    int scaler_ready;
    bapng_binner binner; /* Adam7 passes (and whole_image) */
    int binner_ready;
    /* The first warning about the image data itself; empty while there is none. */
    char data_warning[BAPHOTO_ERROR_MESSAGE_SIZE];
    /* The profile: iCCP's (decompressed), or one made from cICP or cHRM and gAMA; NULL for none. */
    uint8_t *icc;
    size_t icc_length;
    uint8_t cicp[4]; /* the cICP chunk (before the image data), when has_cicp */
    int has_cicp;
    int use_cicp; /* cICP decides: converted as a HEIF's nclx (bacolour_nclx_to_srgb) */
    char colour_note[BACOLOUR_REASON_SIZE]; /* why a profile was skipped before libpng saw it */
} decode_context;

static void on_error(png_structp png, png_const_charp message) {
    decode_context *context = png_get_error_ptr(png);
    snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "%s", message);
    png_longjmp(png, 1);
}

/*
 * libpng reports some damage to the image data only as a warning: an ADLER32 mismatch ("IDAT:
 * ADLER32 checksum mismatch", or "Truncated compressed data in IDAT" once the rows are complete)
 * or a zlib stream it could not finish. Those make the decode fail. Surplus data after the last
 * row ("Extra compressed data", an IDAT longer than the image needs: "chunk data is too large")
 * is never inflated and leaves every row intact.
 */
static int is_data_warning(const char *message) {
    /* A damaged colour profile is dropped by libpng: the photo is shown as sRGB. */
    if (strncmp(message, "iCCP", 4) == 0) return 0;
    if (strstr(message, "Extra compress") || strstr(message, "too large")) return 0;
    return strstr(message, "IDAT") || strstr(message, "ADLER32") || strstr(message, "ompressed data") ||
           strstr(message, "ecompression");
}

static void on_warning(png_structp png, png_const_charp message) {
    decode_context *context = png_get_error_ptr(png);
    if (strncmp(message, "iCCP", 4) == 0 && context->colour_note[0] == 0) {
        snprintf(context->colour_note, sizeof context->colour_note, "libpng: %s", message);
    }
    if (context->data_warning[0] == 0 && is_data_warning(message)) {
        snprintf(context->data_warning, sizeof context->data_warning, "%s", message);
    }
}

static void on_write_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void context_free(decode_context *context) {
    free(context->icc);
    context->icc = NULL;
    if (context->png) png_destroy_read_struct(&context->png, context->info ? &context->info : NULL, NULL);
    if (context->file) fclose(context->file);
    if (context->scaler_ready) baphoto_scaler_free(&context->scaler);
    if (context->binner_ready) bapng_binner_free(&context->binner);
    free(context->block);
    free(context->rgb);
    free(context->stored);
    context->file = NULL;
    context->block = context->rgb = NULL;
    context->stored = NULL;
    context->scaler_ready = context->binner_ready = 0;
}

/*
 * Reads a duplicate of `fd` from its start (the caller's descriptor stays open), checks the
 * signature and creates libpng's structs with the limits applied.
 */
static int context_open(decode_context *context, int fd, const baphoto_limits *limits) {
    int copy = lseek(fd, 0, SEEK_SET) == 0 ? dup(fd) : -1;
    context->file = copy >= 0 ? fdopen(copy, "rb") : NULL;
    if (copy >= 0 && !context->file) close(copy);
    if (!context->file) {
        snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "cannot read: %s", strerror(errno));
        return BAPHOTO_ERROR_IO;
    }
    unsigned char signature[8];
    size_t got = fread(signature, 1, sizeof signature, context->file);
    if (got == 0) {
        snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "empty file");
        return BAPHOTO_ERROR_WRONG_FORMAT;
    }
    if (got < sizeof signature || png_sig_cmp(signature, 0, sizeof signature) != 0) {
        snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "not a PNG file (bad signature)");
        return BAPHOTO_ERROR_WRONG_FORMAT;
    }
    context->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, context, on_error, on_warning);
    if (!context->png) return BAPHOTO_ERROR_NO_MEMORY;
    context->info = png_create_info_struct(context->png);
    if (!context->info) return BAPHOTO_ERROR_NO_MEMORY;
    png_init_io(context->png, context->file);
    png_set_sig_bytes(context->png, sizeof signature);
    png_set_user_limits(context->png, PNG_USER_WIDTH_MAX, PNG_USER_HEIGHT_MAX);
    png_set_chunk_cache_max(context->png, 1000);
    png_set_chunk_malloc_max(context->png, limits->max_chunk_bytes);
    return BAPHOTO_OK;
}

static void fill_header(decode_context *context, png_facts *header) {
    header->width = png_get_image_width(context->png, context->info);
    header->height = png_get_image_height(context->png, context->info);
    header->bit_depth = png_get_bit_depth(context->png, context->info);
    header->color_type = png_get_color_type(context->png, context->info);
    header->interlaced = png_get_interlace_type(context->png, context->info) != PNG_INTERLACE_NONE;
}

static int check_pixel_limit(decode_context *context, const png_facts *header, const baphoto_limits *limits) {
    uint64_t pixels = (uint64_t)header->width * header->height;
    if (pixels > limits->max_pixels) {
        snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE,
                 "photo is %ux%u (%.1f megapixels), over the limit of %.1f megapixels", header->width,
                 header->height, (double)pixels / 1e6, (double)limits->max_pixels / 1e6);
        return BAPHOTO_ERROR_TOO_LARGE;
    }
    return BAPHOTO_OK;
}

/* Converts a decoded 8-bit row (3 or 4 channels) to RGB composited over black. */
static void to_premultiplied_rgb(const uint8_t *in, uint8_t *out, uint32_t width, int channels) {
    if (channels == 3) {
        memcpy(out, in, (size_t)width * 3);
        return;
    }
    for (uint32_t x = 0; x < width; x++, in += 4, out += 3) {
        uint32_t alpha = in[3];
        out[0] = (uint8_t)((in[0] * alpha + 127) / 255);
        out[1] = (uint8_t)((in[1] * alpha + 127) / 255);
        out[2] = (uint8_t)((in[2] * alpha + 127) / 255);
    }
}

/* Sets the transforms that turn any PNG into 8-bit RGB or RGBA rows; returns the channel count. */
static int set_transforms(png_structp png, png_infop info) {
    png_set_expand(png); /* palette to RGB, gray below 8 bits to 8, tRNS to alpha */
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_read_update_info(png, info);
    return png_get_channels(png, info);
}

/* A big-endian 32-bit value (chunk lengths). */
static uint32_t read_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* Keeps a tIME chunk's 7 bytes (year, month, day, hour, minute, second) in the header, as stored. */
static void note_time(FILE *file, uint32_t length, png_facts *header) {
    uint8_t time[7];
    if (length != 7 || fread(time, 1, 7, file) != 7) return;
    int fields[6] = {time[0] << 8 | time[1], time[2], time[3], time[4], time[5], time[6]};
    memcpy(header->time_fields, fields, sizeof fields);
    header->has_time = 1;
}

/* Reads the eXIf chunk's `length` bytes: copies them for the caller, returns their orientation. */
static int note_exif(FILE *file, uint32_t length, uint32_t max_chunk_bytes, png_facts *header) {
    if (length > max_chunk_bytes) return 1;
    uint8_t *exif = malloc(length ? length : 1);
    int orientation = 1;
    if (exif && fread(exif, 1, length, file) == length) {
        orientation = baphoto_exif_orientation(exif, length);
        if (header->exif) {
            header->exif_size = length < header->exif_capacity ? length : header->exif_capacity;
            memcpy(header->exif, exif, header->exif_size);
        }
    }
    free(exif);
    return orientation;
}

/*
 * Walks the chunks before the image data: returns the eXIf orientation (1 when there is none),
 * copies the eXIf chunk and notes a tIME chunk in `header`, and a cICP chunk in `context`.
 * BabyAlbum walks the chunks itself: Debian 12's libpng 1.6.39 does not hand eXIf to the push
 * reader, and its pull reader reports the chunk with a length of zero; it predates cICP. Leaves
 * the file anywhere.
 */
static int file_orientation(decode_context *context, uint32_t max_chunk_bytes, png_facts *header) {
    FILE *file = context->file;
    int orientation = 1, seen_exif = 0;
    header->exif_size = 0;
    header->has_time = 0;
    if (fseek(file, 8, SEEK_SET) != 0) return 1;
    for (int chunks = 0; chunks < 1000; chunks++) {
        uint8_t head[8];
        if (fread(head, 1, 8, file) != 8) break;
        uint32_t length = read_be32(head);
        if (memcmp(head + 4, "IDAT", 4) == 0 || memcmp(head + 4, "IEND", 4) == 0 || length > 0x7FFFFFFF) break;
        long next = ftell(file) + (long)length + 4;
        if (memcmp(head + 4, "eXIf", 4) == 0 && !seen_exif) {
            orientation = note_exif(file, length, max_chunk_bytes, header);
            seen_exif = 1;
        } else if (memcmp(head + 4, "tIME", 4) == 0) {
            note_time(file, length, header);
        } else if (memcmp(head + 4, "cICP", 4) == 0 && length == 4 && !context->has_cicp) {
            context->has_cicp = fread(context->cicp, 1, 4, file) == 4;
        }
        if (next < 0 || fseek(file, next, SEEK_SET) != 0) break;
    }
    return orientation;
}

/* Orientations 5 to 8 swap width and height. */
static int orientation_transposes(int orientation) { return orientation >= 5; }

/*
 * Decoding uses libpng's progressive ("push") reader: BabyAlbum feeds the file and libpng calls
 * back with each row. Unlike the pull reader, whose png_read_row inflates every byte of trailing
 * image data after the last row (a 1 MB file can carry gigabytes of it), the push reader stops
 * inflating when the image is complete.
 *
 * BabyAlbum walks the chunks itself and hands libpng only those that decide the pixels (IHDR,
 * PLTE, tRNS, IDAT, IEND) and their colours (iCCP, sRGB, cHRM, gAMA; at most max_chunk_bytes
 * like the rest). Every other chunk is skipped with a seek: never read, never buffered
 * (libpng's push reader holds a whole chunk in memory before it looks at it, growing its buffer
 * block by block, which costs time in the square of the chunk's size).
 */
typedef struct {
    decode_context *context;
    const baphoto_limits *limits;
    const baphoto_target *target; /* NULL: the header only */
    png_facts *header;
    int status;
    int header_done;
    int channels;
    int binned; /* pixels go through the binner (Adam7 passes, or whole_image) */
    baphoto_placement place;
    uint64_t rows_received, rows_expected;
    int ended; /* IEND reached */
    int orientation;
    /* Where the scaler draws: the target itself, or (for a turned photo) `stored`. */
    uint32_t *canvas;
    uint32_t canvas_width, canvas_height;
} push_state;

static const uint32_t adam7_x0[7] = {0, 4, 0, 2, 0, 1, 0}, adam7_dx[7] = {8, 8, 4, 4, 2, 2, 1};
static const uint32_t adam7_y0[7] = {0, 0, 4, 0, 2, 0, 1}, adam7_dy[7] = {8, 8, 8, 4, 4, 2, 2};

static uint32_t pass_extent(uint32_t size, uint32_t start, uint32_t step) {
    return size > start ? (size - start + step - 1) / step : 0;
}

/* The rows libpng delivers: every row once, or (Adam7) each non-empty pass's rows. */
static uint64_t rows_expected(const png_facts *header) {
    if (!header->interlaced) return header->height;
    uint64_t rows = 0;
    for (int pass = 0; pass < 7; pass++) {
        uint32_t w = pass_extent(header->width, adam7_x0[pass], adam7_dx[pass]);
        uint32_t h = pass_extent(header->height, adam7_y0[pass], adam7_dy[pass]);
        if (w && h) rows += h;
    }
    return rows;
}

static void push_fail(png_structp png, push_state *state, int status, const char *message) {
    state->status = status;
    snprintf(state->context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "%s", message);
    png_longjmp(png, 1);
}

/* Allocates where the photo is drawn: the canvas, the row buffer, and the scaler or the binner. */
static void prepare_drawing(png_structp png, push_state *state) {
    decode_context *context = state->context;
    const baphoto_target *target = state->target;
    /* Scale the photo as stored to the target as the photo sees it, then turn it upright. */
    int transposed = orientation_transposes(state->orientation);
    state->canvas_width = transposed ? target->height : target->width;
    state->canvas_height = transposed ? target->width : target->height;
    if (state->orientation == 1) {
        state->canvas = target->pixels;
    } else {
        context->stored = calloc((size_t)target->width * target->height, sizeof(uint32_t));
        if (!context->stored) push_fail(png, state, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
        state->canvas = context->stored;
    }
    state->place = baphoto_place(state->header->width, state->header->height, state->canvas_width,
                               state->canvas_height, target->scale == BAPHOTO_SCALE_FILL);
    const baphoto_placement *p = &state->place;
    context->rgb = malloc((size_t)state->header->width * 3);
    if (!context->rgb) push_fail(png, state, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    if (state->binned) {
        int status = bapng_binner_init(&context->binner, p->src_x, p->src_y, p->src_w, p->src_h, state->canvas,
                                       state->canvas_width, p->dst_x, p->dst_y, p->dst_w, p->dst_h);
        if (status == BAPNG_BINNER_OVERFLOW) {
            push_fail(png, state, BAPHOTO_ERROR_TOO_LARGE, "interlaced photo too large for this frame size");
        }
        if (status != 0) push_fail(png, state, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
        context->binner_ready = 1;
    } else {
        if (baphoto_scaler_init(&context->scaler, p->src_x, p->src_w, p->src_h, state->canvas, state->canvas_width,
                              p->dst_x, p->dst_y, p->dst_w, p->dst_h) != 0) {
            push_fail(png, state, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
        }
        context->scaler_ready = 1;
    }
}

/* Keeps a copy of the iCCP profile (libpng has checked and inflated it); 0 when there is none. */
static int keep_iccp(decode_context *context) {
    png_charp name = NULL;
    png_bytep profile = NULL;
    png_uint_32 length = 0;
    int compression = 0;
    if (!png_get_iCCP(context->png, context->info, &name, &compression, &profile, &length) || !profile || !length)
        return 0;
    if (length > BACOLOUR_MAX_PROFILE_BYTES) return 0;
    context->icc = malloc(length);
    if (!context->icc) return 0;
    memcpy(context->icc, profile, length);
    context->icc_length = length;
    return 1;
}

/* A profile made from chromaticities, unless they are sRGB's (the photo is then shown as stored). */
static void make_profile(decode_context *context, const bacolour_chromaticities *c, const char *name) {
    if (bacolour_chromaticities_are_srgb(c)) return;
    context->icc_length = bacolour_profile_from_chromaticities(c, name, &context->icc);
    if (!context->icc_length) {
        snprintf(context->colour_note, sizeof context->colour_note, "lcms2 cannot make a profile from %s", name);
    }
}

/*
 * cICP (the code points of a HEIF's nclx): 1 when it decides, as sRGB or converted; 0 when it is
 * not full-range RGB, is unspecified, or is not converted (noted): the next chunk decides. The
 * probe (no pixels) makes the profile and its transform that the conversion then uses.
 */
static int use_cicp(decode_context *context) {
    const uint8_t *c = context->cicp;
    if (c[2] != 0 || c[3] != 1) {
        snprintf(context->colour_note, sizeof context->colour_note,
                 "cICP %u/%u/%u/%u: only full-range RGB (matrix 0, full range 1) is converted", c[0], c[1], c[2], c[3]);
        return 0;
    }
    bacolour_outcome probe = bacolour_nclx_to_srgb(c[0], c[1], NULL, 0, 0, 0);
    if (probe.result == BACOLOUR_IGNORED) {
        snprintf(context->colour_note, sizeof context->colour_note, "cICP %u/%u/%u/%u: %s", c[0], c[1], c[2], c[3],
                 probe.reason);
    }
    context->use_cicp = probe.result == BACOLOUR_SRGB || probe.result == BACOLOUR_CONVERTED;
    return context->use_cicp;
}

/*
 * cHRM, with gAMA (else the sRGB curve). gAMA alone is left as stored: without cHRM it names no
 * primaries, and old encoders wrote it for samples meant as sRGB (PngSuite's gAMA 1.0 images).
 */
static void use_chromaticities(decode_context *context) {
    png_fixed_point v[8], gamma = 0;
    if (!png_get_cHRM_fixed(context->png, context->info, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]))
        return;
    int has_gamma = png_get_gAMA_fixed(context->png, context->info, &gamma) && gamma > 0;
    bacolour_chromaticities c = {v[0] / 1e5, v[1] / 1e5, v[2] / 1e5, v[3] / 1e5,
                                 v[4] / 1e5, v[5] / 1e5, v[6] / 1e5, v[7] / 1e5, has_gamma ? gamma / 1e5 : 0};
    char name[BACOLOUR_NAME_SIZE];
    if (has_gamma) snprintf(name, sizeof name, "PNG cHRM, gamma %.2f", 1e5 / gamma);
    else snprintf(name, sizeof name, "PNG cHRM, sRGB curve");
    make_profile(context, &c, name);
}

/* The photo's colour, in the PNG specification's order: cICP, iCCP, sRGB, then cHRM and gAMA. */
static void choose_profile(decode_context *context) {
    if (context->has_cicp && use_cicp(context)) return;
    if (keep_iccp(context)) return;
    if (png_get_valid(context->png, context->info, PNG_INFO_sRGB)) return;
    use_chromaticities(context);
}

static void on_info(png_structp png, png_infop info) {
    push_state *state = png_get_progressive_ptr(png);
    fill_header(state->context, state->header);
    if (check_pixel_limit(state->context, state->header, state->limits) != BAPHOTO_OK) {
        state->status = BAPHOTO_ERROR_TOO_LARGE;
        png_longjmp(png, 1);
    }
    if (!state->target) {
        state->header_done = 1;
        png_longjmp(png, 1);
    }
    /* No png_set_interlace_handling: Adam7 passes arrive as they are stored, and the binner
     * places each pixel, so an interlaced photo never exists at full size. */
    state->channels = set_transforms(png, info);
    if (state->channels != 3 && state->channels != 4) push_fail(png, state, BAPHOTO_ERROR_CORRUPT, "unexpected channel count");
    state->binned = state->header->interlaced || state->target->whole_image;
    state->rows_expected = rows_expected(state->header);
    prepare_drawing(png, state);
}

static void on_row(png_structp png, png_bytep row, png_uint_32 number, int pass) {
    push_state *state = png_get_progressive_ptr(png);
    decode_context *context = state->context;
    const png_facts *header = state->header;
    if (row == NULL) return;
    int adam7 = header->interlaced && pass >= 0 && pass < 7;
    uint32_t x0 = adam7 ? adam7_x0[pass] : 0, dx = adam7 ? adam7_dx[pass] : 1;
    uint64_t y = adam7 ? adam7_y0[pass] + (uint64_t)number * adam7_dy[pass] : number;
    uint32_t width = pass_extent(header->width, x0, dx);
    if (y >= header->height) return;
    state->rows_received++;
    const baphoto_placement *p = &state->place;
    if (y < p->src_y || y >= (uint64_t)p->src_y + p->src_h) return;
    to_premultiplied_rgb(row, context->rgb, width, state->channels);
    if (state->binned) {
        bapng_binner_add(&context->binner, (uint32_t)y, context->rgb, width, x0, dx);
    } else {
        baphoto_scaler_push(&context->scaler, context->rgb);
    }
}

static void on_end(png_structp png, png_infop info) {
    (void)info;
    push_state *state = png_get_progressive_ptr(png);
    state->ended = 1;
}

enum { BLOCK_BYTES = 64 * 1024 };

/* Feeds the next `length` bytes of the file to libpng; returns 0, or -1 when the file ends first. */
static int feed_bytes(decode_context *context, push_state *state, uint64_t length) {
    while (length > 0 && !state->ended) {
        size_t want = length < BLOCK_BYTES ? (size_t)length : BLOCK_BYTES;
        size_t got = fread(context->block, 1, want, context->file);
        if (got > 0) png_process_data(context->png, context->info, context->block, got);
        if (got < want) return -1;
        length -= got;
    }
    return 0;
}

static int is_colour_chunk(const uint8_t *type) {
    return memcmp(type, "iCCP", 4) == 0 || memcmp(type, "sRGB", 4) == 0 || memcmp(type, "cHRM", 4) == 0 ||
           memcmp(type, "gAMA", 4) == 0;
}

static int is_pixel_chunk(const uint8_t *type) {
    static const char *const kept[] = {"IHDR", "PLTE", "tRNS", "IDAT", "IEND", "iCCP", "sRGB", "cHRM", "gAMA"};
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        if (memcmp(type, kept[i], 4) == 0) return 1;
    }
    return 0;
}

static int valid_chunk_type(const uint8_t *type) {
    for (int i = 0; i < 4; i++) {
        if (!((type[i] >= 'A' && type[i] <= 'Z') || (type[i] >= 'a' && type[i] <= 'z'))) return 0;
    }
    return 1;
}

static int chunk_fail(decode_context *context, const uint8_t *type, const char *why, uint32_t length) {
    snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "chunk %.4s: %s (%u bytes)",
             valid_chunk_type(type) ? (const char *)type : "????", why, length);
    return BAPHOTO_ERROR_CORRUPT;
}

/*
 * Walks the chunks from the signature to IEND (or the end of the file), feeding libpng the pixel
 * chunks and seeking past the rest. Returns BAPHOTO_OK, or an error for a chunk BabyAlbum refuses;
 * libpng's own errors longjmp out.
 */
static int feed_chunks(decode_context *context, push_state *state) {
    static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    if (fseek(context->file, 8, SEEK_SET) != 0) return BAPHOTO_ERROR_IO;
    png_process_data(context->png, context->info, (png_bytep)signature, 8);
    while (!state->ended) {
        uint8_t head[8];
        if (fread(head, 1, 8, context->file) != 8) return BAPHOTO_OK; /* the caller reports the truncation */
        uint32_t length = read_be32(head);
        const uint8_t *type = head + 4;
        if (length > 0x7FFFFFFF) return chunk_fail(context, type, "length out of range", length);
        if (!valid_chunk_type(type)) return chunk_fail(context, type, "invalid chunk type", length);
        int colour_too_large = is_colour_chunk(type) && length > state->limits->max_chunk_bytes;
        if (colour_too_large) {
            /* A profile too large to read is skipped unread: the photo is shown as sRGB. */
            snprintf(context->colour_note, sizeof context->colour_note, "the %.4s chunk is too large (%u bytes)",
                     (const char *)type, (unsigned)length);
        }
        if (!is_pixel_chunk(type) || colour_too_large) {
            if ((type[0] & 0x20) == 0) return chunk_fail(context, type, "unknown critical chunk", length);
            off_t next = ftello(context->file) + (off_t)length + 4;
            /* A tIME after the image data (where many encoders put it) is read on the way past. */
            if (memcmp(type, "tIME", 4) == 0 && !state->header->has_time) note_time(context->file, length, state->header);
            if (next < 0 || fseeko(context->file, next, SEEK_SET) != 0) return BAPHOTO_ERROR_IO;
            continue;
        }
        if (memcmp(type, "IDAT", 4) != 0 && length > state->limits->max_chunk_bytes) {
            return chunk_fail(context, type, "chunk too large", length);
        }
        png_process_data(context->png, context->info, head, 8);
        if (feed_bytes(context, state, (uint64_t)length + 4) != 0) return BAPHOTO_OK;
    }
    return BAPHOTO_OK;
}

/* After feeding: a photo counts only when every row arrived, IEND was reached, and libpng
 * reported no damage to the image data. */
static int check_complete(decode_context *context, const push_state *state) {
    if (context->data_warning[0]) {
        snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "damaged image data: %s", context->data_warning);
        return BAPHOTO_ERROR_CORRUPT;
    }
    if (state->rows_received < state->rows_expected) {
        snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "%s: %llu of %llu rows arrived",
                 state->ended ? "the image data ends early" : "truncated file",
                 (unsigned long long)state->rows_received, (unsigned long long)state->rows_expected);
        return BAPHOTO_ERROR_CORRUPT;
    }
    if (!state->ended) {
        snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "truncated file: no IEND after the image data");
        return BAPHOTO_ERROR_CORRUPT;
    }
    return BAPHOTO_OK;
}

/* Runs the push reader over the file: the header only (no target) or the whole decode. */
static int run_push(decode_context *context, push_state *state) {
    context->block = malloc(BLOCK_BYTES);
    if (!context->block) return BAPHOTO_ERROR_NO_MEMORY;
    if (setjmp(png_jmpbuf(context->png))) {
        if (state->header_done) return BAPHOTO_OK;
        return state->status != BAPHOTO_OK ? state->status : BAPHOTO_ERROR_CORRUPT;
    }
    png_set_sig_bytes(context->png, 0);
    png_set_progressive_read_fn(context->png, state, on_info, on_row, on_end);
    int status = feed_chunks(context, state);
    if (status != BAPHOTO_OK) return status;
    if (!state->target) {
        snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "truncated file: no image data");
        return BAPHOTO_ERROR_CORRUPT;
    }
    return check_complete(context, state);
}

/* A corrupt PNG says so, as the other codecs' reasons do ("corrupt JPEG: ..."). */
static void name_corrupt(char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
    snprintf(reason, sizeof reason, "%s", error[0] ? error : "unknown libpng error");
    snprintf(error, BAPHOTO_ERROR_MESSAGE_SIZE, "corrupt PNG: %.200s", reason);
}

/* Opens the file and runs the push reader; `target` NULL reads the header only. */
static int decode_file(int fd, const baphoto_limits *limits, const baphoto_target *target, png_facts *header,
                       char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    decode_context *context = calloc(1, sizeof *context);
    push_state *state = calloc(1, sizeof *state);
    if (!context || !state) {
        free(context);
        free(state);
        return BAPHOTO_ERROR_NO_MEMORY;
    }
    context->message = error;
    error[0] = 0;
    *state = (push_state){.context = context, .limits = limits, .target = target, .header = header, .orientation = 1};
    int status = context_open(context, fd, limits);
    if (status == BAPHOTO_OK) {
        int exif = file_orientation(context, limits->max_chunk_bytes, header);
        header->orientation = exif;
        if (target) {
            memset(target->pixels, 0, sizeof(uint32_t) * target->width * target->height);
            state->orientation = ba_orientation_on_panel(exif, target->quarter_turns);
        }
    }
    if (status == BAPHOTO_OK) status = run_push(context, state);
    if (status == BAPHOTO_OK && target) {
        if (state->binned) bapng_binner_finish(&context->binner);
        if (state->orientation != 1) {
            baphoto_apply_orientation(context->stored, state->canvas_width, state->canvas_height, target->pixels,
                                    target->width, target->height, state->orientation);
        }
        /* The same conversion as JPEG and WebP, on the screen-size frame. */
        choose_profile(context);
        if (context->use_cicp) {
            header->colour = bacolour_nclx_to_srgb(context->cicp[0], context->cicp[1], target->pixels, target->width,
                                                   target->height, target->width);
        } else {
            header->colour = bacolour_to_srgb(context->icc, context->icc_length, target->pixels, target->width,
                                              target->height, target->width);
        }
        if (!context->icc && context->colour_note[0]) {
            header->colour.result = BACOLOUR_IGNORED;
            snprintf(header->colour.reason, sizeof header->colour.reason, "%s", context->colour_note);
        }
    }
    context_free(context);
    free(context);
    free(state);
    if (status == BAPHOTO_ERROR_CORRUPT) name_corrupt(error);
    return status;
}

/* The shared header from `facts`. */
static void fill_photo_header(const png_facts *facts, baphoto_header *header) {
    memset(header, 0, sizeof *header);
    header->width = facts->width;
    header->height = facts->height;
    header->orientation = facts->orientation;
    header->interlaced = facts->interlaced;
    header->dct_scale_eighths = 8;
}

/* Hands the eXIf copy (owned by the metadata from here), tIME and the colour outcome to `metadata`. */
static void fill_metadata(png_facts *facts, baphoto_metadata *metadata) {
    if (facts->exif_size > 0) {
        metadata->exif = facts->exif;
        metadata->exif_length = facts->exif_size;
        facts->exif = NULL;
    }
    metadata->has_time = facts->has_time;
    memcpy(metadata->time_fields, facts->time_fields, sizeof metadata->time_fields);
    metadata->colour = facts->colour; /* converted to sRGB here, from cICP, iCCP or cHRM */
}

int bapng_read_header(int fd, const baphoto_limits *limits, baphoto_header *header,
                      char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    png_facts facts = {0};
    int status = decode_file(fd, limits, NULL, &facts, error);
    fill_photo_header(&facts, header);
    return status;
}

int bapng_decode(int fd, const baphoto_limits *limits, const baphoto_target *target, baphoto_header *header,
                 baphoto_metadata *metadata, char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    png_facts facts = {0};
    if (metadata) {
        memset(metadata, 0, sizeof *metadata);
        facts.exif = malloc(EXIF_KEPT_BYTES);
        facts.exif_capacity = facts.exif ? EXIF_KEPT_BYTES : 0;
    }
    int status = decode_file(fd, limits, target, &facts, error);
    fill_photo_header(&facts, header);
    if (metadata && status == BAPHOTO_OK) fill_metadata(&facts, metadata);
    free(facts.exif);
    return status;
}

/* Writing: a separate context because the write structs differ. libpng's small writes (chunk
   lengths, types, CRCs) are gathered in `buffer` and reach the descriptor in large write(2)s. */
typedef struct {
    int fd;
    png_structp png;
    png_infop info;
    char *message;
    size_t used;
    unsigned char buffer[1 << 14];
} encode_context;

static void on_write_error(png_structp png, png_const_charp message) {
    encode_context *context = png_get_error_ptr(png);
    snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "%s", message);
    png_longjmp(png, 1);
}

/* All `length` bytes to the descriptor, after short writes and EINTR; the reason (a full disk) is
   kept, where libpng's default writer reports only "Write Error". */
static void write_all(png_structp png, int fd, const unsigned char *data, size_t length) {
    while (length > 0) {
        ssize_t written = write(fd, data, length);
        if (written < 0 && errno == EINTR) continue;
        if (written < 0) {
            encode_context *context = png_get_io_ptr(png);
            snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "cannot write: %s", strerror(errno));
            png_longjmp(png, 1);
        }
        data += written;
        length -= (size_t)written;
    }
}

static void flush_data(png_structp png) {
    encode_context *context = png_get_io_ptr(png);
    write_all(png, context->fd, context->buffer, context->used);
    context->used = 0;
}

static void write_data(png_structp png, png_bytep data, size_t length) {
    encode_context *context = png_get_io_ptr(png);
    if (context->used + length > sizeof context->buffer) flush_data(png);
    if (length >= sizeof context->buffer) {
        write_all(png, context->fd, data, length);
        return;
    }
    memcpy(context->buffer + context->used, data, length);
    context->used += length;
}

int bapng_write_xrgb(int fd, const uint32_t *pixels, uint32_t width, uint32_t height, int compression_level,
                     int interlaced, char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    encode_context context = {.fd = fd, .message = error};
    error[0] = 0;
    int status = BAPHOTO_OK;
    context.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, on_write_error, on_write_warning);
    if (context.png) context.info = png_create_info_struct(context.png);
    if (!context.png || !context.info) {
        status = BAPHOTO_ERROR_NO_MEMORY;
    } else if (setjmp(png_jmpbuf(context.png))) {
        status = BAPHOTO_ERROR_IO;
    } else {
        png_set_write_fn(context.png, &context, write_data, flush_data);
        png_set_compression_level(context.png, compression_level);
        png_set_IHDR(context.png, context.info, width, height, 8, PNG_COLOR_TYPE_RGB,
                     interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                     PNG_FILTER_TYPE_DEFAULT);
        png_write_info(context.png, context.info);
        /* Rows are uint32 0x00RRGGBB: in little-endian memory B, G, R, X. */
        png_set_bgr(context.png);
        png_set_filler(context.png, 0, PNG_FILLER_AFTER);
        int passes = png_set_interlace_handling(context.png); /* 1 when not interlaced */
        for (int pass = 0; pass < passes; pass++) {
            for (uint32_t y = 0; y < height; y++) {
                png_write_row(context.png, (png_const_bytep)(pixels + (size_t)y * width));
            }
        }
        png_write_end(context.png, NULL);
        flush_data(context.png);
    }
    if (context.png) png_destroy_write_struct(&context.png, context.info ? &context.info : NULL);
    return status;
}

const char *bapng_version(void) {
    static _Thread_local char text[40];
    snprintf(text, sizeof text, "libpng %s", png_get_libpng_ver(NULL));
    return text;
}

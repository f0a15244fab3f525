#include "CPNGCodec.h"
#include "scaler.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "frames are XRGB8888 in little-endian memory (B, G, R, X)"
#endif

/*
 * All libpng state of one decode. Everything allocated after setjmp lives here (not in locals),
 * so the error path can free it after a longjmp.
 */
typedef struct {
    FILE *file;
    png_structp png;
    png_infop info;
    char *message; /* BAPNG_ERROR_MESSAGE_SIZE bytes */
    uint8_t *row;   /* one decoded row (RGBA or RGB, 8-bit) */
    uint8_t *rgb;   /* the same row, premultiplied RGB */
    uint8_t *whole; /* whole image, decoded rows (Adam7 only) */
    uint32_t *stored; /* the scaled photo before it is turned upright (eXIf orientation) */
    bapng_scaler scaler;
    int scaler_ready;
} decode_context;

static void on_error(png_structp png, png_const_charp message) {
    decode_context *context = png_get_error_ptr(png);
    snprintf(context->message, BAPNG_ERROR_MESSAGE_SIZE, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message; /* benign (for example, a bad CRC in an ancillary chunk, which libpng skips) */
}

static void context_free(decode_context *context) {
    if (context->png) png_destroy_read_struct(&context->png, context->info ? &context->info : NULL, NULL);
    if (context->file) fclose(context->file);
    if (context->scaler_ready) bapng_scaler_free(&context->scaler);
    free(context->row);
    free(context->rgb);
    free(context->whole);
    free(context->stored);
    context->file = NULL;
    context->row = context->rgb = context->whole = NULL;
    context->stored = NULL;
    context->scaler_ready = 0;
}

/* Opens `path`, checks the signature and creates libpng's structs with the limits applied. */
static int context_open(decode_context *context, const char *path, const bapng_limits *limits) {
    context->file = fopen(path, "rb");
    if (!context->file) {
        snprintf(context->message, BAPNG_ERROR_MESSAGE_SIZE, "cannot open: %s", strerror(errno));
        return BAPNG_ERROR_IO;
    }
    unsigned char signature[8];
    size_t got = fread(signature, 1, sizeof signature, context->file);
    if (got == 0) {
        snprintf(context->message, BAPNG_ERROR_MESSAGE_SIZE, "empty file");
        return BAPNG_ERROR_NOT_PNG;
    }
    if (got < sizeof signature || png_sig_cmp(signature, 0, sizeof signature) != 0) {
        snprintf(context->message, BAPNG_ERROR_MESSAGE_SIZE, "not a PNG file (bad signature)");
        return BAPNG_ERROR_NOT_PNG;
    }
    context->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, context, on_error, on_warning);
    if (!context->png) return BAPNG_ERROR_NO_MEMORY;
    context->info = png_create_info_struct(context->png);
    if (!context->info) return BAPNG_ERROR_NO_MEMORY;
    png_init_io(context->png, context->file);
    png_set_sig_bytes(context->png, sizeof signature);
    png_set_user_limits(context->png, PNG_USER_WIDTH_MAX, PNG_USER_HEIGHT_MAX);
    png_set_chunk_cache_max(context->png, 1000);
    png_set_chunk_malloc_max(context->png, limits->max_chunk_bytes);
    return BAPNG_OK;
}

static void fill_header(decode_context *context, bapng_header *header) {
    header->width = png_get_image_width(context->png, context->info);
    header->height = png_get_image_height(context->png, context->info);
    header->bit_depth = png_get_bit_depth(context->png, context->info);
    header->color_type = png_get_color_type(context->png, context->info);
    header->interlaced = png_get_interlace_type(context->png, context->info) != PNG_INTERLACE_NONE;
}

static int check_pixel_limit(decode_context *context, const bapng_header *header, const bapng_limits *limits) {
    uint64_t pixels = (uint64_t)header->width * header->height;
    if (pixels > limits->max_pixels) {
        snprintf(context->message, BAPNG_ERROR_MESSAGE_SIZE,
                 "photo is %ux%u (%.1f megapixels), over the limit of %.1f megapixels", header->width,
                 header->height, (double)pixels / 1e6, (double)limits->max_pixels / 1e6);
        return BAPNG_ERROR_TOO_LARGE;
    }
    return BAPNG_OK;
}

int bapng_read_header(const char *path, const bapng_limits *limits, bapng_header *header,
                      char error[BAPNG_ERROR_MESSAGE_SIZE]) {
    decode_context *context = calloc(1, sizeof *context);
    if (!context) return BAPNG_ERROR_NO_MEMORY;
    context->message = error;
    error[0] = 0;
    int status = context_open(context, path, limits);
    if (status == BAPNG_OK) {
        if (setjmp(png_jmpbuf(context->png))) {
            status = BAPNG_ERROR_CORRUPT;
        } else {
            png_read_info(context->png, context->info);
            fill_header(context, header);
            status = check_pixel_limit(context, header, limits);
        }
    }
    context_free(context);
    free(context);
    return status;
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

/* Where the photo goes: the source crop and the destination rectangle. */
typedef struct {
    uint32_t src_x, src_y, src_w, src_h;
    uint32_t dst_x, dst_y, dst_w, dst_h;
} placement;

static uint32_t rounded_ratio(uint64_t a, uint64_t b, uint64_t c) {
    uint64_t value = (a * b + c / 2) / c;
    return value < 1 ? 1 : (uint32_t)value;
}

static placement place(uint32_t sw, uint32_t sh, uint32_t dw, uint32_t dh, bapng_scale_mode scale) {
    placement p = {0, 0, sw, sh, 0, 0, dw, dh};
    int source_is_wider = (uint64_t)sw * dh > (uint64_t)sh * dw;
    if (scale == BAPNG_SCALE_FILL) {
        if (source_is_wider) {
            p.src_w = rounded_ratio(sh, dw, dh);
            if (p.src_w > sw) p.src_w = sw;
            p.src_x = (sw - p.src_w) / 2;
        } else {
            p.src_h = rounded_ratio(sw, dh, dw);
            if (p.src_h > sh) p.src_h = sh;
            p.src_y = (sh - p.src_h) / 2;
        }
    } else {
        if (source_is_wider) {
            p.dst_h = rounded_ratio(sh, dw, sw);
            if (p.dst_h > dh) p.dst_h = dh;
            p.dst_y = (dh - p.dst_h) / 2;
        } else {
            p.dst_w = rounded_ratio(sw, dh, sh);
            if (p.dst_w > dw) p.dst_w = dw;
            p.dst_x = (dw - p.dst_w) / 2;
        }
    }
    return p;
}

/* Sets the transforms that turn any PNG into 8-bit RGB or RGBA rows; returns the channel count. */
static int set_transforms(png_structp png, png_infop info) {
    png_set_expand(png); /* palette to RGB, gray below 8 bits to 8, tRNS to alpha */
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_read_update_info(png, info);
    return png_get_channels(png, info);
}

/*
 * eXIf orientation. libpng hands over the raw TIFF-structured eXIf chunk; the Orientation tag
 * (0x0112, IFD0) says how the stored pixels must be turned to be upright.
 */
static uint32_t exif_read(const uint8_t *p, int bytes, int big_endian) {
    uint32_t value = 0;
    for (int i = 0; i < bytes; i++) value |= (uint32_t)p[big_endian ? i : bytes - 1 - i] << (8 * (bytes - 1 - i));
    return value;
}

/* The Orientation tag of a TIFF-structured eXIf payload, or 1. */
static int exif_orientation(const uint8_t *exif, uint32_t length) {
    if (length < 8) return 1;
    int big_endian;
    if (exif[0] == 'M' && exif[1] == 'M') big_endian = 1;
    else if (exif[0] == 'I' && exif[1] == 'I') big_endian = 0;
    else return 1;
    uint32_t ifd = exif_read(exif + 4, 4, big_endian);
    if (ifd > length - 2) return 1;
    uint32_t count = exif_read(exif + ifd, 2, big_endian);
    for (uint32_t i = 0; i < count; i++) {
        uint64_t entry = ifd + 2 + 12 * (uint64_t)i;
        if (entry + 12 > length) break;
        if (exif_read(exif + entry, 2, big_endian) == 0x0112 && exif_read(exif + entry + 2, 2, big_endian) == 3) {
            uint32_t value = exif_read(exif + entry + 8, 2, big_endian);
            return value >= 1 && value <= 8 ? (int)value : 1;
        }
    }
    return 1;
}

/*
 * Finds the eXIf chunk before the image data and returns its orientation (1 when there is none).
 * BabyAlbum walks the chunks itself: Debian 12's libpng 1.6.39 does not hand eXIf to the push
 * reader, and its pull reader reports the chunk with a length of zero. Leaves the file anywhere.
 */
static int file_orientation(FILE *file, uint32_t max_chunk_bytes) {
    if (fseek(file, 8, SEEK_SET) != 0) return 1;
    for (int chunks = 0; chunks < 1000; chunks++) {
        uint8_t head[8];
        if (fread(head, 1, 8, file) != 8) return 1;
        uint32_t length = exif_read(head, 4, 1);
        if (memcmp(head + 4, "IDAT", 4) == 0 || memcmp(head + 4, "IEND", 4) == 0) return 1;
        if (memcmp(head + 4, "eXIf", 4) == 0) {
            if (length > max_chunk_bytes) return 1;
            uint8_t *exif = malloc(length ? length : 1);
            int orientation = 1;
            if (exif && fread(exif, 1, length, file) == length) orientation = exif_orientation(exif, length);
            free(exif);
            return orientation;
        }
        if (length > 0x7FFFFFFF || fseek(file, (long)length + 4, SEEK_CUR) != 0) return 1;
    }
    return 1;
}

/* Orientations 5 to 8 swap width and height. */
static int orientation_transposes(int orientation) { return orientation >= 5; }

/*
 * Turns `stored` (the photo scaled as stored, tw x th) upright into `dst` (dw x dh): each
 * upright pixel (x, y) comes from the stored pixel named by the EXIF orientation.
 */
static void apply_orientation(const uint32_t *stored, uint32_t tw, uint32_t th, uint32_t *dst, uint32_t dw,
                              uint32_t dh, int orientation) {
    for (uint32_t y = 0; y < dh; y++) {
        for (uint32_t x = 0; x < dw; x++) {
            uint32_t sx, sy;
            switch (orientation) {
            case 2: sx = tw - 1 - x; sy = y; break;
            case 3: sx = tw - 1 - x; sy = th - 1 - y; break;
            case 4: sx = x; sy = th - 1 - y; break;
            case 5: sx = y; sy = x; break;
            case 6: sx = y; sy = th - 1 - x; break;
            case 7: sx = tw - 1 - y; sy = th - 1 - x; break;
            case 8: sx = tw - 1 - y; sy = x; break;
            default: sx = x; sy = y; break;
            }
            dst[(size_t)y * dw + x] = stored[(size_t)sy * tw + sx];
        }
    }
}

/*
 * Decoding uses libpng's progressive ("push") reader: BabyAlbum feeds the file in blocks and
 * libpng calls back with each row. Unlike the pull reader, whose png_read_row inflates every
 * byte of trailing image data after the last row (a 1 MB file can carry gigabytes of it), the
 * push reader stops inflating when the image is complete, and BabyAlbum stops feeding.
 */
typedef struct {
    decode_context *context;
    const bapng_limits *limits;
    const bapng_target *target;
    bapng_header *header;
    int status;
    int channels;
    int whole;
    placement place;
    uint32_t rows_received;
    int complete;
    int orientation;
    /* Where the scaler draws: the target itself, or (for a turned photo) `stored`. */
    uint32_t *canvas;
    uint32_t canvas_width, canvas_height;
} push_state;

static void push_fail(png_structp png, push_state *state, int status, const char *message) {
    state->status = status;
    snprintf(state->context->message, BAPNG_ERROR_MESSAGE_SIZE, "%s", message);
    png_longjmp(png, 1);
}

static void on_info(png_structp png, png_infop info) {
    push_state *state = png_get_progressive_ptr(png);
    decode_context *context = state->context;
    fill_header(context, state->header);
    uint32_t width = state->header->width, height = state->header->height;
    if (check_pixel_limit(context, state->header, state->limits) != BAPNG_OK) {
        state->status = BAPNG_ERROR_TOO_LARGE;
        png_longjmp(png, 1);
    }
    int passes = png_set_interlace_handling(png);
    state->channels = set_transforms(png, info);
    if (state->channels != 3 && state->channels != 4) push_fail(png, state, BAPNG_ERROR_CORRUPT, "unexpected channel count");
    state->whole = passes > 1 || state->target->whole_image;
    if (state->whole && (uint64_t)width * height * state->channels > state->limits->max_whole_image_bytes) {
        char message[BAPNG_ERROR_MESSAGE_SIZE];
        snprintf(message, sizeof message, "interlaced photo of %ux%u needs %.0f MB to decode, over the budget of %.0f MB",
                 width, height, (double)width * height * state->channels / 1e6,
                 (double)state->limits->max_whole_image_bytes / 1e6);
        push_fail(png, state, BAPNG_ERROR_TOO_LARGE, message);
    }
    const bapng_target *target = state->target;
    /* Scale the photo as stored to the target as the photo sees it, then turn it upright. */
    int transposed = orientation_transposes(state->orientation);
    state->canvas_width = transposed ? target->height : target->width;
    state->canvas_height = transposed ? target->width : target->height;
    if (state->orientation == 1) {
        state->canvas = target->pixels;
    } else {
        context->stored = calloc((size_t)target->width * target->height, sizeof(uint32_t));
        if (!context->stored) push_fail(png, state, BAPNG_ERROR_NO_MEMORY, "out of memory");
        state->canvas = context->stored;
    }
    state->place = place(width, height, state->canvas_width, state->canvas_height, target->scale);
    context->rgb = malloc((size_t)width * 3);
    if (state->whole) context->whole = calloc((size_t)width * height, state->channels);
    if (!context->rgb || (state->whole && !context->whole) ||
        bapng_scaler_init(&context->scaler, state->place.src_x, state->place.src_w, state->place.src_h, state->canvas,
                          state->canvas_width, state->place.dst_x, state->place.dst_y, state->place.dst_w,
                          state->place.dst_h) != 0) {
        push_fail(png, state, BAPNG_ERROR_NO_MEMORY, "out of memory");
    }
    context->scaler_ready = 1;
}

static void on_row(png_structp png, png_bytep row, png_uint_32 y, int pass) {
    (void)pass;
    push_state *state = png_get_progressive_ptr(png);
    decode_context *context = state->context;
    if (row == NULL || y >= state->header->height) return;
    if (state->whole) {
        /* Adam7 delivers each row once per pass: combine them into the whole image. */
        png_progressive_combine_row(png, context->whole + (size_t)y * state->header->width * state->channels, row);
        return;
    }
    const placement *p = &state->place;
    if (y >= p->src_y && y < p->src_y + p->src_h) {
        to_premultiplied_rgb(row, context->rgb, state->header->width, state->channels);
        bapng_scaler_push(&context->scaler, context->rgb);
    }
    if (++state->rows_received == state->header->height) state->complete = 1;
}

static void on_end(png_structp png, png_infop info) {
    (void)info;
    push_state *state = png_get_progressive_ptr(png);
    state->complete = 1;
}

/* Scales the whole decoded image (the Adam7 path, or when asked to). */
static void scale_whole(push_state *state) {
    decode_context *context = state->context;
    size_t stride = (size_t)state->header->width * state->channels;
    for (uint32_t y = state->place.src_y; y < state->place.src_y + state->place.src_h; y++) {
        to_premultiplied_rgb(context->whole + stride * y, context->rgb, state->header->width, state->channels);
        bapng_scaler_push(&context->scaler, context->rgb);
    }
}

int bapng_decode_scaled(const char *path, const bapng_limits *limits, const bapng_target *target,
                        bapng_header *header, char error[BAPNG_ERROR_MESSAGE_SIZE]) {
    decode_context *context = calloc(1, sizeof *context);
    push_state *state = calloc(1, sizeof *state);
    if (!context || !state) {
        free(context);
        free(state);
        return BAPNG_ERROR_NO_MEMORY;
    }
    context->message = error;
    error[0] = 0;
    state->context = context;
    state->limits = limits;
    state->target = target;
    state->header = header;
    int status = context_open(context, path, limits);
    if (status == BAPNG_OK) {
        memset(target->pixels, 0, sizeof(uint32_t) * target->width * target->height);
        state->orientation = file_orientation(context->file, limits->max_chunk_bytes);
        context->row = malloc(64 * 1024);
        if (!context->row) status = BAPNG_ERROR_NO_MEMORY;
        else if (fseek(context->file, 0, SEEK_SET) != 0) status = BAPNG_ERROR_IO;
    }
    if (status == BAPNG_OK) {
        if (setjmp(png_jmpbuf(context->png))) {
            status = state->status != BAPNG_OK ? state->status : BAPNG_ERROR_CORRUPT;
        } else {
            png_set_sig_bytes(context->png, 0);
            png_set_progressive_read_fn(context->png, state, on_info, on_row, on_end);
            while (!state->complete) {
                size_t got = fread(context->row, 1, 64 * 1024, context->file);
                if (got == 0) break;
                png_process_data(context->png, context->info, context->row, got);
            }
            if (!state->complete) {
                snprintf(error, BAPNG_ERROR_MESSAGE_SIZE, "truncated file: the image data ends early");
                status = BAPNG_ERROR_CORRUPT;
            } else {
                if (state->whole) scale_whole(state);
                if (state->orientation != 1) {
                    apply_orientation(context->stored, state->canvas_width, state->canvas_height, target->pixels,
                                      target->width, target->height, state->orientation);
                }
            }
        }
    }
    context_free(context);
    free(context);
    free(state);
    return status;
}

/* Writing: a separate context because the write structs differ. */
typedef struct {
    FILE *file;
    png_structp png;
    png_infop info;
    char *message;
} encode_context;

static void on_write_error(png_structp png, png_const_charp message) {
    encode_context *context = png_get_error_ptr(png);
    snprintf(context->message, BAPNG_ERROR_MESSAGE_SIZE, "%s", message);
    png_longjmp(png, 1);
}

int bapng_write_xrgb(const char *path, const uint32_t *pixels, uint32_t width, uint32_t height,
                     int compression_level, char error[BAPNG_ERROR_MESSAGE_SIZE]) {
    encode_context context = {.message = error};
    error[0] = 0;
    int status = BAPNG_OK;
    context.file = fopen(path, "wb");
    if (!context.file) {
        snprintf(error, BAPNG_ERROR_MESSAGE_SIZE, "cannot create: %s", strerror(errno));
        return BAPNG_ERROR_IO;
    }
    context.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, on_write_error, on_warning);
    if (context.png) context.info = png_create_info_struct(context.png);
    if (!context.png || !context.info) {
        status = BAPNG_ERROR_NO_MEMORY;
    } else if (setjmp(png_jmpbuf(context.png))) {
        status = BAPNG_ERROR_IO;
    } else {
        png_init_io(context.png, context.file);
        png_set_compression_level(context.png, compression_level);
        png_set_IHDR(context.png, context.info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_write_info(context.png, context.info);
        /* Rows are uint32 0x00RRGGBB: in little-endian memory B, G, R, X. */
        png_set_bgr(context.png);
        png_set_filler(context.png, 0, PNG_FILLER_AFTER);
        for (uint32_t y = 0; y < height; y++) {
            png_write_row(context.png, (png_const_bytep)(pixels + (size_t)y * width));
        }
        png_write_end(context.png, NULL);
    }
    if (context.png) png_destroy_write_struct(&context.png, context.info ? &context.info : NULL);
    if (fclose(context.file) != 0 && status == BAPNG_OK) {
        snprintf(error, BAPNG_ERROR_MESSAGE_SIZE, "cannot write: %s", strerror(errno));
        status = BAPNG_ERROR_IO;
    }
    return status;
}

#include "CJPEGCodec.h"
#include "jpeg_markers.h"
#include "orientation.h"
#include "photo_layout.h"
#include "scaler.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jerror.h>
#include <jpeglib.h>

#define INPUT_BUFFER_SIZE (64 * 1024)

/*
 * All libjpeg state of one decode, on the heap (libjpeg-turbo issue #379: locals changed after
 * setjmp are undefined after a longjmp). `cinfo` comes first, so libjpeg's callbacks can cast
 * their j_common_ptr / j_decompress_ptr back to the context.
 */
typedef struct {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr error_manager;
    struct jpeg_source_mgr source;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    int created;
    int fd;
    const baphoto_limits *limits;
    baphoto_header *header;
    /* The kept EXIF and ICC markers; `metadata` receives them when the caller asks. */
    bajpeg_markers markers;
    baphoto_metadata *metadata;
    /* The failure, once one is known; BAPHOTO_OK while libjpeg's own error decides. */
    int status;
    char *message;
    uint8_t *input;      /* INPUT_BUFFER_SIZE bytes read from fd */
    off_t input_offset;  /* where in the file `input` starts */
    size_t input_filled; /* bytes of `input` read */
    size_t input_handed; /* bytes of `input` handed to libjpeg so far */
    uint8_t *rows;       /* rec_outbuf_height decoded rows (RGB or CMYK) */
    uint8_t *rgb;        /* one CMYK row converted to RGB */
    bacolour_cmyk *cmyk; /* the embedded CMYK profile's transform to sRGB; NULL: the plain conversion */
    bacolour_rows *colour; /* an RGB or gray profile's conversion, applied to each finished row; NULL: none */
    bacolour_follower *follower; /* converts the finished rows with `colour` on a second thread */
    int colour_converted;        /* 1 once a profile took the conversion to sRGB over (rows or CMYK) */
    baphoto_scaler scaler;
    int scaler_ready;
    baphoto_canvas canvas;
    /* Rows [first_row, end_row) of the scaled output are the placed part of the photo. */
    uint32_t first_row, end_row;
} jpeg_context;

static jpeg_context *context_of(void *cinfo) { return (jpeg_context *)cinfo; }

/* Ends the decode with `status` and a reason; returns to the public function's setjmp. */
static void fail(jpeg_context *context, int status, const char *reason) {
    context->status = status;
    snprintf(context->message, BAPHOTO_ERROR_MESSAGE_SIZE, "%s", reason);
    longjmp(context->jump, 1);
}

static void fail_from_markers(void *owner, int status, const char *reason) { fail(owner, status, reason); }

static void on_error(j_common_ptr cinfo) {
    jpeg_context *context = context_of(cinfo);
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
    switch (cinfo->err->msg_code) {
    case JERR_BAD_PRECISION:
        if (context->cinfo.data_precision == 12) {
            fail(context, BAPHOTO_ERROR_UNSUPPORTED, "12-bit JPEG is not supported");
        }
        snprintf(reason, sizeof reason, "unsupported JPEG (libjpeg: %s)", text);
        fail(context, BAPHOTO_ERROR_UNSUPPORTED, reason);
        break;
    case JERR_NO_SOI:
        fail(context, BAPHOTO_ERROR_WRONG_FORMAT, "not a JPEG file (no start-of-image marker)");
        break;
    case JERR_NO_BACKING_STORE:
    case JERR_OUT_OF_MEMORY:
        snprintf(reason, sizeof reason, "decoding needs more than the decode-memory budget of %.0f MB",
                 baphoto_megabytes(context->limits->budget_bytes));
        fail(context, BAPHOTO_ERROR_TOO_LARGE, reason);
        break;
    case JERR_ARITH_NOTIMPL:
    case JERR_NOT_COMPILED:
        snprintf(reason, sizeof reason, "unsupported JPEG (libjpeg: %s)", text);
        fail(context, BAPHOTO_ERROR_UNSUPPORTED, reason);
        break;
    default: break;
    }
    snprintf(reason, sizeof reason, "corrupt JPEG (libjpeg: %s)", text);
    fail(context, BAPHOTO_ERROR_CORRUPT, reason);
}

/* Most padding bytes accepted between the last scan and EOI. */
#define MAX_PADDING_BYTES 4096

/*
 * Whether the `count` bytes libjpeg discarded just before the EOI marker it has just read are
 * padding (all 0x00 or all 0xFF), read back from the file. A damaged file whose entropy data
 * ends early leaves the rest of its data there instead: that is damage, not padding.
 */
static int is_padding(jpeg_context *context, int count) {
    if (count <= 0 || count > MAX_PADDING_BYTES) return 0;
    off_t after_marker = context->input_offset + (off_t)(context->source.next_input_byte - context->input);
    uint8_t bytes[MAX_PADDING_BYTES];
    if (pread(context->fd, bytes, (size_t)count, after_marker - 2 - count) != count) return 0;
    for (int i = 0; i < count; i++) {
        if (bytes[i] != bytes[0] || (bytes[0] != 0x00 && bytes[0] != 0xFF)) return 0;
    }
    return 1;
}

/*
 * libjpeg reports damaged data (a premature end, corrupt entropy data, extraneous bytes) only
 * as warnings and goes on with grey fill. BabyAlbum shows a photo whole or not at all, so every
 * warning is an error, except the few that describe metadata, not pixels, and padding some
 * cameras write between the last scan and EOI (at most 4 KB of 0x00 or 0xFF bytes; every block
 * was decoded by then: data that ends early is reported first, as "premature end of data
 * segment").
 */
static void on_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return; /* trace messages */
    switch (cinfo->err->msg_code) {
    case JWRN_JFIF_MAJOR:
    case JWRN_ADOBE_XFORM:
    case JWRN_BOGUS_ICC:
        return;
    case JWRN_EXTRANEOUS_DATA:
        if (cinfo->err->msg_parm.i[1] == 0xD9 && is_padding(context_of(cinfo), cinfo->err->msg_parm.i[0])) return;
        break;
    default: break;
    }
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
    snprintf(reason, sizeof reason, "damaged JPEG data (libjpeg: %s)", text);
    fail(context_of(cinfo), BAPHOTO_ERROR_CORRUPT, reason);
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

/* A scan bomb is a valid file with hundreds of scans, each a full pass over the coefficients. */
static void on_progress(j_common_ptr cinfo) {
    jpeg_context *context = context_of(cinfo);
    if ((uint32_t)context->cinfo.input_scan_number > context->limits->max_scans) {
        char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
        snprintf(reason, sizeof reason, "JPEG has more than %u scans (refused as a scan bomb)",
                 context->limits->max_scans);
        fail(context, BAPHOTO_ERROR_TOO_LARGE, reason);
    }
}

/*
 * The source manager reads the descriptor in blocks of INPUT_BUFFER_SIZE and hands them to
 * libjpeg in slices of SLICE_SIZE bytes. libjpeg-turbo's fast Huffman decoder runs only with
 * at least 512 bytes per block of an MCU in the buffer, and it decodes a bad Huffman code as
 * zero without a warning; below that it takes the careful path, which warns ("bad Huffman
 * code"), so damaged data is refused instead of shown as garbage. The end of the file before
 * EOI is an error.
 */
#define SLICE_SIZE 256

static void source_init(j_decompress_ptr cinfo) { (void)cinfo; }

static void hand_out_slice(jpeg_context *context) {
    size_t count = context->input_filled - context->input_handed;
    if (count > SLICE_SIZE) count = SLICE_SIZE;
    context->source.next_input_byte = context->input + context->input_handed;
    context->source.bytes_in_buffer = count;
    context->input_handed += count;
}

static boolean source_fill(j_decompress_ptr cinfo) {
    jpeg_context *context = context_of(cinfo);
    if (context->input_handed < context->input_filled) {
        hand_out_slice(context);
        return TRUE;
    }
    ssize_t got;
    context->input_offset = lseek(context->fd, 0, SEEK_CUR);
    do {
        got = read(context->fd, context->input, INPUT_BUFFER_SIZE);
    } while (got < 0 && errno == EINTR);
    if (got < 0) {
        char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
        snprintf(reason, sizeof reason, "cannot read: %s", strerror(errno));
        fail(context, BAPHOTO_ERROR_IO, reason);
    }
    if (got == 0) fail(context, BAPHOTO_ERROR_CORRUPT, "truncated JPEG: the file ends before the image does");
    context->input_filled = (size_t)got;
    context->input_handed = 0;
    hand_out_slice(context);
    return TRUE;
}

/* Skips `count` bytes; a long skip (a large marker left out) seeks instead of reading. */
static void source_skip(j_decompress_ptr cinfo, long count) {
    jpeg_context *context = context_of(cinfo);
    if (count <= 0) return;
    size_t remaining = (size_t)count;
    struct jpeg_source_mgr *source = &context->source;
    if (remaining <= source->bytes_in_buffer) {
        source->next_input_byte += remaining;
        source->bytes_in_buffer -= remaining;
        return;
    }
    remaining -= source->bytes_in_buffer;
    source->bytes_in_buffer = 0;
    size_t unhanded = context->input_filled - context->input_handed;
    if (remaining <= unhanded) {
        context->input_handed += remaining;
        return;
    }
    remaining -= unhanded;
    context->input_handed = context->input_filled;
    if (remaining > INPUT_BUFFER_SIZE && lseek(context->fd, (off_t)remaining, SEEK_CUR) >= 0) return;
    while (remaining > 0) {
        source_fill(cinfo);
        size_t now = remaining < source->bytes_in_buffer ? remaining : source->bytes_in_buffer;
        source->next_input_byte += now;
        source->bytes_in_buffer -= now;
        remaining -= now;
    }
}

static void source_term(j_decompress_ptr cinfo) { (void)cinfo; }

static jpeg_context *context_new(int fd, const baphoto_limits *limits, baphoto_header *header, char *error) {
    jpeg_context *context = calloc(1, sizeof *context);
    if (!context) return NULL;
    context->input = malloc(INPUT_BUFFER_SIZE);
    if (!context->input) {
        free(context);
        return NULL;
    }
    context->fd = fd;
    context->limits = limits;
    context->header = header;
    context->message = error;
    context->markers.fail = fail_from_markers;
    context->markers.owner = context;
    context->markers.budget_bytes = limits->budget_bytes;
    error[0] = 0;
    memset(header, 0, sizeof *header);
    return context;
}

static void context_free(jpeg_context *context) {
    bacolour_follower_finish(context->follower); /* before the rows it converts go */
    if (context->created) jpeg_destroy_decompress(&context->cinfo);
    if (context->scaler_ready) baphoto_scaler_free(&context->scaler);
    bajpeg_markers_free(&context->markers);
    bacolour_cmyk_close(context->cmyk);
    bacolour_rows_close(context->colour);
    baphoto_canvas_free(&context->canvas);
    free(context->rgb);
    free(context->rows);
    free(context->input);
    free(context);
}

/* Whatever the status of a failed decode is: ours when we set one, else "corrupt". */
static int failure_status(const jpeg_context *context) {
    return context->status != BAPHOTO_OK ? context->status : BAPHOTO_ERROR_CORRUPT;
}

static void install_managers(jpeg_context *context) {
    context->cinfo.err = jpeg_std_error(&context->error_manager);
    context->error_manager.error_exit = on_error;
    context->error_manager.emit_message = on_message;
    context->error_manager.output_message = on_output_message;
    jpeg_create_decompress(&context->cinfo);
    context->created = 1;
    context->cinfo.mem->max_memory_to_use = (long)(context->limits->budget_bytes > 0x7FFFFFFF
                                                       ? 0x7FFFFFFF
                                                       : context->limits->budget_bytes);
    context->source.init_source = source_init;
    context->source.fill_input_buffer = source_fill;
    context->source.skip_input_data = source_skip;
    context->source.resync_to_restart = jpeg_resync_to_restart;
    context->source.term_source = source_term;
    context->cinfo.src = &context->source;
    context->progress.progress_monitor = on_progress;
    context->cinfo.progress = &context->progress;
    bajpeg_markers_install(&context->cinfo, &context->markers);
}

/*
 * Bytes of the whole-image coefficient buffer a progressive or multi-scan file needs
 * (jdcoefct.c): 128 bytes per 8x8 block per component, at full resolution, whatever the scale.
 */
static uint64_t coefficient_bytes(const struct jpeg_decompress_struct *cinfo) {
    uint64_t bytes = 0;
    for (int i = 0; i < cinfo->num_components; i++) {
        const jpeg_component_info *component = &cinfo->comp_info[i];
        uint64_t h = (uint64_t)component->h_samp_factor, v = (uint64_t)component->v_samp_factor;
        uint64_t columns = (component->width_in_blocks + h - 1) / h * h;
        uint64_t rows = (component->height_in_blocks + v - 1) / v * v;
        bytes += columns * rows * sizeof(JBLOCK);
    }
    return bytes;
}

/* Reads the header and checks it against the limits before anything large is allocated. */
static void read_header(jpeg_context *context) {
    if (lseek(context->fd, 0, SEEK_SET) != 0) fail(context, BAPHOTO_ERROR_IO, "cannot seek to the start of the file");
    install_managers(context);
    if (jpeg_read_header(&context->cinfo, TRUE) != JPEG_HEADER_OK) {
        fail(context, BAPHOTO_ERROR_CORRUPT, "corrupt JPEG: tables but no image");
    }
    struct jpeg_decompress_struct *cinfo = &context->cinfo;
    baphoto_header *header = context->header;
    header->width = cinfo->image_width;
    header->height = cinfo->image_height;
    header->components = cinfo->num_components;
    header->orientation = bajpeg_markers_orientation(&context->markers);
    if (context->metadata) bajpeg_markers_take(&context->markers, context->metadata);
    header->whole_image = jpeg_has_multiple_scans(cinfo) ? 1 : 0;
    header->whole_image_bytes = (header->whole_image ? coefficient_bytes(cinfo) : 0) + context->markers.kept_bytes;
    header->dct_scale_eighths = 8;
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
    if (baphoto_over_pixel_limit(header, context->limits, reason)) fail(context, BAPHOTO_ERROR_TOO_LARGE, reason);
    if (header->whole_image_bytes > context->limits->budget_bytes) {
        snprintf(reason, sizeof reason,
                 "%s JPEG of %ux%u needs %.0f MB to decode, over the decode-memory budget of %.0f MB",
                 cinfo->progressive_mode ? "progressive" : "multi-scan", header->width, header->height,
                 baphoto_megabytes(header->whole_image_bytes), baphoto_megabytes(context->limits->budget_bytes));
        fail(context, BAPHOTO_ERROR_TOO_LARGE, reason);
    }
}

static uint32_t ceil_eighths(uint32_t size, int eighths) { return (uint32_t)(((uint64_t)size * eighths + 7) / 8); }

/*
 * The smallest DCT scale of 1/8, 1/4, 1/2 and 1/1 (the ones with SIMD code) whose output still
 * covers the placed part of the photo; 1/1 when the photo is enlarged.
 */
static int choose_scale(uint32_t width, uint32_t height, const baphoto_canvas *canvas, const baphoto_target *target) {
    if (target->dct_scale_eighths >= 1 && target->dct_scale_eighths <= 8) return target->dct_scale_eighths;
    baphoto_placement p =
        baphoto_place(width, height, canvas->width, canvas->height, target->scale == BAPHOTO_SCALE_FILL);
    for (int eighths = 1; eighths < 8; eighths *= 2) {
        if (ceil_eighths(p.src_w, eighths) >= p.dst_w && ceil_eighths(p.src_h, eighths) >= p.dst_h) return eighths;
    }
    return 8;
}

/* Adobe CMYK and YCCK files store inverted samples (255 - ink); others store the ink itself. */
static void cmyk_to_rgb(const uint8_t *in, uint8_t *out, uint32_t width, int inverted) {
    for (uint32_t x = 0; x < width; x++, in += 4, out += 3) {
        uint32_t k = inverted ? in[3] : 255u - in[3];
        for (int c = 0; c < 3; c++) {
            uint32_t value = inverted ? in[c] : 255u - in[c];
            out[c] = (uint8_t)((value * k + 127) / 255);
        }
    }
}

/*
 * A CMYK photo with a profile: lcms2 converts its rows to sRGB (Adobe's inverted samples as
 * jpgicc reads them), and the outcome is the photo's colour. Without a usable one, cmyk_to_rgb.
 */
static void open_cmyk_profile(jpeg_context *context) {
    baphoto_metadata *metadata = context->metadata;
    if (!metadata || !metadata->icc) return;
    context->cmyk = bacolour_cmyk_open(metadata->icc, metadata->icc_length, context->cinfo.saw_Adobe_marker,
                                       &metadata->colour);
    context->colour_converted = 1;
}

static void row_done(void *follower, uint32_t *row, uint32_t width) {
    (void)row, (void)width; /* the follower knows where the rows are */
    bacolour_follower_row_done(follower);
}

/*
 * An RGB or gray photo with a profile: each screen-size row the scaler finishes is converted
 * (lcms2's transform or its fast path) on a second thread while the decoder goes on, rather than
 * in a second pass over the whole frame afterwards; the result is the same. The outcome is the
 * photo's colour.
 */
static void follow_profile(jpeg_context *context, const baphoto_placement *p) {
    baphoto_metadata *metadata = context->metadata;
    if (!metadata || !metadata->icc) return;
    context->colour = bacolour_rows_open(metadata->icc, metadata->icc_length, &metadata->colour);
    context->colour_converted = 1;
    if (!context->colour) return;
    uint32_t *first = context->canvas.pixels + (size_t)p->dst_y * context->canvas.width + p->dst_x;
    context->follower = bacolour_follower_start(context->colour, first, p->dst_w, context->canvas.width);
    if (!context->follower) fail(context, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    context->scaler.row_done = row_done;
    context->scaler.row_context = context->follower;
}

/* Waits for the last rows' colour. */
static void finish_colour(jpeg_context *context) {
    bacolour_follower_finish(context->follower);
    context->follower = NULL;
}

/* Sets the scale and colour space, then the scaler from the scaled size onto the canvas. */
static void prepare_output(jpeg_context *context, const baphoto_target *target) {
    struct jpeg_decompress_struct *cinfo = &context->cinfo;
    int orientation = ba_orientation_on_panel(context->header->orientation, target->quarter_turns);
    if (baphoto_canvas_init(&context->canvas, target, orientation) != 0) {
        fail(context, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    }
    int eighths = choose_scale(cinfo->image_width, cinfo->image_height, &context->canvas, target);
    context->header->dct_scale_eighths = eighths;
    cinfo->scale_num = (unsigned int)eighths;
    cinfo->scale_denom = 8;
    int four = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    cinfo->out_color_space = four ? JCS_CMYK : JCS_EXT_RGB;
    if (four) open_cmyk_profile(context);
    jpeg_calc_output_dimensions(cinfo);
    size_t row_bytes = (size_t)cinfo->output_width * (size_t)cinfo->output_components;
    context->rows = malloc(row_bytes * (size_t)cinfo->rec_outbuf_height);
    context->rgb = malloc((size_t)cinfo->output_width * 3);
    if (!context->rows || !context->rgb) fail(context, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    baphoto_placement p = baphoto_place(cinfo->output_width, cinfo->output_height, context->canvas.width,
                                    context->canvas.height, target->scale == BAPHOTO_SCALE_FILL);
    if (baphoto_scaler_init(&context->scaler, p.src_x, p.src_w, p.src_h, context->canvas.pixels, context->canvas.width,
                          p.dst_x, p.dst_y, p.dst_w, p.dst_h) != 0) {
        fail(context, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    }
    context->scaler_ready = 1;
    if (!four) follow_profile(context, &p);
    context->first_row = p.src_y;
    context->end_row = p.src_y + p.src_h;
}

/* Reads the next rows and pushes those in the placement into the scaler. */
static void read_rows(jpeg_context *context, JSAMPROW *rows, int batch) {
    struct jpeg_decompress_struct *cinfo = &context->cinfo;
    uint32_t first = cinfo->output_scanline;
    JDIMENSION got = jpeg_read_scanlines(cinfo, rows, (JDIMENSION)batch);
    for (JDIMENSION i = 0; i < got; i++) {
        uint32_t y = first + i;
        if (y < context->first_row || y >= context->end_row) continue;
        const uint8_t *rgb = rows[i];
        if (cinfo->output_components == 4 && context->cmyk) {
            bacolour_cmyk_row(context->cmyk, rows[i], context->rgb, cinfo->output_width);
            rgb = context->rgb;
        } else if (cinfo->output_components == 4) {
            cmyk_to_rgb(rows[i], context->rgb, cinfo->output_width, cinfo->saw_Adobe_marker);
            rgb = context->rgb;
        }
        baphoto_scaler_push(&context->scaler, rgb);
    }
}

/*
 * Decodes the placed rows. Rows cropped away above and below are skipped (entropy-decoded but
 * not transformed), except the very last row: skipping to the end would mark the image complete
 * without reading its data, and a photo whose end is damaged or missing must be an error.
 */
static void decode_rows(jpeg_context *context) {
    struct jpeg_decompress_struct *cinfo = &context->cinfo;
    jpeg_start_decompress(cinfo);
    size_t row_bytes = (size_t)cinfo->output_width * (size_t)cinfo->output_components;
    JSAMPROW rows[16];
    int batch = cinfo->rec_outbuf_height < 16 ? cinfo->rec_outbuf_height : 16;
    for (int i = 0; i < batch; i++) rows[i] = context->rows + row_bytes * (size_t)i;
    if (context->first_row > 0) jpeg_skip_scanlines(cinfo, context->first_row);
    while (cinfo->output_scanline < cinfo->output_height) {
        uint32_t last = cinfo->output_height - 1;
        if (cinfo->output_scanline >= context->end_row && cinfo->output_scanline < last) {
            jpeg_skip_scanlines(cinfo, last - cinfo->output_scanline);
            continue;
        }
        read_rows(context, rows, batch);
    }
    jpeg_finish_decompress(cinfo);
}

/* The one setjmp: reads the header and, when `target` is given, decodes the photo into it. */
static int run_decoder(int fd, const baphoto_limits *limits, const baphoto_target *target, baphoto_header *header,
                       baphoto_metadata *metadata, char *error) {
    if (metadata) memset(metadata, 0, sizeof *metadata);
    jpeg_context *context = context_new(fd, limits, header, error);
    if (!context) return BAPHOTO_ERROR_NO_MEMORY;
    context->metadata = metadata;
    int status = BAPHOTO_OK;
    if (setjmp(context->jump)) {
        status = failure_status(context);
    } else {
        read_header(context);
        if (target) {
            prepare_output(context, target);
            decode_rows(context);
            finish_colour(context);
            baphoto_canvas_finish(&context->canvas, target);
            /* A photo without a profile: its outcome, as every codec records it. */
            if (metadata && !context->colour_converted) baphoto_convert_to_srgb(target, metadata);
        }
    }
    context_free(context);
    if (status != BAPHOTO_OK && metadata) baphoto_metadata_free(metadata);
    return status;
}

int baphoto_jpeg_read_header(int fd, const baphoto_limits *limits, baphoto_header *header,
                             char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    return run_decoder(fd, limits, NULL, header, NULL, error);
}

int baphoto_jpeg_decode(int fd, const baphoto_limits *limits, const baphoto_target *target,
                        baphoto_header *header, baphoto_metadata *metadata,
                        char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    return run_decoder(fd, limits, target, header, metadata, error);
}

const char *baphoto_jpeg_version(void) {
    static _Thread_local char text[40];
    unsigned number = LIBJPEG_TURBO_VERSION_NUMBER; /* 2001005: 2.1.5 */
    snprintf(text, sizeof text, "libjpeg-turbo %u.%u.%u", number / 1000000, number / 1000 % 1000, number % 1000);
    return text;
}

#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "CHEIFCodec.h"
#include "heif_grid.h"
#include "heif_tiles.h"
#include "heif_yuv.h"
#include "orientation.h"
#include "photo_layout.h"
#include "scaler.h"

#include <dlfcn.h>
#include <errno.h>
#include <libheif/heif.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The file is read into memory (within the budget) and handed to libheif, which never opens
 * anything itself. libheif's own limits: the largest side (heif_context_set_maximum_image_size_limit,
 * from the pixel limit; 1.15 has no other), its security limits where the library has them (1.19
 * and later, found at run time, below), and at most four decoding
 * threads (libheif's default, which heif-convert uses). A grid of HEVC tiles (what phones
 * write) is decoded a strip of tiles at a time (heif_tiles.c): one strip and four tiles are held.
 * Anything else is decoded whole, the image held twice (YCbCr planes, then RGB). The header's
 * whole_image_bytes counts what is held against the budget before decoding.
 */
typedef struct {
    uint8_t *file;
    size_t file_size;
    struct heif_context *context;
    struct heif_image_handle *handle;
    struct heif_image *image;
    struct heif_image_handle *alpha_handle; /* the alpha plane, decoded apart */
    struct heif_image *alpha_image;
    uint8_t *gray_table, *alpha_table;
    baheif_yuv yuv;
    baheif_structure structure; /* what the file's boxes say, read before libheif */
    uint32_t *tile_ids;         /* a grid's tiles, made visible to libheif (baheif_show_grid_tiles) */
    uint32_t tile_count;
    int by_tile_strips; /* decoded a strip of tiles at a time (heif_tiles.c) */
    char *message;
} heif_job;

static int failure(heif_job *job, int status, const char *reason) {
    snprintf(job->message, BAPHOTO_ERROR_MESSAGE_SIZE, "%s", reason);
    return status;
}

static void job_free(heif_job *job) {
    if (job->alpha_image) heif_image_release(job->alpha_image);
    if (job->alpha_handle) heif_image_handle_release(job->alpha_handle);
    free(job->gray_table);
    free(job->alpha_table);
    baheif_yuv_free(&job->yuv);
    if (job->image) heif_image_release(job->image);
    if (job->handle) heif_image_handle_release(job->handle);
    if (job->context) heif_context_free(job->context);
    free(job->tile_ids);
    free(job->file);
}

/*
 * A library's message as one line: line breaks (libheif ends some messages with one) become "; ",
 * and white space (and a full stop) at either end goes.
 */
static void one_line(const char *message, char *out, size_t size) {
    size_t n = 0;
    if (!message || !*message) message = "decoder error";
    while (*message == ' ' || *message == '\n' || *message == '\r' || *message == '\t') message++;
    for (const char *c = message; *c && n + 1 < size; c++) {
        if (*c == '\n' || *c == '\r') {
            if (n + 3 >= size) break;
            out[n++] = ';';
            out[n++] = ' ';
            while (c[1] == '\n' || c[1] == '\r' || c[1] == ' ') c++;
            continue;
        }
        out[n++] = (*c == '\t') ? ' ' : *c;
    }
    while (n > 0 && (out[n - 1] == ' ' || out[n - 1] == ';' || out[n - 1] == '.')) n--;
    out[n] = 0;
}

static int heif_status(heif_job *job, struct heif_error error) {
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE], message[BAPHOTO_ERROR_MESSAGE_SIZE];
    one_line(error.message, message, sizeof message);
    snprintf(reason, sizeof reason, "HEIF: %s", message);
    /* libheif's security limits (1.19 and later) come as Memory_allocation_error or Invalid_input. */
    if (error.subcode == heif_suberror_Security_limit_exceeded) return failure(job, BAPHOTO_ERROR_TOO_LARGE, reason);
    switch (error.code) {
    case heif_error_Memory_allocation_error: return failure(job, BAPHOTO_ERROR_NO_MEMORY, reason);
    case heif_error_Unsupported_feature:
    case heif_error_Unsupported_filetype: return failure(job, BAPHOTO_ERROR_UNSUPPORTED, reason);
    default: return failure(job, BAPHOTO_ERROR_CORRUPT, reason);
    }
}

static int read_file(heif_job *job, int fd, const baphoto_limits *limits) {
    struct stat status;
    if (fstat(fd, &status) != 0 || lseek(fd, 0, SEEK_SET) != 0) return failure(job, BAPHOTO_ERROR_IO, strerror(errno));
    if ((uint64_t)status.st_size > limits->budget_bytes) {
        char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
        snprintf(reason, sizeof reason, "HEIF file of %.0f MB is over the decode-memory budget of %.0f MB",
                 baphoto_megabytes((uint64_t)status.st_size), baphoto_megabytes(limits->budget_bytes));
        return failure(job, BAPHOTO_ERROR_TOO_LARGE, reason);
    }
    job->file_size = (size_t)status.st_size;
    job->file = malloc(job->file_size ? job->file_size : 1);
    if (!job->file) return failure(job, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    size_t done = 0;
    while (done < job->file_size) {
        ssize_t got = read(fd, job->file + done, job->file_size - done);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return failure(job, BAPHOTO_ERROR_IO, strerror(errno));
        if (got == 0) break;
        done += (size_t)got;
    }
    job->file_size = done;
    if (done == 0) return failure(job, BAPHOTO_ERROR_WRONG_FORMAT, "empty file");
    return BAPHOTO_OK;
}

static uint32_t side_limit(uint64_t max_pixels) {
    uint64_t side = 1;
    while (side * side < max_pixels && side < 65535) side++;
    return (uint32_t)side;
}

/*
 * Refuses a grid whose tiles cost more than its output needs (the same tile listed again and
 * again, or more tiles than cover the image): libheif would decode every one of them.
 */
static int check_structure(heif_job *job, const baphoto_limits *limits) {
    if (baheif_read_structure(job->file, job->file_size, &job->structure) != 0) return BAPHOTO_OK;
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
    if (baheif_grid_is_too_costly(&job->structure, limits->max_pixels, reason, sizeof reason)) {
        return failure(job, BAPHOTO_ERROR_TOO_LARGE, reason);
    }
    /* libheif 1.15 decodes such an item alone (a grey picture of differences); 1.19 refuses it. */
    if (job->structure.is_predicted)
        return failure(job, BAPHOTO_ERROR_UNSUPPORTED, "HEIF: a predictively coded image (pred) is not supported");
    if (job->structure.is_av1 && !heif_have_decoder_for_format(heif_compression_AV1))
        return failure(job, BAPHOTO_ERROR_NO_DECODER, "AVIF: this libheif has no AV1 decoder");
    return BAPHOTO_OK;
}

/*
 * libheif's own security limits (1.19 and later: Debian 13 has them, Debian 12's 1.15 does not),
 * found at run time, so that one package built against 1.15's headers sets them wherever the
 * library has them. The layout is heif_security_limits's (heif_security_limits.h, libheif 1.19
 * to 1.23): fields are only ever appended, each group after a `version` that says which are there;
 * only the first two groups are written, and the second only when `version` says it exists.
 */
typedef struct {
    uint8_t version;
    /* version 1 (1.19) */
    uint64_t max_image_size_pixels;
    uint64_t max_number_of_tiles;
    uint32_t max_bayer_pattern_pixels;
    uint32_t max_items;
    uint32_t max_color_profile_size;
    uint64_t max_memory_block_size;
    uint32_t max_components;
    uint32_t max_iloc_extents_per_item;
    uint32_t max_size_entity_group;
    uint32_t max_children_per_box;
    /* version 2 (1.20) */
    uint64_t max_total_memory;
} baheif_security_limits;

typedef baheif_security_limits *(*baheif_get_security_limits_fn)(const struct heif_context *);

static baheif_get_security_limits_fn get_security_limits;
static pthread_once_t security_limits_looked_up = PTHREAD_ONCE_INIT;

/*
 * dlsym in the libraries already loaded (libheif is the program's own dependency): it opens no
 * file, and baphoto_heif_prepare does it before the decode sandbox closes anyway.
 */
static void look_up_security_limits(void) {
    get_security_limits = (baheif_get_security_limits_fn)dlsym(RTLD_DEFAULT, "heif_context_get_security_limits");
}

int baphoto_heif_has_security_limits(void) {
    pthread_once(&security_limits_looked_up, look_up_security_limits);
    return get_security_limits != NULL;
}

/*
 * libheif's own limits from the pixel limit and the budget, as the worker's checks use them (0
 * would disable one); its total memory from what the worker's RLIMIT_AS leaves a decode
 * (`library_bytes`): libheif 1.23 counts 140 MB for a 6400x2880 10-bit grid (its planes and its
 * RGB image) that decodes within that limit on libheif 1.15.
 */
static void set_security_limits(heif_job *job, const baphoto_limits *limits) {
    if (!baphoto_heif_has_security_limits()) return;
    baheif_security_limits *own = get_security_limits(job->context);
    if (!own || own->version < 1) return;
    if (limits->max_pixels) own->max_image_size_pixels = limits->max_pixels;
    own->max_number_of_tiles = BAHEIF_MAX_TILES;
    own->max_children_per_box = BAHEIF_MAX_TILES;
    if (limits->budget_bytes) own->max_memory_block_size = limits->budget_bytes;
    uint64_t total = limits->library_bytes ? limits->library_bytes : limits->budget_bytes;
    if (own->version >= 2 && total) own->max_total_memory = total;
}

/* How much larger than its `ispe` a coded image may be: HEVC pads to its coding blocks and crops back. */
#define CODED_PADDING 64u

/*
 * The size the header gives (`ispe`, after libheif's transforms), or the coded one when the
 * `ispe` understates it past the padding: the budget and the layout then use what decodes.
 */
static void use_coded_size(const baheif_structure *s, baphoto_header *header) {
    if (!s->coded_width || !s->ispe_width) return;
    if (s->coded_width <= s->ispe_width + CODED_PADDING && s->coded_height <= s->ispe_height + CODED_PADDING) return;
    int turned = s->ispe_width != s->ispe_height && header->width == s->ispe_height && header->height == s->ispe_width;
    header->width = turned ? s->coded_height : s->coded_width;
    header->height = turned ? s->coded_width : s->coded_height;
}

/*
 * A layered AV1 image (`a1op`, `lsel`): only the layers of the operating point it names, up to the
 * layer it names, are left in its data (baheif_av1_select_layer), in the file's bytes in memory,
 * so that any libheif shows that layer (1.15 decodes operating point 0 and shows its highest).
 * Returns 1 when layers were dropped.
 */
static int select_layer(heif_job *job) {
    const baheif_structure *s = &job->structure;
    if (!s->is_av1 || s->is_grid || (s->operating_point <= 0 && s->layer < 0)) return 0;
    if (s->primary_method != 0 || s->primary_extents != 1 || s->primary_offset >= job->file_size) return 0;
    size_t length = job->file_size - (size_t)s->primary_offset;
    if (s->primary_length && s->primary_length < length) length = (size_t)s->primary_length;
    return baheif_av1_select_layer(job->file + s->primary_offset, length, s->operating_point, s->layer) > 0;
}

/*
 * A layered AV1 image's sequence headers (in its data and its `av1C`) declare at most its `ispe`
 * size, lowered in their own bits where they declare more: the lower layer a layered item shows
 * once the others are dropped (select_layer), or an item that holds only a scalable stream's base
 * layer (Apple's non-compliant `truncated_elementary_stream`: a 1024x768 layer of a 2048x1536
 * stream). libavif shows the `ispe`-sized frame; libheif 1.19 and later hold dav1d to the `ispe`
 * and refuse a sequence header that says more ("Image size 2048x1536 exceeds the maximum image
 * size"). A stream of one operating point whose layers were all kept is left alone: its largest
 * frame is its frame, and an `ispe` that understates it is a lie the layout sees through
 * (use_coded_size).
 */
static void declare_ispe_size(heif_job *job, int layers_dropped) {
    const baheif_structure *s = &job->structure;
    if (!s->is_av1 || s->is_grid || !s->ispe_width || !s->ispe_height) return;
    if (s->primary_method != 0 || s->primary_extents != 1 || s->primary_offset >= job->file_size) return;
    size_t length = job->file_size - (size_t)s->primary_offset;
    if (s->primary_length && s->primary_length < length) length = (size_t)s->primary_length;
    if (!layers_dropped && baheif_av1_operating_points(job->file + s->primary_offset, length) <= 1) return;
    int lowered = baheif_av1_limit_size(job->file + s->primary_offset, length, s->ispe_width, s->ispe_height);
    if (s->av1c_offset && s->av1c_size > 4 && s->av1c_offset + s->av1c_size <= job->file_size)
        lowered += baheif_av1_limit_size(job->file + s->av1c_offset + 4, s->av1c_size - 4, s->ispe_width,
                                         s->ispe_height);
    if (lowered <= 0) return;
    job->structure.coded_width = s->ispe_width;
    job->structure.coded_height = s->ispe_height;
}

/*
 * The colour description an AV1 image is converted with: its `colr` nclx, else its sequence
 * header's (the item's data, else its `av1C`'s config OBUs), as libavif reads them; 0, or -1
 * when neither can be read (libheif's description then).
 */
static int av1_colour(const heif_job *job, baheif_av1_colour *colour) {
    const baheif_structure *s = &job->structure;
    if (s->has_nclx) {
        *colour = (baheif_av1_colour){s->nclx_primaries, s->nclx_transfer, s->nclx_matrix, s->nclx_full};
        return 0;
    }
    if (s->is_grid) return -1;
    if (s->primary_method == 0 && s->primary_offset < job->file_size) {
        size_t length = job->file_size - (size_t)s->primary_offset;
        if (s->primary_length && s->primary_length < length) length = (size_t)s->primary_length;
        if (baheif_av1_read_colour(job->file + s->primary_offset, length, colour) == 0) return 0;
    }
    if (s->av1c_offset && s->av1c_size > 4 && s->av1c_offset + s->av1c_size <= job->file_size)
        return baheif_av1_read_colour(job->file + s->av1c_offset + 4, s->av1c_size - 4, colour);
    return -1;
}

/*
 * An image sequence (`avis`, `msf1`) that also holds a primary image item: libheif 1.15 reads only
 * files that list `mif1`, `avif`, `heic` or `heix` among their compatible brands, and refuses the
 * rest before looking at their items ("File does not include any supported brands"). When the
 * file has a `meta` box with a primary item, one compatible brand of its `ftyp` (a repeat of the
 * major brand, else the last) is rewritten in memory to `mif1`, so that libheif shows that item.
 * A sequence without one is still refused.
 */
static void admit_sequence_still(heif_job *job) {
    if (!job->structure.has_meta || job->file_size < 16 || memcmp(job->file + 4, "ftyp", 4) != 0) return;
    size_t size = ((size_t)job->file[0] << 24) | ((size_t)job->file[1] << 16) | ((size_t)job->file[2] << 8) | job->file[3];
    if (size < 20 || size > job->file_size || size > 4096) return;
    static const char accepted[][5] = {"mif1", "avif", "heic", "heix"};
    size_t repeat = 0, last = 0;
    for (size_t at = 16; at + 4 <= size; at += 4) {
        for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++)
            if (memcmp(job->file + at, accepted[i], 4) == 0) return;
        if (!repeat && memcmp(job->file + at, job->file + 8, 4) == 0) repeat = at;
        last = at;
    }
    if (repeat || last) memcpy(job->file + (repeat ? repeat : last), "mif1", 4);
}

/*
 * Matrix coefficients that libavif (the AVIF reference decoder) refuses to convert to RGB, and
 * libheif 1.15 converts as if they were another: constant-luminance BT.2020 (10), SMPTE ST 2085
 * (11), chroma-derived constant luminance (13) and ICtCp (14). Refused likewise.
 */
static int check_matrix(heif_job *job) {
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_handle_get_nclx_color_profile(job->handle, &nclx).code != heif_error_Ok || !nclx) return BAPHOTO_OK;
    unsigned matrix = (unsigned)nclx->matrix_coefficients;
    heif_nclx_color_profile_free(nclx);
    const char *name = matrix == 10   ? "BT.2020 constant luminance"
                       : matrix == 11 ? "SMPTE ST 2085"
                       : matrix == 13 ? "chroma-derived constant luminance"
                       : matrix == 14 ? "ICtCp"
                                      : NULL;
    if (!name) return BAPHOTO_OK;
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
    snprintf(reason, sizeof reason, "HEIF: matrix coefficients %u (%s) are not supported", matrix, name);
    return failure(job, BAPHOTO_ERROR_UNSUPPORTED, reason);
}

/*
 * An image sequence without a primary item (only tracks; libheif 1.15 reads no tracks): its first
 * frame, made into a still image file in memory (heif_sequence.c), takes the file's place.
 */
static void still_of_sequence(heif_job *job) {
    baheif_structure probe;
    if (baheif_read_structure(job->file, job->file_size, &probe) == 0) return;
    uint8_t *still = NULL;
    size_t still_size = 0;
    if (baheif_sequence_still(job->file, job->file_size, &still, &still_size) != 0) return;
    free(job->file);
    job->file = still;
    job->file_size = still_size;
}

/*
 * An AV1 image whose `colr` nclx says only "full range" (primaries, transfer and matrix all 2,
 * unspecified, as Microsoft's files of the conformance set have it): libavif converts it as full
 * range with BT.601's matrix, its default; libheif 1.19 and later take exactly that description
 * for "no colr" and use the sequence header's range instead (limited in those files: every
 * colour expanded). Its matrix is written as 6 (BT.601), in memory: the same conversion in every
 * libheif (an unspecified matrix is BT.601's in libheif too), and a description libheif keeps.
 */
static void state_unspecified_colour(heif_job *job) {
    const baheif_structure *s = &job->structure;
    if (!s->is_av1 || !s->has_nclx || !s->nclx_full || s->nclx_offset + 11 > job->file_size) return;
    if (s->nclx_primaries != 2 || s->nclx_transfer != 2 || s->nclx_matrix != 2) return;
    job->file[s->nclx_offset + 9] = 6;
}

/*
 * A grid of HEVC tiles: its tiles made visible to libheif (their `infe` not hidden, in the file's
 * bytes in memory), so that it can be decoded a strip of tiles at a time (heif_tiles.c). Left as
 * it is when its `dimg` cannot be read: it is then decoded whole.
 */
static void show_grid_tiles(heif_job *job) {
    const baheif_structure *s = &job->structure;
    if (!s->is_grid || s->is_overlay || s->is_av1 || s->repeats_a_tile) return;
    if (baheif_show_grid_tiles(job->file, job->file_size, &job->tile_ids, &job->tile_count) != 0) {
        free(job->tile_ids);
        job->tile_ids = NULL;
        job->tile_count = 0;
    }
}

/* The EXIF orientation that shows an image as coded once its `irot` (`turns` quarter turns
 * anticlockwise) and then its `imir` (`mirror` 0: top and bottom exchanged, 1: left and right,
 * -1: none) are applied, as libheif applies them. */
static int orientation_of_transforms(int turns, int mirror) {
    static const int orientations[4][3] = {{1, 4, 2}, {8, 5, 7}, {3, 2, 4}, {6, 7, 5}};
    return orientations[turns & 3][(mirror < 0 ? -1 : mirror & 1) + 1];
}

/* The grid as heif_tiles.c decodes it. */
static baheif_tiled_grid tiled_grid(const heif_job *job) {
    const baheif_structure *s = &job->structure;
    return (baheif_tiled_grid){.context = job->context, .ids = job->tile_ids, .columns = s->columns, .rows = s->rows,
                               .tile_width = s->tile_width, .tile_height = s->tile_height, .width = s->output_width,
                               .height = s->output_height, .orientation = orientation_of_transforms(s->rotation, s->mirror)};
}

/*
 * Whether the primary image is decoded a strip of tiles at a time: a grid of HEVC tiles (its
 * tiles visible: show_grid_tiles leaves overlays and AV1 grids hidden; as many as its rows and
 * columns), without alpha, without a `clap`, not a monochrome one, turned or mirrored but not
 * both, whose size as shown (its `irot` applied) is the header's. Anything else is decoded whole
 * by libheif, as before.
 */
static int decodes_by_tile_strips(const heif_job *job, int alpha, const baphoto_header *header) {
    const baheif_structure *s = &job->structure;
    if (!job->tile_ids || alpha || s->has_clap || s->monochrome) return 0;
    /* libheif applies `irot` and `imir` in the order of the item's properties: both, left whole. */
    if (s->rotation && s->mirror >= 0) return 0;
    if (!s->rows || !s->columns || job->tile_count != s->rows * s->columns || s->tile_without_size) return 0;
    int turned = s->rotation & 1;
    uint32_t width = turned ? s->output_height : s->output_width, height = turned ? s->output_width : s->output_height;
    return width == header->width && height == header->height;
}

/* Opens the file's primary image and fills the header. */
static int open_primary(heif_job *job, int fd, const baphoto_limits *limits, baphoto_header *header) {
    int status = read_file(job, fd, limits);
    if (status == BAPHOTO_OK) still_of_sequence(job);
    if (status == BAPHOTO_OK) status = check_structure(job, limits);
    if (status != BAPHOTO_OK) return status;
    declare_ispe_size(job, select_layer(job));
    admit_sequence_still(job);
    state_unspecified_colour(job);
    show_grid_tiles(job);
    job->context = heif_context_alloc();
    if (!job->context) return failure(job, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    heif_context_set_maximum_image_size_limit(job->context, (int)side_limit(limits->max_pixels) + 1);
    set_security_limits(job, limits);
    heif_context_set_max_decoding_threads(job->context, 4);
    struct heif_error error = heif_context_read_from_memory_without_copy(job->context, job->file, job->file_size, NULL);
    if (error.code != heif_error_Ok) return heif_status(job, error);
    error = heif_context_get_primary_image_handle(job->context, &job->handle);
    if (error.code != heif_error_Ok) return heif_status(job, error);
    memset(header, 0, sizeof *header);
    int width = heif_image_handle_get_width(job->handle);
    int height = heif_image_handle_get_height(job->handle);
    if (width <= 0 || height <= 0) return failure(job, BAPHOTO_ERROR_CORRUPT, "HEIF: the image has no size");
    status = check_matrix(job);
    if (status != BAPHOTO_OK) return status;
    header->width = (uint32_t)width;
    header->height = (uint32_t)height;
    use_coded_size(&job->structure, header);
    header->orientation = 1;
    int alpha = heif_image_handle_has_alpha_channel(job->handle);
    int deep = heif_image_handle_get_luma_bits_per_pixel(job->handle) > 8;
    header->components = alpha ? 4 : 3;
    header->whole_image = 1;
    header->dct_scale_eighths = 8;
    uint64_t pixels = (uint64_t)header->width * header->height;
    /* Planes (4:2:0, twice for 10 bits), the interleaved image, and the file; or, by strips of
     * tiles, a strip and four tiles, and the file. */
    header->whole_image_bytes = pixels * (3 + (alpha ? 2 : 0)) / 2 * (deep ? 2 : 1) + pixels * (alpha ? 4 : 3) + job->file_size;
    job->by_tile_strips = decodes_by_tile_strips(job, alpha, header);
    if (job->by_tile_strips) {
        baheif_tiled_grid grid = tiled_grid(job);
        header->whole_image_bytes = baheif_tile_strips_bytes(&grid, deep) + job->file_size;
    }
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
    if (baphoto_over_pixel_limit(header, limits, reason)) return failure(job, BAPHOTO_ERROR_TOO_LARGE, reason);
    if (header->whole_image_bytes > limits->budget_bytes) {
        snprintf(reason, sizeof reason, "HEIF photo of %ux%u needs %.0f MB to decode, over the budget of %.0f MB",
                 header->width, header->height, baphoto_megabytes(header->whole_image_bytes),
                 baphoto_megabytes(limits->budget_bytes));
        return failure(job, BAPHOTO_ERROR_TOO_LARGE, reason);
    }
    return BAPHOTO_OK;
}

int baphoto_heif_read_header(int fd, const baphoto_limits *limits, baphoto_header *header,
                             char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    heif_job job = {.message = error};
    error[0] = 0;
    int status = open_primary(&job, fd, limits, header);
    job_free(&job);
    return status;
}

/*
 * Where the rows of the decoded image come from: libheif's interleaved 8-bit RGB or RGBA, or a
 * monochrome plane of 9 to 16 bits (expanded here from its range: libheif 1.15 converts 10- and
 * 12-bit limited-range monochrome as if full range); and an alpha plane decoded apart (its range
 * expanded here: libheif 1.15 takes a limited-range alpha as full range).
 */
typedef struct {
    const uint8_t *rgb;
    int rgb_stride, rgb_channels;
    const uint8_t *gray;
    int gray_stride;
    const uint8_t *gray_table; /* sample to 8 bits */
    const uint8_t *alpha;
    int alpha_stride, alpha_wide, alpha_width, alpha_height;
    const uint8_t *alpha_table;
    const baheif_yuv *yuv; /* an AV1 image's planes, converted here (heif_yuv.c) */
} baheif_rows;

/*
 * The table from a sample of `bits` bits to 8 bits: full range, or limited (16 to 235 at 8 bits,
 * scaled by 2^(bits - 8)) stretched to 0 to 255, rounded and clamped (H.273's equations, as libavif
 * applies them). NULL when out of memory.
 */
static uint8_t *range_table(int bits, int full) {
    size_t count = (size_t)1 << bits;
    uint8_t *table = malloc(count);
    if (!table) return NULL;
    double scale = (double)(1u << (bits - 8)), low = full ? 0 : 16 * scale;
    double span = full ? (double)(count - 1) : 219 * scale;
    for (size_t v = 0; v < count; v++) {
        double value = ((double)v - low) * 255.0 / span + 0.5;
        table[v] = value <= 0 ? 0 : value >= 255 ? 255 : (uint8_t)value;
    }
    return table;
}

/* A sample of a plane of 8 bits (`wide` 0) or 16-bit words. */
static inline uint32_t sample(const uint8_t *row, int wide, int x) {
    return wide ? ((const uint16_t *)(const void *)row)[x] : row[x];
}

/* Pushes the placed rows of the decoded image through the scaler, alpha composited over black. */
static int scale_rows(heif_job *job, const baphoto_target *target, baphoto_canvas *canvas, const baheif_rows *rows,
                      int width, int height) {
    baphoto_placement p =
        baphoto_place((uint32_t)width, (uint32_t)height, canvas->width, canvas->height, target->scale == BAPHOTO_SCALE_FILL);
    baphoto_scaler scaler;
    if (baphoto_scaler_init(&scaler, p.src_x, p.src_w, p.src_h, canvas->pixels, canvas->width, p.dst_x, p.dst_y, p.dst_w,
                          p.dst_h) != 0) {
        return failure(job, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    }
    int own_row = rows->gray || rows->alpha || rows->rgb_channels == 4 || rows->yuv;
    uint8_t *rgb = own_row ? malloc((size_t)width * 3) : NULL;
    if (own_row && !rgb) {
        baphoto_scaler_free(&scaler);
        return failure(job, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    }
    for (uint32_t y = p.src_y; y < p.src_y + p.src_h; y++) {
        if (rows->yuv) {
            baheif_yuv_row(rows->yuv, (int)y, rgb);
            baphoto_scaler_push(&scaler, rgb);
            continue;
        }
        const uint8_t *row = rows->rgb ? rows->rgb + (size_t)y * (size_t)rows->rgb_stride : NULL;
        if (!own_row) {
            baphoto_scaler_push(&scaler, row);
            continue;
        }
        const uint8_t *alpha = NULL;
        if (rows->alpha) {
            /* nearest neighbour when the alpha plane has another size (as libheif scales it) */
            uint32_t ay = (uint32_t)((uint64_t)y * (uint64_t)rows->alpha_height / (uint64_t)height);
            alpha = rows->alpha + (size_t)ay * (size_t)rows->alpha_stride;
        }
        const uint8_t *gray = rows->gray ? rows->gray + (size_t)y * (size_t)rows->gray_stride : NULL;
        for (int x = 0; x < width; x++) {
            uint32_t a = 255;
            if (alpha) {
                int ax = (int)((int64_t)x * rows->alpha_width / width);
                a = rows->alpha_table[sample(alpha, rows->alpha_wide, ax)];
            } else if (rows->rgb_channels == 4) {
                a = row[4 * x + 3];
            }
            for (int c = 0; c < 3; c++) {
                uint32_t v = gray ? rows->gray_table[sample(gray, 1, x)] : row[rows->rgb_channels * x + c];
                rgb[3 * x + c] = (uint8_t)((v * a + 127) / 255);
            }
        }
        baphoto_scaler_push(&scaler, rgb);
    }
    free(rgb);
    baphoto_scaler_free(&scaler);
    return BAPHOTO_OK;
}

/* The most EXIF bytes kept: the dates sit in the first few hundred (as the worker's reply keeps). */
#define EXIF_KEPT (64u << 10)
/* The largest Exif item read at all (libheif copies it whole): a camera's is a few dozen KB. */
#define EXIF_ITEM_MAX (1u << 20)

/*
 * The primary image's first Exif item as TIFF bytes: the item starts with a 4-byte big-endian
 * offset to the TIFF header (6 on iPhones and from libheif: past an "Exif\0\0"); an "Exif\0\0"
 * left in front of the header is skipped too.
 */
static void copy_exif(heif_job *job, const baphoto_limits *limits, baphoto_header *header, baphoto_metadata *metadata) {
    heif_item_id id;
    if (heif_image_handle_get_list_of_metadata_block_IDs(job->handle, "Exif", &id, 1) != 1) return;
    size_t size = heif_image_handle_get_metadata_size(job->handle, id);
    if (size < 4 + 8 || size > EXIF_ITEM_MAX || header->whole_image_bytes + size > limits->budget_bytes) return;
    uint8_t *block = malloc(size);
    if (!block || heif_image_handle_get_metadata(job->handle, id, block).code != heif_error_Ok) {
        free(block);
        return;
    }
    size_t start = 4 + (((size_t)block[0] << 24) | ((size_t)block[1] << 16) | ((size_t)block[2] << 8) | block[3]);
    if (start + 6 <= size && memcmp(block + start, "Exif\0\0", 6) == 0) start += 6;
    if (start < size && size - start >= 8) {
        size_t length = size - start < EXIF_KEPT ? size - start : EXIF_KEPT;
        metadata->exif = malloc(length);
        if (metadata->exif) {
            memcpy(metadata->exif, block + start, length);
            metadata->exif_length = length;
            header->whole_image_bytes += length;
        }
    }
    free(block);
}

/* The colour description: an ICC profile (`prof`, `rICC`; at most 4 MB) before an nclx. */
static void copy_colour(heif_job *job, const baphoto_limits *limits, baphoto_header *header,
                        baphoto_metadata *metadata) {
    size_t size = heif_image_handle_get_raw_color_profile_size(job->handle);
    if (size > 0) {
        if (size > (4u << 20) || header->whole_image_bytes + size > limits->budget_bytes) return;
        metadata->icc = malloc(size);
        struct heif_error error = {.code = heif_error_Memory_allocation_error};
        if (metadata->icc) error = heif_image_handle_get_raw_color_profile(job->handle, metadata->icc);
        if (error.code == heif_error_Ok) {
            metadata->icc_length = size;
            header->whole_image_bytes += size;
        } else {
            free(metadata->icc);
            metadata->icc = NULL;
        }
        return;
    }
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_handle_get_nclx_color_profile(job->handle, &nclx).code != heif_error_Ok || !nclx) return;
    metadata->has_nclx = 1;
    metadata->nclx_primaries = (uint16_t)nclx->color_primaries;
    metadata->nclx_transfer = (uint16_t)nclx->transfer_characteristics;
    heif_nclx_color_profile_free(nclx);
}

/*
 * Why the decode failed: libheif names an allocation it could not make after the worker's
 * RLIMIT_AS as something else ("Unsupported color conversion"); malloc's ENOMEM tells.
 */
static int decode_failure(heif_job *job, struct heif_error error) {
    if (errno != ENOMEM) return heif_status(job, error);
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE], message[BAPHOTO_ERROR_MESSAGE_SIZE];
    one_line(error.message, message, sizeof message);
    snprintf(reason, sizeof reason, "HEIF: out of memory while decoding (libheif: %s)", message);
    return failure(job, BAPHOTO_ERROR_NO_MEMORY, reason);
}

/*
 * The decoded image against its header: one larger than the header said (a coded size the file's
 * structure did not give away) takes the header's place, within the pixel limit and budget.
 */
static int check_decoded_size(heif_job *job, const baphoto_limits *limits, baphoto_header *header, int width,
                              int height) {
    if (width <= 0 || height <= 0 || (uint64_t)width * (uint64_t)height <= (uint64_t)header->width * header->height)
        return BAPHOTO_OK;
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
    uint32_t said_width = header->width, said_height = header->height;
    header->width = (uint32_t)width;
    header->height = (uint32_t)height;
    if (baphoto_over_pixel_limit(header, limits, reason)) return failure(job, BAPHOTO_ERROR_TOO_LARGE, reason);
    uint64_t bytes = (uint64_t)width * (uint64_t)height * 4 + job->file_size;
    if (bytes <= limits->budget_bytes) return BAPHOTO_OK;
    snprintf(reason, sizeof reason, "HEIF photo decodes to %dx%d (its header said %ux%u), over the budget of %.0f MB",
             width, height, said_width, said_height, baphoto_megabytes(limits->budget_bytes));
    return failure(job, BAPHOTO_ERROR_TOO_LARGE, reason);
}

/*
 * Whether the decoded `image` is full range: its nclx (the `colr` box's, else the bitstream's, which
 * libheif's AV1 decoders always give); without one, full range, as libheif takes it.
 */
static int full_range(const struct heif_image *image) {
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_get_nclx_color_profile(image, &nclx).code != heif_error_Ok || !nclx) return 1;
    int full = nclx->full_range_flag != 0;
    heif_nclx_color_profile_free(nclx);
    return full;
}

/* Finds the primary image's alpha auxiliary image (job->alpha_handle); 0, or -1 when it has none. */
static int find_alpha_handle(heif_job *job) {
    heif_item_id ids[16];
    int count = heif_image_handle_get_list_of_auxiliary_image_IDs(job->handle, 0, ids, 16);
    for (int i = 0; i < count && !job->alpha_handle; i++) {
        struct heif_image_handle *aux = NULL;
        if (heif_image_handle_get_auxiliary_image_handle(job->handle, ids[i], &aux).code != heif_error_Ok) continue;
        const char *type = NULL;
        int alpha = 0;
        if (heif_image_handle_get_auxiliary_type(aux, &type).code == heif_error_Ok && type) {
            alpha = strcmp(type, "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha") == 0 ||
                    strcmp(type, "urn:mpeg:hevc:2015:auxid:1") == 0;
            heif_image_handle_free_auxiliary_types(aux, &type);
        }
        if (alpha) job->alpha_handle = aux;
        else heif_image_handle_release(aux);
    }
    return job->alpha_handle ? 0 : -1;
}

/* The alpha plane of the primary image, decoded apart as it is coded, monochrome, into `rows`; 0, or -1 when it cannot be. */
static int decode_alpha(heif_job *job, baheif_rows *rows) {
    if (find_alpha_handle(job) != 0) return -1;
    if (heif_decode_image(job->alpha_handle, &job->alpha_image, heif_colorspace_monochrome, heif_chroma_monochrome, NULL)
            .code != heif_error_Ok)
        return -1;
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(job->alpha_image, heif_channel_Y, &stride);
    int bits = heif_image_get_bits_per_pixel_range(job->alpha_image, heif_channel_Y);
    int alpha_width = heif_image_get_width(job->alpha_image, heif_channel_Y);
    int alpha_height = heif_image_get_height(job->alpha_image, heif_channel_Y);
    if (!plane || bits < 8 || bits > 16 || alpha_width <= 0 || alpha_height <= 0) return -1;
    /* As libheif does, an alpha of another size is stretched over the image (nearest neighbour, in scale_rows). */
    free(job->alpha_table);
    job->alpha_table = range_table(bits, full_range(job->alpha_image));
    if (!job->alpha_table) return -1;
    rows->alpha = plane;
    rows->alpha_stride = stride;
    rows->alpha_wide = bits > 8;
    rows->alpha_width = alpha_width;
    rows->alpha_height = alpha_height;
    rows->alpha_table = job->alpha_table;
    return 0;
}

/* The alpha auxiliary image of the primary one, decoded as coded (no transforms, monochrome); 0 or -1. */
static int decode_alpha_as_coded(heif_job *job, const struct heif_decoding_options *options) {
    if (find_alpha_handle(job) != 0) return -1;
    struct heif_error error =
        heif_decode_image(job->alpha_handle, &job->alpha_image, heif_colorspace_monochrome, heif_chroma_monochrome, options);
    return error.code == heif_error_Ok ? 0 : -1;
}

/*
 * An AV1 image (or a grid of them) decoded by libheif without its transforms, then transformed
 * here as libavif's callers do (clap, irot, imir), its alpha decoded apart and expanded from its
 * range: a monochrome one as its gray plane, converted here (heif_yuv.c: libheif 1.15 converts
 * 10- and 12-bit limited range as if full), a colour one as libheif's 8-bit RGB (libheif converts
 * YCbCr itself whatever is asked for, and 1.23 expands the planes' range first).
 */
static int decode_av1_rows(heif_job *job, int alpha, baheif_rows *rows, int *width, int *height) {
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (!options) return failure(job, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    options->ignore_transformations = 1;
    int gray = job->structure.monochrome;
    options->convert_hdr_to_8bit = gray ? 0 : 1;
    errno = 0;
    struct heif_error decoded =
        heif_decode_image(job->handle, &job->image, gray ? heif_colorspace_monochrome : heif_colorspace_RGB,
                          gray ? heif_chroma_monochrome : heif_chroma_interleaved_RGB, options);
    if (decoded.code != heif_error_Ok) {
        heif_decoding_options_free(options);
        return decode_failure(job, decoded);
    }
    baheif_yuv *c = &job->yuv;
    memset(c, 0, sizeof *c);
    enum heif_channel channel = gray ? heif_channel_Y : heif_channel_interleaved;
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(job->image, channel, &stride);
    c->width = heif_image_get_width(job->image, channel);
    c->height = heif_image_get_height(job->image, channel);
    if (!plane || c->width <= 0 || c->height <= 0) {
        heif_decoding_options_free(options);
        return failure(job, BAPHOTO_ERROR_CORRUPT, "HEIF: no decoded image");
    }
    if (gray) {
        /* The range as the file gives it (its colr, else its sequence header), else libheif's. */
        int full = full_range(job->image);
        baheif_av1_colour colour;
        if (av1_colour(job, &colour) == 0) full = colour.full;
        c->planes = 1;
        c->plane[0] = plane;
        c->stride[0] = stride;
        c->bits = heif_image_get_bits_per_pixel_range(job->image, heif_channel_Y);
        if (baheif_yuv_prepare(c, 2, 2, full) != 0) {
            heif_decoding_options_free(options);
            return failure(job, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
        }
    } else {
        c->rgb = plane;
        c->rgb_stride = stride;
    }
    if (alpha && decode_alpha_as_coded(job, options) == 0) {
        int alpha_stride = 0;
        const uint8_t *alpha_plane = heif_image_get_plane_readonly(job->alpha_image, heif_channel_Y, &alpha_stride);
        int bits = heif_image_get_bits_per_pixel_range(job->alpha_image, heif_channel_Y);
        int alpha_width = heif_image_get_width(job->alpha_image, heif_channel_Y);
        int alpha_height = heif_image_get_height(job->alpha_image, heif_channel_Y);
        if (alpha_plane &&
            baheif_yuv_set_alpha(c, alpha_plane, alpha_stride, bits, alpha_width, alpha_height,
                                 full_range(job->alpha_image)) != 0) {
            heif_decoding_options_free(options);
            return failure(job, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
        }
    }
    heif_decoding_options_free(options);
    const baheif_structure *s = &job->structure;
    (void)baheif_yuv_set_transforms(c, s->has_clap ? s->clap : NULL, s->rotation, s->mirror);
    memset(rows, 0, sizeof *rows);
    rows->yuv = c;
    *width = c->out_width;
    *height = c->out_height;
    return BAPHOTO_OK;
}

/*
 * Decodes the primary image into `rows` (width and height into `*width`, `*height`): a deep
 * monochrome image as its gray plane, else libheif's 8-bit RGB, and an alpha plane apart where the
 * image has no transforms (libheif applies the primary item's to its own alpha, not to an alpha
 * decoded apart); else libheif's RGBA.
 */
static int decode_rows(heif_job *job, int alpha, baheif_rows *rows, int *width, int *height) {
    if (job->structure.is_av1) return decode_av1_rows(job, alpha, rows, width, height);
    int deep = heif_image_handle_get_luma_bits_per_pixel(job->handle) > 8;
    int gray = job->structure.monochrome && deep;
    int alpha_apart = alpha && !job->structure.transformed && !job->structure.is_grid;
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    errno = 0;
    if (options) options->convert_hdr_to_8bit = gray ? 0 : 1;
    enum heif_colorspace colorspace = gray ? heif_colorspace_monochrome : heif_colorspace_RGB;
    enum heif_chroma chroma = gray                     ? heif_chroma_monochrome
                              : alpha && !alpha_apart ? heif_chroma_interleaved_RGBA
                                                      : heif_chroma_interleaved_RGB;
    struct heif_error decoded = heif_decode_image(job->handle, &job->image, colorspace, chroma, options);
    heif_decoding_options_free(options);
    if (decoded.code != heif_error_Ok) return decode_failure(job, decoded);
    enum heif_channel channel = gray ? heif_channel_Y : heif_channel_interleaved;
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(job->image, channel, &stride);
    *width = heif_image_get_width(job->image, channel);
    *height = heif_image_get_height(job->image, channel);
    if (!plane || *width <= 0 || *height <= 0) return failure(job, BAPHOTO_ERROR_CORRUPT, "HEIF: no decoded image");
    memset(rows, 0, sizeof *rows);
    if (gray) {
        int bits = heif_image_get_bits_per_pixel_range(job->image, heif_channel_Y);
        if (bits <= 8 || bits > 16) return failure(job, BAPHOTO_ERROR_UNSUPPORTED, "HEIF: unsupported monochrome depth");
        free(job->gray_table);
        job->gray_table = range_table(bits, full_range(job->image));
        if (!job->gray_table) return failure(job, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
        rows->gray = plane;
        rows->gray_stride = stride;
        rows->gray_table = job->gray_table;
    } else {
        rows->rgb = plane;
        rows->rgb_stride = stride;
        rows->rgb_channels = alpha && !alpha_apart ? 4 : 3;
    }
    if (alpha_apart && decode_alpha(job, rows) != 0) {
        /* No alpha to be had apart: libheif's RGBA, as before. */
        heif_image_release(job->image);
        job->image = NULL;
        if (job->alpha_image) heif_image_release(job->alpha_image);
        if (job->alpha_handle) heif_image_handle_release(job->alpha_handle);
        job->alpha_image = NULL;
        job->alpha_handle = NULL;
        job->structure.transformed = 1;
        return decode_rows(job, alpha, rows, width, height);
    }
    return BAPHOTO_OK;
}

/* The grid decoded a strip of tiles at a time into `canvas` (heif_tiles.c), as libheif's whole decode shows it. */
static int scale_tile_strips(heif_job *job, const baphoto_target *target, baphoto_canvas *canvas) {
    baheif_tiled_grid grid = tiled_grid(job);
    struct heif_error error = {heif_error_Ok, heif_suberror_Unspecified, ""};
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
    errno = 0;
    int status = baheif_scale_tile_strips(&grid, canvas, target->scale == BAPHOTO_SCALE_FILL, &error, reason, sizeof reason);
    if (status == BAHEIF_LIBHEIF_FAILED) return decode_failure(job, error);
    return status == BAPHOTO_OK ? BAPHOTO_OK : failure(job, status, reason);
}

int baphoto_heif_decode(int fd, const baphoto_limits *limits, const baphoto_target *target, baphoto_header *header,
                        baphoto_metadata *metadata, char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    heif_job job = {.message = error};
    error[0] = 0;
    if (metadata) memset(metadata, 0, sizeof *metadata);
    int status = open_primary(&job, fd, limits, header);
    baphoto_canvas canvas = {0};
    if (status == BAPHOTO_OK && baphoto_canvas_init(&canvas, target, ba_orientation_on_panel(1, target->quarter_turns))) {
        status = failure(&job, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    }
    if (status == BAPHOTO_OK && job.by_tile_strips) {
        status = scale_tile_strips(&job, target, &canvas);
    } else if (status == BAPHOTO_OK) {
        int alpha = header->components == 4, width = 0, height = 0;
        baheif_rows rows;
        status = decode_rows(&job, alpha, &rows, &width, &height);
        if (status == BAPHOTO_OK) status = check_decoded_size(&job, limits, header, width, height);
        if (status == BAPHOTO_OK) status = scale_rows(&job, target, &canvas, &rows, width, height);
    }
    if (status == BAPHOTO_OK) baphoto_canvas_finish(&canvas, target);
    if (status == BAPHOTO_OK && metadata) {
        copy_exif(&job, limits, header, metadata);
        copy_colour(&job, limits, header, metadata);
        baphoto_convert_to_srgb(target, metadata);
    }
    baphoto_canvas_free(&canvas);
    job_free(&job);
    return status;
}

int baphoto_heif_decode_by_libheif_alone(int fd, const baphoto_limits *limits,
                                         char error[BAPHOTO_ERROR_MESSAGE_SIZE]) {
    heif_job job = {.message = error};
    error[0] = 0;
    int status = read_file(&job, fd, limits);
    if (status == BAPHOTO_OK) {
        job.context = heif_context_alloc();
        if (!job.context) status = failure(&job, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    }
    if (status == BAPHOTO_OK) {
        heif_context_set_maximum_image_size_limit(job.context, (int)side_limit(limits->max_pixels) + 1);
        set_security_limits(&job, limits);
        struct heif_error failed = heif_context_read_from_memory_without_copy(job.context, job.file, job.file_size, NULL);
        if (failed.code == heif_error_Ok) failed = heif_context_get_primary_image_handle(job.context, &job.handle);
        if (failed.code == heif_error_Ok) {
            failed = heif_decode_image(job.handle, &job.image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, NULL);
        }
        if (failed.code != heif_error_Ok) status = heif_status(&job, failed);
    }
    job_free(&job);
    return status;
}

void baphoto_heif_prepare(void) {
    heif_init(NULL); /* never deinitialised: a worker ends with its photo */
    (void)baphoto_heif_has_security_limits();
}

const char *baphoto_heif_version(void) { return heif_get_version(); }

const char *baphoto_heif_library_version(void) {
    static _Thread_local char text[40];
    snprintf(text, sizeof text, "libheif %s", heif_get_version());
    return text;
}

int baphoto_heif_decodes_avif(void) { return heif_have_decoder_for_format(heif_compression_AV1); }

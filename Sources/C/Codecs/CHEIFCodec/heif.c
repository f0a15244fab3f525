#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "CHEIFCodec.h"
#include "heif_grid.h"
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
 * threads (libheif's default, which heif-convert uses). The whole decoded image is held twice
 * (YCbCr planes, then RGB), which the header's whole_image_bytes counts against the budget
 * before decoding.
 */
typedef struct {
    uint8_t *file;
    size_t file_size;
    struct heif_context *context;
    struct heif_image_handle *handle;
    struct heif_image *image;
    baheif_structure structure; /* what the file's boxes say, read before libheif */
    char *message;
} heif_job;

static int failure(heif_job *job, int status, const char *reason) {
    snprintf(job->message, BAPHOTO_ERROR_MESSAGE_SIZE, "%s", reason);
    return status;
}

static void job_free(heif_job *job) {
    if (job->image) heif_image_release(job->image);
    if (job->handle) heif_image_handle_release(job->handle);
    if (job->context) heif_context_free(job->context);
    free(job->file);
}

static int heif_status(heif_job *job, struct heif_error error) {
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
    snprintf(reason, sizeof reason, "HEIF: %s", error.message ? error.message : "decoder error");
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

/* libheif's own limits from the pixel limit and the budget, as the worker's checks use them (0 would disable one). */
static void set_security_limits(heif_job *job, const baphoto_limits *limits) {
    if (!baphoto_heif_has_security_limits()) return;
    baheif_security_limits *own = get_security_limits(job->context);
    if (!own || own->version < 1) return;
    if (limits->max_pixels) own->max_image_size_pixels = limits->max_pixels;
    own->max_number_of_tiles = BAHEIF_MAX_TILES;
    own->max_children_per_box = BAHEIF_MAX_TILES;
    if (limits->budget_bytes) own->max_memory_block_size = limits->budget_bytes;
    if (own->version >= 2 && limits->budget_bytes) own->max_total_memory = limits->budget_bytes;
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

/* Opens the file's primary image and fills the header. */
static int open_primary(heif_job *job, int fd, const baphoto_limits *limits, baphoto_header *header) {
    int status = read_file(job, fd, limits);
    if (status == BAPHOTO_OK) status = check_structure(job, limits);
    if (status != BAPHOTO_OK) return status;
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
    /* Planes (4:2:0, twice for 10 bits), the interleaved image, and the file. */
    header->whole_image_bytes = pixels * (3 + (alpha ? 2 : 0)) / 2 * (deep ? 2 : 1) + pixels * (alpha ? 4 : 3) + job->file_size;
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

/* Pushes the placed rows of the decoded image (RGB or RGBA, 8 bits) through the scaler. */
static int scale_rows(heif_job *job, const baphoto_target *target, baphoto_canvas *canvas, int alpha) {
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(job->image, heif_channel_interleaved, &stride);
    int width = heif_image_get_width(job->image, heif_channel_interleaved);
    int height = heif_image_get_height(job->image, heif_channel_interleaved);
    if (!plane || width <= 0 || height <= 0) return failure(job, BAPHOTO_ERROR_CORRUPT, "HEIF: no decoded image");
    bapng_placement p =
        bapng_place((uint32_t)width, (uint32_t)height, canvas->width, canvas->height, target->scale == BAPHOTO_SCALE_FILL);
    bapng_scaler scaler;
    if (bapng_scaler_init(&scaler, p.src_x, p.src_w, p.src_h, canvas->pixels, canvas->width, p.dst_x, p.dst_y, p.dst_w,
                          p.dst_h) != 0) {
        return failure(job, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    }
    uint8_t *rgb = alpha ? malloc((size_t)width * 3) : NULL;
    if (alpha && !rgb) {
        bapng_scaler_free(&scaler);
        return failure(job, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    }
    for (uint32_t y = p.src_y; y < p.src_y + p.src_h; y++) {
        const uint8_t *row = plane + (size_t)y * (size_t)stride;
        if (alpha) {
            for (int x = 0; x < width; x++) {
                uint32_t a = row[4 * x + 3];
                for (int c = 0; c < 3; c++) rgb[3 * x + c] = (uint8_t)((row[4 * x + c] * a + 127) / 255);
            }
            row = rgb;
        }
        bapng_scaler_push(&scaler, row);
    }
    free(rgb);
    bapng_scaler_free(&scaler);
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
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
    snprintf(reason, sizeof reason, "HEIF: out of memory while decoding (libheif: %s)",
             error.message ? error.message : "decoder error");
    return failure(job, BAPHOTO_ERROR_NO_MEMORY, reason);
}

/*
 * The decoded image against its header: one larger than the header said (a coded size the file's
 * structure did not give away) takes the header's place, within the pixel limit and budget.
 */
static int check_decoded_size(heif_job *job, const baphoto_limits *limits, baphoto_header *header) {
    int width = heif_image_get_width(job->image, heif_channel_interleaved);
    int height = heif_image_get_height(job->image, heif_channel_interleaved);
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
    int alpha = header->components == 4;
    if (status == BAPHOTO_OK) {
        struct heif_decoding_options *options = heif_decoding_options_alloc();
        errno = 0;
        if (options) options->convert_hdr_to_8bit = 1;
        struct heif_error decoded = heif_decode_image(job.handle, &job.image, heif_colorspace_RGB,
                                                      alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                                                      options);
        heif_decoding_options_free(options);
        if (decoded.code != heif_error_Ok) status = decode_failure(&job, decoded);
    }
    if (status == BAPHOTO_OK) status = check_decoded_size(&job, limits, header);
    if (status == BAPHOTO_OK) status = scale_rows(&job, target, &canvas, alpha);
    if (status == BAPHOTO_OK) baphoto_canvas_finish(&canvas, target);
    if (status == BAPHOTO_OK && metadata) {
        copy_exif(&job, limits, header, metadata);
        copy_colour(&job, limits, header, metadata);
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

int baphoto_heif_decodes_avif(void) { return heif_have_decoder_for_format(heif_compression_AV1); }

#include "heif_tiles.h"

#include "CPhotoCodecCore.h"
#include "layout.h"
#include "scaler.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The upright photo's row r is a line of the coded grid: a row of it (orientations 1 to 4) or a
 * column (5 to 8, a quarter turn or a transposition), counted from the other end for some
 * orientations, and read backwards for others. Orientation 6, for example (a quarter turn
 * clockwise): upright row r is coded column r, read from the bottom up.
 */
typedef struct {
    int columns;         /* the lines are the grid's columns */
    int lines_reversed;  /* upright row r is line count - 1 - r */
    int pixels_reversed; /* each line is read from its end */
} line_order;

static line_order order_of(int orientation) {
    return (line_order){.columns = orientation >= 5,
                        .lines_reversed = orientation == 3 || orientation == 4 || orientation == 7 || orientation == 8,
                        .pixels_reversed = orientation == 2 || orientation == 3 || orientation == 6 || orientation == 7};
}

/* Bytes a pixel of a tile costs in libheif while it is decoded and converted: its YCbCr planes
 * (4:2:0, two bytes a sample when deep), 1.15's planar RGB and the interleaved RGB handed out. */
static uint64_t tile_pixel_bytes(int deep) { return (deep ? 3 : 2) + 3 + 3; }

/* At most this many tiles of a strip are decoded at once, each on a thread (libheif's own
 * default for a grid's tiles, which heif-convert uses). */
#define TILE_THREADS 4

uint64_t baheif_tile_strips_bytes(const baheif_tiled_grid *grid, int deep) {
    int columns = order_of(grid->orientation).columns;
    uint64_t line = columns ? grid->height : grid->width, thickness = columns ? grid->tile_width : grid->tile_height;
    uint64_t tile = (uint64_t)grid->tile_width * grid->tile_height * tile_pixel_bytes(deep);
    return (thickness + 1) * line * 3 + TILE_THREADS * tile;
}

/* A tile's failure: a BAPHOTO status with its reason, or BAHEIF_LIBHEIF_FAILED with libheif's error. */
typedef struct {
    int status;
    struct heif_error libheif_error;
    char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
} tile_failure;

/* One call's state: the grid, its strip of lines (`thickness` lines of `length` RGB pixels, line
 * by line), the tiles of the strip being decoded, and the first failure. */
typedef struct {
    const baheif_tiled_grid *grid;
    line_order order;
    uint32_t length, thickness, lines; /* pixels a line, lines a strip, lines in the grid */
    uint8_t *strip, *row;
    pthread_mutex_t lock;
    uint32_t strip_index, next_tile; /* the strip, and the next of its tiles to take (under lock) */
    tile_failure failure;            /* the first (under lock) */
} tile_strips;

static int fail(tile_failure *f, int status, const char *reason) {
    f->status = status;
    snprintf(f->reason, sizeof f->reason, "%s", reason);
    return status;
}

static int fail_in_libheif(tile_failure *f, struct heif_error error) {
    f->status = BAHEIF_LIBHEIF_FAILED;
    f->libheif_error = error;
    return f->status;
}

/* Decodes tile `index` as interleaved 8-bit RGB into `*image`; BAPHOTO_OK or a failure. */
static int decode_tile(const tile_strips *t, uint32_t index, struct heif_image **image, tile_failure *f) {
    struct heif_image_handle *handle = NULL;
    struct heif_error error = heif_context_get_image_handle(t->grid->context, t->grid->ids[index], &handle);
    if (error.code != heif_error_Ok) return fail_in_libheif(f, error);
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (options) options->convert_hdr_to_8bit = 1;
    error = heif_decode_image(handle, image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, options);
    heif_decoding_options_free(options);
    heif_image_handle_release(handle);
    return error.code == heif_error_Ok ? BAPHOTO_OK : fail_in_libheif(f, error);
}

/*
 * Pastes the tile at (`column`, `row`) of the grid into the strip (the part of it inside the
 * grid): its rows as lines of a row strip, or its columns as lines of a column strip. Tiles of
 * one strip cover apart parts of it, so that they may be pasted at once.
 */
static int paste_tile(const tile_strips *t, uint32_t column, uint32_t row, tile_failure *f) {
    const baheif_tiled_grid *g = t->grid;
    struct heif_image *image = NULL;
    int status = decode_tile(t, row * g->columns + column, &image, f);
    if (status != BAPHOTO_OK) return status;
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    int width = heif_image_get_width(image, heif_channel_interleaved);
    int height = heif_image_get_height(image, heif_channel_interleaved);
    if (!plane || width != (int)g->tile_width || height != (int)g->tile_height) {
        heif_image_release(image);
        return fail(f, BAPHOTO_ERROR_CORRUPT, "HEIF: a tile of the grid is not of the grid's tile size");
    }
    uint32_t x0 = column * g->tile_width, y0 = row * g->tile_height;
    uint32_t across = g->width - x0 < g->tile_width ? g->width - x0 : g->tile_width;
    uint32_t down = g->height - y0 < g->tile_height ? g->height - y0 : g->tile_height;
    size_t line_bytes = (size_t)t->length * 3;
    for (uint32_t y = 0; y < down; y++) {
        const uint8_t *from = plane + (size_t)y * (size_t)stride;
        if (!t->order.columns) {
            memcpy(t->strip + (size_t)y * line_bytes + (size_t)x0 * 3, from, (size_t)across * 3);
            continue;
        }
        for (uint32_t x = 0; x < across; x++) memcpy(t->strip + (size_t)x * line_bytes + (size_t)(y0 + y) * 3, from + 3 * x, 3);
    }
    heif_image_release(image);
    return BAPHOTO_OK;
}

/* How many tiles strip of `t` has (a row of tiles has as many as the grid's columns). */
static uint32_t tiles_across(const tile_strips *t) { return t->order.columns ? t->grid->rows : t->grid->columns; }

/* A thread's work: takes the strip's next tile until none is left or one has failed. */
static void *paste_tiles(void *context) {
    tile_strips *t = context;
    uint32_t across = tiles_across(t);
    for (;;) {
        pthread_mutex_lock(&t->lock);
        uint32_t i = t->next_tile++;
        int stop = t->failure.status != BAPHOTO_OK || i >= across;
        pthread_mutex_unlock(&t->lock);
        if (stop) return NULL;
        tile_failure f = {.status = BAPHOTO_OK};
        if ((t->order.columns ? paste_tile(t, t->strip_index, i, &f) : paste_tile(t, i, t->strip_index, &f)) == BAPHOTO_OK)
            continue;
        pthread_mutex_lock(&t->lock);
        if (t->failure.status == BAPHOTO_OK) t->failure = f;
        pthread_mutex_unlock(&t->lock);
    }
}

/* Decodes strip `strip` (a row of tiles, or a column): its tiles on up to TILE_THREADS threads,
 * this one among them (fewer when a thread cannot be made). */
static int decode_strip(tile_strips *t, uint32_t strip) {
    t->strip_index = strip;
    t->next_tile = 0;
    pthread_t helpers[TILE_THREADS - 1];
    uint32_t started = 0, wanted = tiles_across(t) < TILE_THREADS ? tiles_across(t) - 1 : TILE_THREADS - 1;
    while (started < wanted && pthread_create(&helpers[started], NULL, paste_tiles, t) == 0) started++;
    paste_tiles(t);
    for (uint32_t i = 0; i < started; i++) pthread_join(helpers[i], NULL);
    return t->failure.status;
}

/* Upright row `r`: its line of the strip that holds it (`first` its first line), read the right way. */
static const uint8_t *upright_row(tile_strips *t, uint32_t r, uint32_t first) {
    uint32_t line = t->order.lines_reversed ? t->lines - 1 - r : r;
    const uint8_t *from = t->strip + (size_t)(line - first) * (size_t)t->length * 3;
    if (!t->order.pixels_reversed) return from;
    for (uint32_t x = 0; x < t->length; x++) memcpy(t->row + 3 * x, from + 3 * (size_t)(t->length - 1 - x), 3);
    return t->row;
}

/* Pushes upright rows [`*next`, `end`) that the strip holding `r`'s line has, decoding it first. */
static int push_strip(tile_strips *t, baphoto_scaler *scaler, uint32_t *next, uint32_t end) {
    uint32_t line = t->order.lines_reversed ? t->lines - 1 - *next : *next;
    uint32_t strip = line / t->thickness, first = strip * t->thickness;
    uint32_t last = first + t->thickness < t->lines ? first + t->thickness : t->lines;
    /* The upright rows that strip holds: [first, last) as lines, counted from the other end when reversed. */
    uint32_t stop = t->order.lines_reversed ? t->lines - first : last;
    if (stop > end) stop = end;
    int status = decode_strip(t, strip);
    for (; status == BAPHOTO_OK && *next < stop; (*next)++) baphoto_scaler_push(scaler, upright_row(t, *next, first));
    return status;
}

/* Whether the tiles cover the grid's output, none of them wholly outside it. */
static int tiles_cover(const baheif_tiled_grid *g) {
    if (!g->columns || !g->rows || !g->tile_width || !g->tile_height || !g->width || !g->height) return 0;
    uint64_t wide = (uint64_t)g->columns * g->tile_width, tall = (uint64_t)g->rows * g->tile_height;
    return wide >= g->width && tall >= g->height && wide - g->width < g->tile_width && tall - g->height < g->tile_height;
}

/* The outcome of a call, as baheif_scale_tile_strips tells it. */
static int tell(const tile_failure *f, struct heif_error *libheif_error, char *reason, size_t reason_size) {
    if (f->status == BAHEIF_LIBHEIF_FAILED) *libheif_error = f->libheif_error;
    if (f->status != BAPHOTO_OK && f->status != BAHEIF_LIBHEIF_FAILED) snprintf(reason, reason_size, "%s", f->reason);
    return f->status;
}

int baheif_scale_tile_strips(const baheif_tiled_grid *grid, baphoto_canvas *canvas, int fill,
                           struct heif_error *libheif_error, char *reason, size_t reason_size) {
    tile_strips t = {.grid = grid, .order = order_of(grid->orientation), .failure = {.status = BAPHOTO_OK}};
    if (!tiles_cover(grid)) {
        fail(&t.failure, BAPHOTO_ERROR_CORRUPT, "HEIF: the grid's tiles do not cover its image");
        return tell(&t.failure, libheif_error, reason, reason_size);
    }
    t.length = t.order.columns ? grid->height : grid->width;
    t.lines = t.order.columns ? grid->width : grid->height;
    t.thickness = t.order.columns ? grid->tile_width : grid->tile_height;
    baphoto_placement p = baphoto_place(t.length, t.lines, canvas->width, canvas->height, fill);
    baphoto_scaler scaler;
    if (baphoto_scaler_init(&scaler, p.src_x, p.src_w, p.src_h, canvas->pixels, canvas->width, p.dst_x, p.dst_y, p.dst_w,
                            p.dst_h) != 0) {
        fail(&t.failure, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
        return tell(&t.failure, libheif_error, reason, reason_size);
    }
    pthread_mutex_init(&t.lock, NULL);
    t.strip = malloc((size_t)t.length * 3 * t.thickness);
    t.row = malloc((size_t)t.length * 3);
    int status = t.strip && t.row ? BAPHOTO_OK : fail(&t.failure, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    uint32_t next = p.src_y, end = p.src_y + p.src_h;
    while (status == BAPHOTO_OK && next < end) status = push_strip(&t, &scaler, &next, end);
    free(t.row);
    free(t.strip);
    pthread_mutex_destroy(&t.lock);
    baphoto_scaler_free(&scaler);
    return tell(&t.failure, libheif_error, reason, reason_size);
}

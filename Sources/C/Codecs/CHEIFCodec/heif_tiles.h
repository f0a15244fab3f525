#ifndef C_HEIF_TILES_H
#define C_HEIF_TILES_H
/*
 * A grid of HEVC tiles decoded a strip of tiles at a time (heif_tiles.c): each tile by libheif
 * as an image of its own (up to four at once, on threads, as libheif decodes a grid's tiles), a
 * row (or column) of tiles pasted into a strip, and the strip's lines pushed through the scaler
 * as upright rows. What is held at once is one strip and four tiles, not the whole image twice:
 * a 24 MP iPhone photo (5712x4284, tiles of 512x512) needs about 17 MB instead of about 150.
 */
#include "photo_layout.h"

#include <libheif/heif.h>
#include <stddef.h>
#include <stdint.h>

/**
 * A grid to decode: its tiles' item ids in `dimg` order, its layout, its output size as coded,
 * and the EXIF orientation (1 to 8) that its `irot` and `imir` make of it.
 */
typedef struct {
    struct heif_context *context;
    const uint32_t *ids;
    uint32_t columns, rows, tile_width, tile_height, width, height;
    int orientation;
} baheif_tiled_grid;

/** What baheif_scale_tile_strips returns when libheif failed (its error in `*libheif_error`). */
#define BAHEIF_LIBHEIF_FAILED (-1000)

/** Bytes a grid of `grid` needs held at once while decoded a strip of tiles at a time (the strip
 * and a row, and four tiles as libheif holds them while it converts them, of `deep` samples or
 * 8 bits). */
uint64_t baheif_tile_strips_bytes(const baheif_tiled_grid *grid, int deep);

/**
 * Decodes `grid` shown upright (its orientation applied) into `canvas` (which holds the upright
 * photo, turned only for the panel), placed as `fill` says: exactly where, and as, a decode of
 * the whole image turned first would put it. It goes a strip of tiles at a time in the order
 * the upright rows need: rows of tiles, or columns of tiles for a quarter turn; strips that the
 * placement crops away are not decoded. Returns BAPHOTO_OK; a BAPHOTO status with `reason`; or
 * BAHEIF_LIBHEIF_FAILED with libheif's error.
 */
int baheif_scale_tile_strips(const baheif_tiled_grid *grid, baphoto_canvas *canvas, int fill,
                           struct heif_error *libheif_error, char *reason, size_t reason_size);

#endif

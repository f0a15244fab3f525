#ifndef C_HEIF_GRID_H
#define C_HEIF_GRID_H
/*
 * What a HEIF/AVIF file's structure says a decode of its primary image will cost, read from its
 * `meta` box before libheif sees the file (heif_grid.c): a small bounded ISO-BMFF parser, every
 * length checked against what holds it.
 */
#include <stddef.h>
#include <stdint.h>

/** The most tiles a grid may have (libheif's `max_number_of_tiles`, where it has one): 256 x 256. */
#define BAHEIF_MAX_TILES 65536u

/** What the primary item is made of. */
typedef struct {
    /** 1 when the primary item is a `grid`, or an `iovl` overlay (its layers counted as tiles). */
    int is_grid;
    /** 1 when it is an `iovl` overlay: no descriptor is read, its layers are held to the pixel limit. */
    int is_overlay;
    /** The grid descriptor's rows and columns (0 when it could not be read). */
    uint32_t rows, columns;
    /** The grid's output size from its descriptor (0 when it could not be read). */
    uint32_t output_width, output_height;
    /** The number of `dimg` references from the grid to its tiles. */
    uint32_t tile_count;
    /** The largest tile's `ispe` size. */
    uint32_t tile_width, tile_height;
    /** The tiles' `ispe` pixels, summed (saturating). */
    uint64_t tile_pixels;
    /** 1 when a tile is referenced more than once. */
    int repeats_a_tile;
    /** 1 when two different tiles start at the same data (one coded image, decoded again and again). */
    int tiles_share_data;
    /** 1 when a tile has no `ispe` (its size unknown). */
    int tile_without_size;
    /** The primary item's (not a grid's) `ispe` size, and its coded size from its `hvcC` (0 when unknown). */
    uint32_t ispe_width, ispe_height, coded_width, coded_height;
    /** 1 when the file has a `meta` box with a primary item (else it may be a sequence only). */
    int has_meta;
    /** 1 when the primary item is coded with reference to other items (a `pred` reference,
     * HEIF's predictively coded images): decoded alone it is a picture of differences. */
    int is_predicted;
    /** 1 when the primary item is AV1 (`av01`), or a grid with AV1 tiles. */
    int is_av1;
    /** 1 when the primary item's `av1C` or `hvcC` says it has no chroma (4:0:0). */
    int monochrome;
    /** 1 when the primary item has an `irot`, `imir` or `clap`. */
    int transformed;
    /** Its `irot` (quarter turns anticlockwise, 0 without one) and `imir` (0, 1; -1 without one). */
    int rotation, mirror;
    /** Its `clap` (width N/D, height N/D, horizontal offset N/D, vertical offset N/D), when `has_clap`. */
    int has_clap;
    int32_t clap[8];
    /** Its `colr` of type nclx (the first), when `has_nclx`, and where that box's body is in the file. */
    int has_nclx, nclx_primaries, nclx_transfer, nclx_matrix, nclx_full;
    uint64_t nclx_offset;
    /** Where the primary item's (not a grid's) `av1C` body is in the file (0 when it has none). */
    uint64_t av1c_offset;
    uint32_t av1c_size;
    /** The primary item's `a1op` operating point and `lsel` layer (-1 when it has none). */
    int operating_point, layer;
    /** Where the primary item's data is (its first extent, `iloc` construction method, extents). */
    int primary_method;
    uint64_t primary_offset, primary_length;
    unsigned primary_extents;
} baheif_structure;

/**
 * The coded size of the HEVC image whose `hvcC` body is `hvcc` (`size` bytes), from its first
 * sequence parameter set (heif_hevc.c). Returns 0, or -1 when it cannot be read.
 */
int baheif_hvcc_size(const uint8_t *hvcc, size_t size, uint32_t *width, uint32_t *height);

/**
 * The coded size of the AV1 image whose data (OBUs, as an `av01` item holds them) is `data`
 * (`size` bytes), from its sequence header (heif_av1.c). Returns 0, or -1 when it cannot be read.
 */
int baheif_av1_size(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height);

/**
 * Keeps in the AV1 data `data` (`size` bytes, OBUs with their sizes) only the layers that the
 * operating point `operating_point` (`a1op`; -1 for none: 0) holds, up to the spatial layer
 * `layer` (`lsel`; -1 for none: the operating point's highest), as a decoder that selects that
 * operating point does (AV1 7.5, drop_obu): every other OBU with an extension header becomes a
 * padding OBU (its type rewritten in place, its size kept), which decoders ignore. Returns how
 * many OBUs were padded, or -1 when the data cannot be read.
 */
int baheif_av1_select_layer(uint8_t *data, size_t size, int operating_point, int layer);

/** An AV1 sequence header's colour description (H.273 code points) and range. */
typedef struct {
    int primaries, transfer, matrix, full;
} baheif_av1_colour;

/** The colour description of the AV1 data `data` (OBUs: an item's data or an `av1C`'s config OBUs); 0 or -1. */
int baheif_av1_read_colour(const uint8_t *data, size_t size, baheif_av1_colour *colour);

/**
 * How many operating points the first sequence header of the AV1 data `data` (`size` bytes)
 * lists: more than 1 in a scalable (layered) stream. Returns -1 when it cannot be read.
 */
int baheif_av1_operating_points(const uint8_t *data, size_t size);

/**
 * Lowers the largest frame size that each sequence header of the AV1 data `data` declares
 * (max_frame_width_minus_1 and max_frame_height_minus_1, rewritten in place in their own bits) to
 * `width` x `height` where it is larger: a layered image whose lower layer is shown (the other
 * layers padded away) then declares that layer's size, which is the item's `ispe`, so that libheif
 * 1.23, which holds the decoder to the `ispe` (dav1d's frame_size_limit), decodes it. Returns how
 * many were changed.
 */
int baheif_av1_limit_size(uint8_t *data, size_t size, uint32_t width, uint32_t height);

/**
 * The first frame of an image sequence without a primary image item (`heif_sequence.c`): a still
 * image file made in memory (malloc'd into `*out`, `*out_size` bytes) whose primary item is the
 * first sample of the file's first picture track, with the first sample of its alpha track.
 * Returns 0, or -1 when the file has no such track.
 */
int baheif_sequence_still(const uint8_t *file, size_t size, uint8_t **out, size_t *out_size);

/**
 * Reads the structure of the primary item of the HEIF in `file` (`size` bytes). Returns 0, or
 * -1 when there is no readable `meta` box (libheif then says what is wrong).
 */
int baheif_read_structure(const uint8_t *file, size_t size, baheif_structure *structure);

/**
 * The tiles of the grid that is the primary item of the HEIF in `file` (`size` bytes), in the
 * order of its `dimg` reference (rows of tiles, left to right, top to bottom): their item ids,
 * malloc'd into `*ids`, `*count` of them. Each tile's `infe` is made not hidden in `file`, in
 * place, so that every libheif opens a tile as an image of its own (1.15 hands out only the
 * images that are not hidden). Returns 0, or -1 when the primary item has no `dimg` reference or
 * memory runs out.
 */
int baheif_show_grid_tiles(uint8_t *file, size_t size, uint32_t **ids, uint32_t *count);

/**
 * Whether the grid (or overlay) in `structure` costs more than its output needs: tiles referenced more than
 * once, more than BAHEIF_MAX_TILES, different tiles sharing one coded image, tiles whose pixels exceed what covering the output takes
 * ((W + tile_w) * (H + tile_h)) or `max_pixels`. Returns 0 when it does not, else 1 with `reason`
 * (`size` bytes) saying why.
 */
int baheif_grid_is_too_costly(const baheif_structure *structure, uint64_t max_pixels, char *reason, size_t size);

#endif

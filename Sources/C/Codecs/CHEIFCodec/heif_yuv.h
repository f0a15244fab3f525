#ifndef C_HEIF_YUV_H
#define C_HEIF_YUV_H
/*
 * An AV1 image's planes, as the decoder gave them, to 8-bit RGB as libavif converts them (its
 * `avifImageYUVToRGB`: H.273's equations in floating point, the matrix and range of the image's
 * nclx, an unspecified matrix taken as BT.601, nearest chroma), with its `clap`, `irot` and
 * `imir` applied in that order (AVIF 1.1, 4) and its alpha composited over black. libheif decodes;
 * the conversion and the transforms are done here so that every libheif shows the same pixels:
 * 1.15 mishandles deep monochrome and limited-range alpha, 1.23 other matrices than libavif.
 */
#include <stddef.h>
#include <stdint.h>

typedef struct {
    /* Either interleaved 8-bit RGB (libheif's conversion) or planes converted here. */
    const uint8_t *rgb;
    int rgb_stride;
    /* The coded image: 1 plane (monochrome) or 3 (Y, Cb, Cr; or G, B, R with matrix 0), of `bits`. */
    const uint8_t *plane[3];
    int stride[3];
    int planes, bits, width, height, shift_x, shift_y;
    /* Samples to their contribution, per plane (2^bits floats each). */
    float *table[3];
    float red_cr, green_cb, green_cr, blue_cb; /* the matrix */
    int matrix;
    /* The alpha plane, as coded (NULL without one), and its samples to 0..255. */
    const uint8_t *alpha;
    int alpha_stride, alpha_bits, alpha_width, alpha_height;
    uint8_t *alpha_table;
    /* The transforms: the clean aperture in the coded image, then quarter turns and a mirror. */
    int left, top, crop_width, crop_height, turns, mirror;
    /* The size after them. */
    int out_width, out_height;
} baheif_yuv;

/**
 * Sets up `c` (its planes, size, bits and subsampling already filled) for `matrix` (H.273
 * MatrixCoefficients; `primaries` for 12) and `full` range. Returns 0, or -1 when out of memory or
 * when the matrix is not one libavif converts (10, 11, 13, 14).
 */
int baheif_yuv_prepare(baheif_yuv *c, int matrix, int primaries, int full);

/** The alpha plane of `bits` bits and its range; returns 0 or -1 (out of memory). */
int baheif_yuv_set_alpha(baheif_yuv *c, const uint8_t *plane, int stride, int bits, int width, int height, int full);

/**
 * The transforms (`clap` as its 8 numbers, or NULL; `turns` anticlockwise; `mirror` 0 for top and
 * bottom exchanged, 1 for left and right, -1 for none). Returns 0, or -1 when the clean aperture
 * does not fit the image (it is then left out, as libheif leaves out a bad one).
 */
int baheif_yuv_set_transforms(baheif_yuv *c, const int32_t *clap, int turns, int mirror);

/** Row `y` (0 to out_height - 1) of the shown image, as RGB, alpha composited over black. */
void baheif_yuv_row(const baheif_yuv *c, int y, uint8_t *rgb);

void baheif_yuv_free(baheif_yuv *c);

#endif

#ifndef C_PHOTO_CODEC_H
#define C_PHOTO_CODEC_H
/*
 * BabyAlbum's codec layer: one entry point for every format (PNG, JPEG, WebP, HEIC/HEIF/AVIF),
 * one header type (baphoto_header) and one metadata type (baphoto_metadata). The slideshow's
 * decode worker, the in-process decoder (Swift's PhotoDecoder) and the fuzzers call only these;
 * the per-format codecs behind them are CPNGCodec (libpng), this target's jpeg.c and webp.c
 * (libjpeg-turbo, libwebp) and CHEIFCodec (libheif).
 *
 * Why the codecs are C: libpng and libjpeg report errors with setjmp/longjmp, which Swift cannot
 * host. Every codec has the contract of CPhotoCodecCore.h: the caller's descriptor, read from
 * offset 0 and never closed; 0 or a negative BAPHOTO_ERROR_* code with a one-line reason in
 * `error`.
 *
 * Pixels are uint32_t 0x00RRGGBB (DRM_FORMAT_XRGB8888), transparency composited over black.
 * Photos are scaled with the shared area-average scaler (PNG, JPEG, HEIF) or libwebp's own
 * rescaler (WebP), turned upright by their EXIF orientation.
 */
/* By its path from here: Swift 6.2's SwiftPM does not pass a C dependency's include folder to every
 * importer of this module (Swift 6.3's does). */
#include "../../CPhotoCodecCore/include/CPhotoCodecCore.h"

/** The format of the file at `fd` by its leading bytes (read with pread at offset 0). */
baphoto_format baphoto_detect_format(int fd);

/**
 * Whether this program has `format`'s codec: every codec in the build with all of them (SwiftPM's
 * babyalbum-decoder, the tests), one in the package's workers of one format (babyalbum-decoder-jpeg,
 * -png, -webp, -heif). A format without its codec is refused as unsupported.
 */
int baphoto_has_codec(baphoto_format format);

/**
 * Reads the header of the photo of `format` at `fd`, checked against `limits`; an unknown
 * `format` is BAPHOTO_ERROR_WRONG_FORMAT.
 */
int baphoto_read_header(int fd, baphoto_format format, const baphoto_limits *limits, baphoto_header *header,
                        char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

/**
 * Decodes the photo of `format` at `fd` and scales it into `target` (JPEG at the smallest DCT
 * scale that covers it). `metadata`, when not NULL, is filled on success with the photo's EXIF,
 * ICC profile or nclx description, PNG tIME, and its pixels are converted to sRGB by the codec
 * (`colour` says how); the caller frees it with `baphoto_metadata_free`. With `metadata` NULL, no
 * colour conversion is done.
 */
int baphoto_decode(int fd, baphoto_format format, const baphoto_limits *limits, const baphoto_target *target,
                   baphoto_header *header, baphoto_metadata *metadata, char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

/**
 * The library that decodes `format` in this program and its version, as "libjpeg-turbo 2.1.5"
 * (the library's own runtime version where it has one; libjpeg-turbo's from its headers); NULL
 * for an unknown format or one whose codec this program does not have.
 */
const char *baphoto_codec_version(baphoto_format format);

#endif

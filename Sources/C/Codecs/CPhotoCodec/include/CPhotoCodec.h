#ifndef C_PHOTO_CODEC_H
#define C_PHOTO_CODEC_H
/*
 * BabyAlbum's JPEG (libjpeg-turbo) and WebP (libwebp) codecs.
 *
 * Why this is C: libjpeg reports errors with setjmp/longjmp, which Swift cannot host. Every
 * libjpeg and libwebp call lives here, with the contract of every codec (CPhotoCodecCore.h): the
 * caller's descriptor, read from offset 0 and never closed; 0 or a negative BAPHOTO_ERROR_* code
 * with a one-line reason in `error`.
 *
 * Pixels are uint32_t 0x00RRGGBB (DRM_FORMAT_XRGB8888), transparency composited over black.
 * Photos are scaled with the shared area-average scaler (JPEG) or libwebp's own rescaler
 * (WebP), after turning them upright by their EXIF orientation.
 */
/* By its path from here: Swift 6.2's SwiftPM does not pass a C dependency's include folder to every
 * importer of this module (Swift 6.3's does). */
#include "../../CPhotoCodecCore/include/CPhotoCodecCore.h"

/** Reads the header of the JPEG at `fd`. */
int baphoto_jpeg_read_header(int fd, const baphoto_limits *limits, baphoto_header *header,
                             char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

/**
 * Decodes the JPEG at `fd` at the smallest DCT scale that covers the target, then scales it.
 * `metadata`, when not NULL, is filled with the photo's EXIF and ICC profile on success (and left
 * empty on failure); the caller frees it with `baphoto_metadata_free`.
 */
int baphoto_jpeg_decode(int fd, const baphoto_limits *limits, const baphoto_target *target,
                        baphoto_header *header, baphoto_metadata *metadata,
                        char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

/** Reads the header of the WebP at `fd`. */
int baphoto_webp_read_header(int fd, const baphoto_limits *limits, baphoto_header *header,
                             char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

/**
 * Decodes the WebP at `fd` (the first frame of an animation), cropped and scaled by libwebp.
 * `metadata`, when not NULL, is filled from the EXIF and ICCP chunks on success, as for JPEG.
 */
int baphoto_webp_decode(int fd, const baphoto_limits *limits, const baphoto_target *target,
                        baphoto_header *header, baphoto_metadata *metadata,
                        char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

#endif

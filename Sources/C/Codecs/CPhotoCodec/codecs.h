#ifndef C_PHOTO_CODEC_CODECS_H
#define C_PHOTO_CODEC_CODECS_H
/*
 * The JPEG and WebP codecs' own functions, for the dispatch (photo.c) and the fuzzers only:
 * everything else calls baphoto_read_header and baphoto_decode (CPhotoCodec.h).
 */
#include "../CPhotoCodecCore/include/CPhotoCodecCore.h"

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

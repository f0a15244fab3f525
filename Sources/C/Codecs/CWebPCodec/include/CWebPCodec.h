#ifndef C_WEBP_CODEC_H
#define C_WEBP_CODEC_H
/*
 * BabyAlbum's WebP codec (libwebp), with the contract of every codec (CPhotoCodecCore.h): the
 * caller's descriptor, read from offset 0 and never closed; 0 or a negative BAPHOTO_ERROR_* code
 * with the reason in `error`. Callers outside the codecs use baphoto_read_header and
 * baphoto_decode (CPhotoCodec.h); the dispatch and the fuzzers call these.
 */
/* By its path from here: Swift 6.2's SwiftPM does not pass a C dependency's include folder to every
 * importer of this module (Swift 6.3's does). */
#include "../../CPhotoCodecCore/include/CPhotoCodecCore.h"

/** Reads the header of the WebP at `fd`. */
int baphoto_webp_read_header(int fd, const baphoto_limits *limits, baphoto_header *header,
                             char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

/**
 * Decodes the WebP at `fd` (the first frame of an animation), cropped and scaled by libwebp.
 * `metadata`, when not NULL, is filled from the EXIF and ICCP chunks on success, and the frame is
 * converted to sRGB, as for JPEG.
 */
int baphoto_webp_decode(int fd, const baphoto_limits *limits, const baphoto_target *target,
                        baphoto_header *header, baphoto_metadata *metadata,
                        char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

/** libwebp's decoder version, as "libwebp 1.2.4". */
const char *baphoto_webp_version(void);

#endif

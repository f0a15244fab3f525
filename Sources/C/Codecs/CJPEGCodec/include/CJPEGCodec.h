#ifndef C_JPEG_CODEC_H
#define C_JPEG_CODEC_H
/*
 * BabyAlbum's JPEG codec (libjpeg-turbo), with the contract of every codec (CPhotoCodecCore.h):
 * the caller's descriptor, read from offset 0 and never closed; 0 or a negative BAPHOTO_ERROR_*
 * code with the reason in `error`. Callers outside the codecs use baphoto_read_header and
 * baphoto_decode (CPhotoCodec.h); the dispatch and the fuzzers call these.
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
 * empty on failure), and the frame is converted to sRGB; the caller frees it with
 * `baphoto_metadata_free`.
 */
int baphoto_jpeg_decode(int fd, const baphoto_limits *limits, const baphoto_target *target,
                        baphoto_header *header, baphoto_metadata *metadata,
                        char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

/** libjpeg-turbo's version, as "libjpeg-turbo 2.1.5". */
const char *baphoto_jpeg_version(void);

#endif

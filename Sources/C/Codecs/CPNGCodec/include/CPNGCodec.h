#ifndef C_PNG_CODEC_H
#define C_PNG_CODEC_H
/*
 * BabyAlbum's libpng codec.
 *
 * Why this is C: libpng's classic API reports errors with setjmp/longjmp, which Swift cannot
 * host (setjmp is unavailable in Swift and a longjmp across Swift frames corrupts ARC state).
 * Every libpng call lives here, with the contract of every codec (CPhotoCodecCore.h): the caller's
 * descriptor, read from offset 0 and never closed; 0 or a negative BAPHOTO_ERROR_* code, with
 * libpng's own message in `error` (never an abort, never a crash).
 *
 * Pixels are uint32_t 0x00RRGGBB (DRM_FORMAT_XRGB8888), transparency composited over black,
 * 16-bit samples reduced by rounding (png_set_scale_16). Colour (cICP, iCCP, sRGB, cHRM with gAMA)
 * is converted to sRGB by CColour after scaling; gAMA alone is ignored (samples as stored).
 */
/* By its path from here: Swift 6.2's SwiftPM does not pass a C dependency's include folder to every
 * importer of this module (Swift 6.3's does). */
#include "../../CPhotoCodecCore/include/CPhotoCodecCore.h"

/**
 * Reads the header of the PNG open at `fd`, checked against `limits` (`max_pixels`,
 * `max_chunk_bytes`).
 */
int bapng_read_header(int fd, const baphoto_limits *limits, baphoto_header *header,
                      char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

/**
 * Decodes the PNG open at `fd` and scales it into `target` (`dct_scale_eighths` is ignored).
 *
 * Non-interlaced photos are streamed: each row is scaled into the target as libpng delivers
 * it. Adam7 photos are added pass by pass straight into per-target-pixel sums. Either way memory
 * is proportional to the target, never to the photo. A photo succeeds only when every row arrived,
 * IEND was reached, and libpng reported no damage to the image data (an ADLER32 mismatch is only
 * a warning in libpng); otherwise BAPHOTO_ERROR_CORRUPT with the reason. `metadata`, when not
 * NULL, is filled on success: the eXIf chunk (its first 64 KB), tIME, and what the conversion to
 * sRGB did (done here: `colour_done` is set). Callers outside the codecs use `baphoto_decode`.
 */
int bapng_decode(int fd, const baphoto_limits *limits, const baphoto_target *target, baphoto_header *header,
                 baphoto_metadata *metadata, char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

/** libpng's runtime version, as "libpng 1.6.39". */
const char *bapng_version(void);

/**
 * Writes `pixels` (XRGB8888, `width * height`) to the open descriptor `fd` as an 8-bit RGB PNG
 * (Adam7 when `interlaced`), from its current position. The caller opens and closes `fd`.
 */
int bapng_write_xrgb(int fd, const uint32_t *pixels, uint32_t width, uint32_t height, int compression_level,
                     int interlaced, char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

#endif

#ifndef C_PNG_CODEC_H
#define C_PNG_CODEC_H
/*
 * BabyAlbum's libpng codec.
 *
 * Why this is C: libpng's classic API reports errors with setjmp/longjmp, which Swift cannot
 * host (setjmp is unavailable in Swift and a longjmp across Swift frames corrupts ARC state).
 * Every libpng call lives here; each function returns 0 on success or a negative
 * BAPNG_ERROR_* code, with libpng's own message in `error` (never an abort, never a crash).
 *
 * Pixels are uint32_t 0x00RRGGBB (DRM_FORMAT_XRGB8888), transparency composited over black,
 * 16-bit samples reduced by rounding (png_set_scale_16). Colour (cICP, iCCP, sRGB, cHRM with gAMA)
 * is converted to sRGB by CColour after scaling; gAMA alone is ignored (samples as stored).
 */
/* By its path from here: Swift 6.2's SwiftPM does not pass a C dependency's include folder to every
 * importer of this module (Swift 6.3's does). */
#include "../../CColour/include/CColour.h"

#include <stddef.h>
#include <stdint.h>

#define BAPNG_ERROR_MESSAGE_SIZE 256

enum {
    BAPNG_OK = 0,
    /** The file cannot be opened or read. */
    BAPNG_ERROR_IO = -1,
    /** The file is not a PNG (empty, or the signature is wrong). */
    BAPNG_ERROR_NOT_PNG = -2,
    /** libpng reported an error: the file is corrupt or truncated. */
    BAPNG_ERROR_CORRUPT = -3,
    /** The photo exceeds a limit (pixel count, memory budget). */
    BAPNG_ERROR_TOO_LARGE = -4,
    /** Out of memory. */
    BAPNG_ERROR_NO_MEMORY = -5,
};

/** How a photo is fitted to the frame. */
typedef enum {
    /** Cover the whole frame, centred, cropped. */
    BAPNG_SCALE_FILL = 0,
    /** Show the whole photo, centred, black bars. */
    BAPNG_SCALE_FIT = 1,
} bapng_scale_mode;

/** What the IHDR of a PNG says. */
typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    /** Non-zero for Adam7. */
    int interlaced;
    /** The eXIf orientation, 1 to 8 (1 when there is none). */
    int orientation;
    /**
     * In: where to copy the eXIf chunk (its first `exif_capacity` bytes), or NULL. Out:
     * `exif_size`, the bytes copied (0 without an eXIf chunk before the image data).
     */
    uint8_t *exif;
    uint32_t exif_capacity;
    uint32_t exif_size;
    /** Non-zero when a tIME chunk of 7 bytes was seen: its year, month, day, hour, minute, second, as stored. */
    int has_time;
    int time_fields[6];
    /** Out (decodes only): what the conversion to sRGB did (cICP, iCCP or cHRM; untagged without one). */
    bacolour_outcome colour;
} bapng_header;

/** Limits against hostile files. */
typedef struct {
    /** Largest accepted width * height. */
    uint64_t max_pixels;
    /**
     * Largest PLTE or tRNS chunk, and largest eXIf chunk read for the orientation. Every other
     * chunk but IHDR, IDAT and IEND is skipped unread, whatever its size.
     */
    uint32_t max_chunk_bytes;
} bapng_limits;

/** Where a decoded photo is drawn. */
typedef struct {
    /** Destination pixels, `width * height`, fully written (black around a fitted photo). */
    uint32_t *pixels;
    uint32_t width;
    uint32_t height;
    bapng_scale_mode scale;
    /**
     * Non-zero sends every pixel through the order-free binner (the Adam7 path) even when the
     * photo could be streamed; the frames agree within one level of rounding.
     */
    int whole_image;
    /**
     * How the screen is mounted, in quarter turns clockwise (0 to 3): the photo is drawn turned
     * the other way, so that it is upright on the mounted screen. `width` and `height` are the
     * panel's own.
     */
    int quarter_turns;
} bapng_target;

/** Reads the header of the PNG at `path`. */
int bapng_read_header(const char *path, const bapng_limits *limits, bapng_header *header,
                      char error[BAPNG_ERROR_MESSAGE_SIZE]);

/**
 * Decodes the PNG at `path` and scales it into `target`.
 *
 * Non-interlaced photos are streamed: each row is scaled into the target as libpng delivers
 * it. Adam7 photos are added pass by pass straight into per-target-pixel sums. Either way memory
 * is proportional to the target, never to the photo. A photo succeeds only when every row arrived,
 * IEND was reached, and libpng reported no damage to the image data (an ADLER32 mismatch is only
 * a warning in libpng); otherwise BAPNG_ERROR_CORRUPT with the reason.
 */
int bapng_decode_scaled(const char *path, const bapng_limits *limits, const bapng_target *target,
                        bapng_header *header, char error[BAPNG_ERROR_MESSAGE_SIZE]);

/** Reads the header of the PNG open at `fd` (from its start; the descriptor stays open). */
int bapng_read_header_fd(int fd, const bapng_limits *limits, bapng_header *header,
                         char error[BAPNG_ERROR_MESSAGE_SIZE]);

/** Decodes the PNG open at `fd` (from its start; the descriptor stays open), as bapng_decode_scaled. */
int bapng_decode_scaled_fd(int fd, const bapng_limits *limits, const bapng_target *target, bapng_header *header,
                           char error[BAPNG_ERROR_MESSAGE_SIZE]);

/** Writes `pixels` (XRGB8888, `width * height`) to `path` as an 8-bit RGB PNG (Adam7 when `interlaced`). */
int bapng_write_xrgb(const char *path, const uint32_t *pixels, uint32_t width, uint32_t height,
                     int compression_level, int interlaced, char error[BAPNG_ERROR_MESSAGE_SIZE]);

#endif

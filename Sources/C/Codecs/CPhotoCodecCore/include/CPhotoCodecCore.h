#ifndef C_PHOTO_CODEC_CORE_H
#define C_PHOTO_CODEC_CORE_H
/*
 * What every BabyAlbum codec shares (PNG in CPNGCodec, JPEG and WebP in CPhotoCodec, HEIF in
 * CHEIFCodec): one error enum, one scale mode, the limits, the target, the header and metadata.
 *
 * The contract of every codec: the caller opens the file (non-blocking, checked to be a regular
 * file) and passes the descriptor, which the codec reads from offset 0 and never closes; each
 * function returns 0 (BAPHOTO_OK) or a negative BAPHOTO_ERROR_* code with a one-line reason in
 * `error`, never an abort.
 *
 * Pixels are uint32_t 0x00RRGGBB (DRM_FORMAT_XRGB8888), transparency composited over black.
 *
 * This target also holds the helpers the codecs share, as headers of this folder for the codecs'
 * C files only (not part of the module): layout.h (placement, orientation), scaler.h (the
 * area-average scaler), orientation.h (EXIF and screen turns) and photo_layout.h (the canvas).
 */
/* By its path from here: Swift 6.2's SwiftPM does not pass a C dependency's include folder to every
 * importer of this module (Swift 6.3's does). */
#include "../../CColour/include/CColour.h"

#include <stddef.h>
#include <stdint.h>

#define BAPHOTO_ERROR_MESSAGE_SIZE 256

enum {
    BAPHOTO_OK = 0,
    /** The file cannot be opened or read. */
    BAPHOTO_ERROR_IO = -1,
    /** The content is not what the decoder expected (wrong format, empty). */
    BAPHOTO_ERROR_WRONG_FORMAT = -2,
    /** The file is corrupt, truncated, or damaged data was reported. */
    BAPHOTO_ERROR_CORRUPT = -3,
    /** Over a limit: pixel count, decode-memory budget, scan count. */
    BAPHOTO_ERROR_TOO_LARGE = -4,
    /** Out of memory. */
    BAPHOTO_ERROR_NO_MEMORY = -5,
    /** A valid file that BabyAlbum does not decode (12-bit JPEG, ...). */
    BAPHOTO_ERROR_UNSUPPORTED = -6,
    /** A format the libraries here cannot decode at all (an AVIF where libheif has no AV1 decoder). */
    BAPHOTO_ERROR_NO_DECODER = -7,
};

/** A format BabyAlbum decodes, by its leading bytes (the worker protocol's BADECODE_FORMAT_* agree). */
typedef enum {
    BAPHOTO_FORMAT_UNKNOWN = 0,
    BAPHOTO_FORMAT_PNG = 1,
    BAPHOTO_FORMAT_JPEG = 2,
    BAPHOTO_FORMAT_WEBP = 3,
    /** HEIC, HEIF and AVIF (an ISO-BMFF `ftyp`). */
    BAPHOTO_FORMAT_HEIF = 4,
} baphoto_format;

/** How a photo is fitted to the frame. */
typedef enum {
    /** Cover the whole frame, centred, cropped. */
    BAPHOTO_SCALE_FILL = 0,
    /** Show the whole photo, centred, black bars. */
    BAPHOTO_SCALE_FIT = 1,
} baphoto_scale_mode;

/** Limits against hostile files. */
typedef struct {
    /** Largest accepted width * height. */
    uint64_t max_pixels;
    /**
     * The decode-memory budget: the most bytes one decode may hold beyond a few rows
     * (a progressive JPEG's coefficients, a lossless WebP's whole image, the file of a WebP).
     */
    uint64_t budget_bytes;
    /** Most scans a progressive or multi-scan JPEG may have (a scan bomb has hundreds). */
    uint32_t max_scans;
    /**
     * PNG: the largest PLTE or tRNS chunk, and largest eXIf chunk read for the orientation. Every
     * other chunk but IHDR, IDAT and IEND is skipped unread, whatever its size.
     */
    uint32_t max_chunk_bytes;
    /**
     * The most a library that keeps its own count of what it allocates may count (libheif 1.20
     * and later: its total memory): what the decoding process's memory limit leaves it, which is
     * more than `budget_bytes`, as the libraries count buffers the budget does not. 0: the budget.
     */
    uint64_t library_bytes;
} baphoto_limits;

/** Where a decoded photo is drawn. */
typedef struct {
    /**
     * Destination pixels, `width * height`, zeroed by the caller (the PNG codec zeroes them
     * itself): the photo is drawn over them, so a fitted photo has black bars.
     */
    uint32_t *pixels;
    uint32_t width;
    uint32_t height;
    baphoto_scale_mode scale;
    /**
     * JPEG only: 0 picks the DCT scale (1/1, 1/2, 1/4 or 1/8) from the target; 1 to 8 forces
     * scale_num/8 (for tests against djpeg -scale).
     */
    int dct_scale_eighths;
    /**
     * How the screen is mounted, in quarter turns clockwise (0 to 3): the photo is drawn turned
     * the other way, so that it is upright on the mounted screen. `width` and `height` are the
     * panel's own.
     */
    int quarter_turns;
    /**
     * PNG only: non-zero sends every pixel through the order-free binner (the Adam7 path) even when
     * the photo could be streamed; the frames agree within one level of rounding.
     */
    int whole_image;
} baphoto_target;

/** What a photo's header says, whatever its format. */
typedef struct {
    uint32_t width;
    uint32_t height;
    /** EXIF orientation, 1 to 8. */
    int orientation;
    /** JPEG: components (1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK); WebP: 4 with alpha, else 3. */
    int components;
    /** JPEG: progressive or multi-scan; WebP: lossless (both hold a whole image in memory). */
    int whole_image;
    /** WebP: animated (only the first frame is shown). */
    int animated;
    /** PNG: Adam7 interlaced. */
    int interlaced;
    /** JPEG: the DCT scale chosen, in eighths (8 = full size); 8 for the other formats. */
    int dct_scale_eighths;
    /** Bytes the decode holds beyond a few rows (checked against the budget). */
    uint64_t whole_image_bytes;
} baphoto_header;

/**
 * A photo's metadata, for captions (EXIF) and colour management (ICC), owned by the codec's
 * caller once filled: free it with `baphoto_metadata_free`. Both parts are bounded (EXIF at most
 * one JPEG segment or 64 KB, ICC at most 4 MB) and counted in the decode-memory budget.
 */
typedef struct {
    /**
     * The EXIF data as TIFF bytes (starting "II*\0" or "MM\0*"): a JPEG's first APP1 "Exif"
     * segment, a WebP's EXIF chunk, a HEIF's Exif item (after its offset to the TIFF header),
     * without the "Exif\0\0" name, or a PNG's eXIf chunk (its first 64 KB). NULL when there is none.
     */
    uint8_t *exif;
    size_t exif_length;
    /**
     * The ICC profile: a JPEG's ICC_PROFILE APP2 chunks joined in order (NULL when a chunk is
     * missing, repeated or numbered inconsistently), a WebP's ICCP chunk, or a HEIF's `colr` box
     * of type `prof` or `rICC`. NULL when none.
     */
    uint8_t *icc;
    size_t icc_length;
    /**
     * HEIF: 1 when the image has an nclx colour description and no ICC profile, with its
     * ISO/IEC 23091-2 colour primaries and transfer characteristics; 0 otherwise.
     */
    int has_nclx;
    uint16_t nclx_primaries;
    uint16_t nclx_transfer;
    /**
     * PNG: 1 when a tIME chunk of 7 bytes was seen, with its year, month, day, hour, minute and
     * second, as stored.
     */
    int has_time;
    int time_fields[6];
    /**
     * What the conversion to sRGB did. Every codec converts its own frame, so the frame a decode
     * returns is sRGB: PNG from cICP, iCCP or cHRM; JPEG on its rows as they are decoded (a CMYK
     * one before scaling); WebP and HEIF through baphoto_convert_to_srgb on the screen-size frame.
     */
    bacolour_outcome colour;
} baphoto_metadata;

/** Frees the metadata's bytes and empties it (safe on an empty or zeroed one). */
void baphoto_metadata_free(baphoto_metadata *metadata);

/**
 * Converts the screen-size frame in `target` to sRGB from the photo's embedded ICC profile in
 * `metadata` (or a HEIF's nclx description), and records the outcome in `metadata->colour`; a
 * photo without either is taken as sRGB.
 */
void baphoto_convert_to_srgb(const baphoto_target *target, baphoto_metadata *metadata);

/**
 * The `auto` scale mode's decision, the one place it is made (the decode worker and the
 * in-process decoder both ask): BAPHOTO_SCALE_FILL when filling a screen of `screen_width` x
 * `screen_height` (as a person sees it: upright) would crop at most `crop_limit` (a share, 0 to 1)
 * of a photo of `photo_width` x `photo_height` (as stored, turned by its EXIF `orientation`, 1 to
 * 8), else BAPHOTO_SCALE_FIT (the whole photo over its backdrop). A side of 0 gives FILL.
 */
baphoto_scale_mode baphoto_auto_scale(uint32_t photo_width, uint32_t photo_height, int orientation,
                                      uint32_t screen_width, uint32_t screen_height, double crop_limit);

#endif

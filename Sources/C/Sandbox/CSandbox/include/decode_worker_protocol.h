#ifndef BADECODE_PROTOCOL_H
#define BADECODE_PROTOCOL_H
/*
 * The decode worker's protocol, over a SOCK_SEQPACKET socket: the worker confines itself as soon
 * as it starts and says so (`badecode_ready`, with its address-space size); the slideshow sets
 * its RLIMIT_AS, RLIMIT_CPU and RLIMIT_FSIZE from outside (prlimit) and sends one request (this
 * struct plus the photo's descriptor and the frame's memfd, as SCM_RIGHTS); the worker writes the
 * frame into that memfd and sends one reply (a fixed part, then typed records). The worker
 * decodes one photo and is killed.
 *
 * The reply is extensible: `fixed_size` says how long the fixed part is (a newer worker may
 * append fields; readers take what they know), and `extras_length` bytes of records follow it,
 * each { uint16 type; uint16 reserved; uint32 length; length bytes, padded to 4 }. Unknown
 * types are skipped.
 */
#include <stdint.h>

#define BADECODE_MAGIC 0x57444142u /* "BADW" */
#define BADECODE_VERSION 2u
#define BADECODE_MESSAGE_SIZE 256
/** The largest reply: the fixed part and its records. */
#define BADECODE_REPLY_MAX (128 * 1024)
/** Room for libraries' own mappings and thread stacks above the worker's size and the budget. */
#define BADECODE_ADDRESS_SPACE_MARGIN (64ull << 20)

/** How the photo is fitted. */
enum {
    BADECODE_SCALE_FILL = 0,
    BADECODE_SCALE_FIT = 1,
    /**
     * Fill, unless filling would crop more than `auto_crop_limit` of the photo: then fit, upright
     * (not turned for the screen), on a frame of the upright screen's size.
     */
    BADECODE_SCALE_AUTO = 2,
};

/** Request flags. */
enum {
    /** Read the header only (`doctor --quick`): the reply has the header; the frame stays empty. */
    BADECODE_REQUEST_HEADER_ONLY = 1,
};

/** Test-only actions, to prove the sandbox (the worker does them after confining itself). */
enum {
    BADECODE_TEST_NONE = 0,
    /** open("/etc/passwd"): the filter must refuse it (EACCES); the worker then decodes as usual. */
    BADECODE_TEST_OPEN_FILE = 1,
    /** Wait forever before decoding (the caller kills it, or its deadline does). */
    BADECODE_TEST_HANG = 2,
    /** Decode without the codecs' budget checks: only RLIMIT_AS stops an oversized decode. */
    BADECODE_TEST_NO_BUDGET_CHECK = 3,
    /** socket(): a system call outside the allow-list, so the worker reports it and dies by SIGSYS. */
    BADECODE_TEST_FORBIDDEN_CALL = 4,
};

/**
 * The reply's `status` when the sandbox refused a system call (SECCOMP_RET_TRAP): the worker's
 * SIGSYS handler sends it, with "system call N (name)" as the message, then dies by SIGSYS.
 */
#define BADECODE_STATUS_REFUSED_CALL (-100)

/** The photo formats, by content. */
enum {
    BADECODE_FORMAT_UNKNOWN = 0,
    BADECODE_FORMAT_PNG = 1,
    BADECODE_FORMAT_JPEG = 2,
    BADECODE_FORMAT_WEBP = 3,
    BADECODE_FORMAT_HEIF = 4,
};

/** Reply record types. */
enum {
    /** The photo's EXIF (TIFF bytes, from "II*\0" or "MM\0*"; at most its first 64 KB), for captions. */
    BADECODE_EXTRA_EXIF = 1,
    /** A PNG's tIME, "YYYY:MM:DD HH:MM:SS" as stored (the captions' fallback date). */
    BADECODE_EXTRA_CAPTURE_DATE = 2,
    /** The embedded ICC profile's description (sent whenever the photo has a profile; may be empty). */
    BADECODE_EXTRA_ICC_PROFILE_NAME = 3,
    /** The library and version that decoded the photo ("libjpeg-turbo 2.1.5": baphoto_codec_version). */
    BADECODE_EXTRA_DECODER_VERSION = 4,
    /** Why the embedded ICC profile was ignored (the photo is shown as sRGB): one line. */
    BADECODE_EXTRA_COLOUR_IGNORED = 5,
};

/** What a worker says once it is confined and waits for its photo. */
typedef struct {
    uint32_t magic;
    uint32_t version;
    /** Its address-space size (VmSize) after start-up, bytes: RLIMIT_AS is this plus the budget. */
    uint64_t address_space_bytes;
} badecode_ready;

/**
 * Optional, sent to a waiting worker ahead of its photo with the frame's memfd (SCM_RIGHTS): the
 * worker maps its `frame_bytes` while it waits, so that the request that follows with the same
 * memfd finds the frame mapped. The slideshow released the memfd's pages after the last photo, so
 * the frame reads as cleared and its pages are allocated as the photo is drawn; one that still
 * holds data is cleared while the worker waits. Told apart from a request by its length.
 */
typedef struct {
    uint32_t magic;
    uint32_t version;
    uint64_t frame_bytes;
} badecode_frame_offer;

/** What the slideshow asks. */
typedef struct {
    uint32_t magic;
    uint32_t version;
    /** The frame: the panel's own size. */
    uint32_t width;
    uint32_t height;
    int32_t scale;
    /** How the screen is mounted, quarter turns clockwise. */
    int32_t quarter_turns;
    double auto_crop_limit;
    uint64_t max_pixels;
    /** The decode-memory budget; the worker's RLIMIT_AS is its own size plus this, two frames and a margin. */
    uint64_t budget_bytes;
    uint32_t max_scans;
    uint32_t max_chunk_bytes;
    /** RLIMIT_CPU, seconds (set by the slideshow before the request, like RLIMIT_AS). */
    uint32_t cpu_seconds;
    int32_t test_action;
    /** BADECODE_REQUEST_* flags. */
    uint32_t flags;
} badecode_request;

/** What the worker answers. */
typedef struct {
    uint32_t magic;
    uint32_t version;
    /** sizeof(badecode_reply) as the worker knows it: records start here. */
    uint32_t fixed_size;
    /** BAPHOTO_OK or a negative BAPHOTO_ERROR_* code. */
    int32_t status;
    uint32_t format;
    uint32_t photo_width;
    uint32_t photo_height;
    int32_t orientation;
    int32_t dct_scale_eighths;
    int32_t animated;
    uint64_t whole_image_bytes;
    /** The frame in the memfd (0 x 0 on failure). */
    uint32_t frame_width;
    uint32_t frame_height;
    /** FILL, or FIT when `auto` chose to fit (the frame is then upright, not turned). */
    int32_t scale_used;
    uint32_t extras_length;
    /** One-line reason on failure. */
    char message[BADECODE_MESSAGE_SIZE];
} badecode_reply;

#endif

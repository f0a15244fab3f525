#define _GNU_SOURCE
#include "CDecodeWorker.h"
#include "CColour.h"
#include "CHEIFCodec.h"
#include "CPhotoCodec.h"
#include "CSandbox.h"
#include "warm_up.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_SIDE 16384u

/* The reply's format is the codec layer's own (baphoto_detect_format). */
_Static_assert(BADECODE_FORMAT_UNKNOWN == BAPHOTO_FORMAT_UNKNOWN && BADECODE_FORMAT_PNG == BAPHOTO_FORMAT_PNG &&
                   BADECODE_FORMAT_JPEG == BAPHOTO_FORMAT_JPEG && BADECODE_FORMAT_WEBP == BAPHOTO_FORMAT_WEBP &&
                   BADECODE_FORMAT_HEIF == BAPHOTO_FORMAT_HEIF,
               "the worker protocol's formats are the codec layer's");

static baphoto_limits photo_limits(const badecode_request *request) {
    int unchecked = request->test_action == BADECODE_TEST_NO_BUDGET_CHECK;
    return (baphoto_limits){.max_pixels = request->max_pixels,
                            .budget_bytes = unchecked ? (1ull << 40) : request->budget_bytes,
                            .max_scans = request->max_scans,
                            .max_chunk_bytes = request->max_chunk_bytes,
                            /* RLIMIT_AS leaves a decode the budget and the margin (confine.c) */
                            .library_bytes = unchecked ? 0 : request->budget_bytes + BADECODE_ADDRESS_SPACE_MARGIN};
}

static void copy_header(badecode_reply *reply, const baphoto_header *header) {
    reply->photo_width = header->width;
    reply->photo_height = header->height;
    reply->orientation = header->orientation;
    reply->dct_scale_eighths = header->dct_scale_eighths;
    reply->animated = header->animated;
    reply->whole_image_bytes = header->whole_image_bytes;
}

/* What the captions and the colour note need from the photo, read in the decode's own pass. */
typedef struct {
    baphoto_metadata photo; /* EXIF (PNG's eXIf too), ICC or nclx, PNG tIME, the conversion to sRGB */
    char png_time[20];      /* PNG: tIME as "YYYY:MM:DD HH:MM:SS", or empty */
} decode_metadata;

static void note_png_time(decode_metadata *metadata) {
    if (!metadata->photo.has_time) return;
    const int *f = metadata->photo.time_fields;
    snprintf(metadata->png_time, sizeof metadata->png_time, "%04d:%02d:%02d %02d:%02d:%02d", f[0] % 10000,
             f[1] % 100, f[2] % 100, f[3] % 100, f[4] % 100, f[5] % 100);
}

/*
 * AUTO: fill when it crops at most `auto_crop_limit` of the photo (baphoto_auto_scale decides),
 * else fit upright.
 */
static void resolve_auto(int fd, baphoto_format format, const badecode_request *request, baphoto_target *target) {
    baphoto_header header;
    char ignored[BAPHOTO_ERROR_MESSAGE_SIZE];
    baphoto_limits limits = photo_limits(request);
    target->scale = BAPHOTO_SCALE_FILL;
    if (baphoto_read_header(fd, format, &limits, &header, ignored) != BAPHOTO_OK) return;
    int swaps = request->quarter_turns % 2 != 0;
    uint32_t screen_w = swaps ? request->height : request->width, screen_h = swaps ? request->width : request->height;
    if (baphoto_auto_scale(header.width, header.height, header.orientation, screen_w, screen_h,
                           request->auto_crop_limit) == BAPHOTO_SCALE_FILL) {
        return;
    }
    target->scale = BAPHOTO_SCALE_FIT;
    target->quarter_turns = 0;
    target->width = screen_w;
    target->height = screen_h;
}

/* Test-only actions (BADECODE_TEST_*), done inside the sandbox. */
static void test_action(int action) {
    if (action == BADECODE_TEST_OPEN_FILE) {
        int fd = open("/etc/passwd", O_RDONLY);
        if (fd >= 0 || errno != EACCES) _exit(7); /* the filter let it through: "exited with status 7" */
    }
    if (action == BADECODE_TEST_FORBIDDEN_CALL) {
        int fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd >= 0) _exit(7);
    }
    if (action == BADECODE_TEST_HANG) {
        for (;;) {
            struct timespec second = {.tv_sec = 1};
            nanosleep(&second, NULL);
        }
    }
}

/*
 * The frame's mapping of the memfd, left mapped after the decode: the worker answers first, and the
 * mapping goes with the process when the slideshow kills it (its 0.6 ms munmap, for 8 MB, is then
 * off the slideshow's critical path).
 */
static void *frame_pixels = MAP_FAILED;
static size_t frame_bytes;

/* The frame offered ahead of the photo (badecode_frame_offer), mapped while waiting. */
static struct {
    void *pixels;
    size_t bytes;
    dev_t device;
    ino_t inode;
} offered = {.pixels = MAP_FAILED};

/*
 * Whether the memfd holds data, so that the frame must be cleared. The slideshow releases its
 * frame memfds' pages after every photo (basandbox_release_frame): their holes read as zeros, the
 * cleared frame the decoders expect (bars, the pad byte), so normally nothing is written here and
 * the pages are allocated as the photo is drawn, not while the worker waits.
 */
static int holds_data(int memfd) { return lseek(memfd, 0, SEEK_DATA) >= 0 || errno != ENXIO; }

/* Maps the offered memfd (one offer at most; one that does not match its memfd is ignored). */
static void take_offer(int fd, const badecode_frame_offer *offer) {
    struct stat status;
    int valid = offered.pixels == MAP_FAILED && offer->magic == BADECODE_MAGIC && offer->version == BADECODE_VERSION &&
                offer->frame_bytes > 0 && offer->frame_bytes <= (uint64_t)MAX_SIDE * MAX_SIDE * 4 &&
                fstat(fd, &status) == 0 && (uint64_t)status.st_size == offer->frame_bytes;
    if (!valid) return;
    void *pixels = mmap(NULL, (size_t)offer->frame_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) return;
    if (holds_data(fd)) memset(pixels, 0, (size_t)offer->frame_bytes);
    offered.pixels = pixels;
    offered.bytes = (size_t)offer->frame_bytes;
    offered.device = status.st_dev;
    offered.inode = status.st_ino;
}

/* The offered mapping when `memfd` is the offered memfd at `bytes` (else it is unmapped): MAP_FAILED if none. */
static void *offered_frame(int memfd, size_t bytes) {
    if (offered.pixels == MAP_FAILED) return MAP_FAILED;
    struct stat status;
    if (fstat(memfd, &status) == 0 && status.st_dev == offered.device && status.st_ino == offered.inode &&
        (uint64_t)status.st_size == bytes && offered.bytes == bytes) {
        return offered.pixels;
    }
    munmap(offered.pixels, offered.bytes);
    offered.pixels = MAP_FAILED;
    return MAP_FAILED;
}

/* BADECODE_REQUEST_HEADER_ONLY: the header alone; the frame (sized by the slideshow) stays empty. */
static int read_header_only(int photo_fd, baphoto_format format, const badecode_request *request,
                            badecode_reply *reply) {
    baphoto_header header;
    baphoto_limits limits = photo_limits(request);
    reply->status = baphoto_read_header(photo_fd, format, &limits, &header, reply->message);
    if (reply->status != BAPHOTO_OK) return -1;
    copy_header(reply, &header);
    reply->frame_width = request->width;
    reply->frame_height = request->height;
    reply->scale_used = request->scale == BADECODE_SCALE_FIT ? BADECODE_SCALE_FIT : BADECODE_SCALE_FILL;
    return 0;
}

/* Decodes into the memfd (the slideshow's, sized for the frame); fills the reply. Returns 0 when the frame is ready. */
static int decode_to_memfd(int photo_fd, int memfd, const badecode_request *request, badecode_reply *reply,
                           decode_metadata *metadata) {
    baphoto_format format = baphoto_detect_format(photo_fd);
    reply->format = (uint32_t)format; /* BADECODE_FORMAT_* and BAPHOTO_FORMAT_* agree */
    if (format == BAPHOTO_FORMAT_UNKNOWN) {
        reply->status = BAPHOTO_ERROR_WRONG_FORMAT;
        snprintf(reply->message, sizeof reply->message, "not a photo (neither JPEG, PNG, WebP nor HEIF)");
        return -1;
    }
    if (request->flags & BADECODE_REQUEST_HEADER_ONLY) return read_header_only(photo_fd, format, request, reply);
    baphoto_target target = {.width = request->width, .height = request->height,
                             .scale = request->scale == BADECODE_SCALE_FIT ? BAPHOTO_SCALE_FIT : BAPHOTO_SCALE_FILL,
                             .quarter_turns = request->quarter_turns};
    if (request->scale == BADECODE_SCALE_AUTO) resolve_auto(photo_fd, format, request, &target);
    size_t bytes = (size_t)target.width * target.height * 4;
    /* Mapped already when it was offered ahead of the photo; its pages come as the photo is drawn. */
    void *pixels = offered_frame(memfd, bytes);
    if (pixels == MAP_FAILED) {
        /* Mapped in one call (MAP_POPULATE), its pages allocated at once rather than a fault each. */
        int used = 1;
        if (ftruncate(memfd, (off_t)bytes) == 0) {
            used = holds_data(memfd); /* before the mapping allocates its pages */
            pixels = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, memfd, 0);
        }
        if (pixels == MAP_FAILED) {
            reply->status = BAPHOTO_ERROR_NO_MEMORY;
            snprintf(reply->message, sizeof reply->message, "no memory for the frame: %s", strerror(errno));
            return -1;
        }
        if (used) memset(pixels, 0, bytes);
    }
    target.pixels = pixels;
    baphoto_header header;
    baphoto_limits limits = photo_limits(request);
    /* Colour management in the sandbox too: lcms2 parses the photo's own (untrusted) profile. */
    reply->status = baphoto_decode(photo_fd, format, &limits, &target, &header, &metadata->photo, reply->message);
    copy_header(reply, &header);
    if (reply->status == BAPHOTO_OK) note_png_time(metadata);
    frame_pixels = pixels;
    frame_bytes = bytes;
    if (reply->status != BAPHOTO_OK) return -1;
    reply->frame_width = target.width;
    reply->frame_height = target.height;
    reply->scale_used = target.scale == BAPHOTO_SCALE_FIT ? BADECODE_SCALE_FIT : BADECODE_SCALE_FILL;
    return 0;
}

/* Appends a record to the reply's extras. */
static size_t add_extra(uint8_t *buffer, size_t used, uint16_t type, const void *bytes, uint32_t length) {
    size_t padded = ((size_t)length + 3) & ~(size_t)3;
    if (used + 8 + padded > BADECODE_REPLY_MAX) return used;
    uint16_t reserved = 0;
    memcpy(buffer + used, &type, 2);
    memcpy(buffer + used + 2, &reserved, 2);
    memcpy(buffer + used + 4, &length, 4);
    memset(buffer + used + 8, 0, padded);
    memcpy(buffer + used + 8, bytes, length);
    return used + 8 + padded;
}

static int send_reply(int socket_fd, badecode_reply *reply, const decode_metadata *metadata) {
    static uint8_t buffer[BADECODE_REPLY_MAX];
    size_t used = sizeof *reply;
    /* The captions' date: the EXIF bytes (at most 64 KB: the dates sit in the first few hundred), PNG tIME. */
    if (metadata && metadata->photo.exif && metadata->photo.exif_length) {
        size_t length = metadata->photo.exif_length < 65536 ? metadata->photo.exif_length : 65536;
        used = add_extra(buffer, used, BADECODE_EXTRA_EXIF, metadata->photo.exif, (uint32_t)length);
    }
    if (metadata && metadata->png_time[0]) {
        used = add_extra(buffer, used, BADECODE_EXTRA_CAPTURE_DATE, metadata->png_time,
                         (uint32_t)strlen(metadata->png_time));
    }
    if (metadata && metadata->photo.colour.result != BACOLOUR_UNTAGGED) {
        used = add_extra(buffer, used, BADECODE_EXTRA_ICC_PROFILE_NAME, metadata->photo.colour.name,
                         (uint32_t)strlen(metadata->photo.colour.name));
    }
    if (metadata && metadata->photo.colour.result == BACOLOUR_IGNORED) {
        used = add_extra(buffer, used, BADECODE_EXTRA_COLOUR_IGNORED, metadata->photo.colour.reason,
                         (uint32_t)strlen(metadata->photo.colour.reason));
    }
    const char *version = baphoto_codec_version((baphoto_format)reply->format);
    if (version) used = add_extra(buffer, used, BADECODE_EXTRA_DECODER_VERSION, version, (uint32_t)strlen(version));
    reply->extras_length = (uint32_t)(used - sizeof *reply);
    memcpy(buffer, reply, sizeof *reply);
    struct iovec part = {.iov_base = buffer, .iov_len = used};
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
    return sendmsg(socket_fd, &message, MSG_NOSIGNAL) == (ssize_t)used ? 0 : -1;
}

/* Receives the request, the photo's descriptor and the frame's memfd (taking a frame offer that
 * comes first); returns the photo's descriptor or -1. */
static int receive_request(int socket_fd, badecode_request *request, int *frame_fd) {
    struct iovec part = {.iov_base = request, .iov_len = sizeof *request};
    union {
        char bytes[CMSG_SPACE(2 * sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr message;
    ssize_t got;
    for (;;) {
        message = (struct msghdr){.msg_iov = &part, .msg_iovlen = 1, .msg_control = control.bytes,
                                  .msg_controllen = sizeof control.bytes};
        do {
            got = recvmsg(socket_fd, &message, MSG_CMSG_CLOEXEC);
        } while (got < 0 && errno == EINTR);
        if (got <= 0) return -1; /* the slideshow closed the socket: it no longer needs this worker */
        struct cmsghdr *offer_header = CMSG_FIRSTHDR(&message);
        if (got != (ssize_t)sizeof(badecode_frame_offer) || !offer_header || offer_header->cmsg_type != SCM_RIGHTS ||
            offer_header->cmsg_len != CMSG_LEN(sizeof(int))) {
            break;
        }
        int offered_fd;
        memcpy(&offered_fd, CMSG_DATA(offer_header), sizeof offered_fd);
        badecode_frame_offer offer;
        memcpy(&offer, request, sizeof offer);
        take_offer(offered_fd, &offer);
        close(offered_fd); /* the mapping stays; the request brings the memfd again */
    }
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    if (!header || header->cmsg_type != SCM_RIGHTS || header->cmsg_len != CMSG_LEN(2 * sizeof(int))) return -1;
    int fds[2];
    memcpy(fds, CMSG_DATA(header), sizeof fds);
    int fd = fds[0];
    *frame_fd = fds[1];
    int valid = got == (ssize_t)sizeof *request && request->magic == BADECODE_MAGIC &&
                request->version == BADECODE_VERSION && request->width && request->height &&
                request->width <= MAX_SIDE && request->height <= MAX_SIDE;
    if (!valid) {
        close(fd);
        close(*frame_fd);
        return -1;
    }
    return fd;
}

/* What must happen before the sandbox closes (it opens files); returns the process's size. */
static uint64_t prepare(void) {
    /*
     * One malloc arena for every thread: glibc reserves 64 MB of address space for each extra
     * arena, which RLIMIT_AS would count against the budget.
     */
    mallopt(M_ARENA_MAX, 1);
    bacolour_prepare();
    /* Each decoder's set-up on first use (libjpeg-turbo's CPU probe, libheif's plugins). */
    badecode_warm_up_result warmed;
    badecode_warm_up(&warmed);
    return basandbox_current_address_space();
}

/*
 * The host program's crash handlers (the Swift runtime's backtracer) would run inside the
 * sandbox: a crash ends the worker with its own signal instead.
 */
static void default_crash_signals(void) {
    const int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGXCPU, SIGXFSZ};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) signal(signals[i], SIG_DFL);
}

/* Says that this worker is confined and waits, with its size (the base of its RLIMIT_AS). */
static int send_ready(int socket_fd, uint64_t address_space) {
    badecode_ready ready = {.magic = BADECODE_MAGIC, .version = BADECODE_VERSION,
                            .address_space_bytes = address_space};
    struct iovec part = {.iov_base = &ready, .iov_len = sizeof ready};
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
    return sendmsg(socket_fd, &message, MSG_NOSIGNAL) == (ssize_t)sizeof ready ? 0 : -1;
}

int badecode_worker_main(int socket_fd) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    default_crash_signals();
    /*
     * Confined before it waits for its photo (it may wait a whole interval, started ahead of
     * need): the photo's descriptor arrives inside the sandbox, so not a byte of it is read outside.
     */
    badecode_reply reply = {.magic = BADECODE_MAGIC, .version = BADECODE_VERSION, .fixed_size = sizeof reply};
    int keep[1] = {socket_fd};
    uint64_t address_space = prepare();
    basandbox_report_refusals(socket_fd, 1);
    /* No RLIMIT_AS or RLIMIT_CPU here: the slideshow sets them (prlimit) before it sends the photo. */
    basandbox_limits unset = {0};
    if (basandbox_confine(keep, 1, &unset, reply.message) != 0) {
        reply.status = BAPHOTO_ERROR_IO;
        send_reply(socket_fd, &reply, NULL);
        return 3;
    }
    if (send_ready(socket_fd, address_space) != 0) return 2;
    badecode_request request;
    int memfd = -1;
    int photo_fd = receive_request(socket_fd, &request, &memfd);
    if (photo_fd < 0) return 2;
    test_action(request.test_action);
    static decode_metadata metadata;
    int ready = decode_to_memfd(photo_fd, memfd, &request, &reply, &metadata) == 0;
    int sent = send_reply(socket_fd, &reply, ready ? &metadata : NULL);
    baphoto_metadata_free(&metadata.photo);
    if (sent != 0) return 4;
    /* Alive until the slideshow has read its memory figures and closes the socket (or kills it). */
    char ignored;
    while (read(socket_fd, &ignored, 1) > 0) continue;
    return 0;
}

int badecode_trace(const char *path, unsigned width, unsigned height) {
    int photo_fd = open(path, O_RDONLY | O_CLOEXEC);
    int memfd = memfd_create("babyalbum-frame", MFD_CLOEXEC);
    if (photo_fd < 0 || memfd < 0) return 2;
    badecode_request request = {.magic = BADECODE_MAGIC, .version = BADECODE_VERSION, .width = width,
                                .height = height, .scale = BADECODE_SCALE_FILL, .max_pixels = 100000000,
                                .budget_bytes = 96ull << 20, .max_scans = 100, .max_chunk_bytes = 1u << 20,
                                .cpu_seconds = 30};
    badecode_reply reply = {0};
    int keep[3] = {photo_fd, memfd, 2};
    basandbox_limits limits = basandbox_worker_limits(prepare(), &request);
    basandbox_report_refusals(2, 0);
    if (basandbox_confine(keep, 3, &limits, reply.message) != 0) return 3;
    static decode_metadata metadata;
    int status = decode_to_memfd(photo_fd, memfd, &request, &reply, &metadata);
    if (frame_pixels != MAP_FAILED) munmap(frame_pixels, frame_bytes);
    baphoto_metadata_free(&metadata.photo);
    if (status != 0) {
        char line[BADECODE_MESSAGE_SIZE + 16];
        int length = snprintf(line, sizeof line, "%s\n", reply.message);
        if (write(2, line, (size_t)length) < 0) return 5;
    }
    return status == 0 ? 0 : 1;
}

#ifndef C_HEIF_CODEC_H
#define C_HEIF_CODEC_H
/*
 * HEIC, HEIF and AVIF through libheif (Debian's 1.15.1: HEVC by libde265, AV1 by dav1d or aom).
 * The contract of every codec (CPhotoCodecCore.h): the caller's descriptor, read from offset 0
 * and never closed; 0 or a negative BAPHOTO_ERROR_* code with a one-line reason.
 *
 * libheif decodes the whole primary image (a grid's every tile) and applies its `irot`, `imir`
 * and `clap` transforms; the EXIF Orientation of a HEIF file describes the same turn and is not
 * applied again (as libheif and Pillow do). 10-bit images come out as 8 bits, alpha is
 * composited over black, and the image is area-averaged to the target.
 *
 * AVIF is shown as libavif (its reference decoder) shows it, on libheif 1.15 and 1.23 alike
 * (docs/formats-and-colour.md): the transforms of an AV1 image are applied here rather than by
 * libheif, a monochrome one is converted here from its gray plane, an alpha plane is decoded apart
 * and expanded from its range, a layered image keeps the layers of its `a1op` and `lsel` only, an
 * image sequence is shown by its primary item or, without one, by its first frame.
 */
/* By its path from here (see CPNGCodec.h). */
#include "../../CPhotoCodecCore/include/CPhotoCodecCore.h"

/** Reads the header of the HEIF at `fd` (width and height after its transforms). */
int baphoto_heif_read_header(int fd, const baphoto_limits *limits, baphoto_header *header,
                             char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

/**
 * Decodes the HEIF's primary image at `fd` and scales it into `target`. `metadata`, when not
 * NULL, is filled on success from the same read of the file: the first Exif item (as TIFF bytes,
 * at most 64 KB), and the `colr` description, an ICC profile (at most 4 MB) or else an nclx's code
 * points. The caller frees it with `baphoto_metadata_free`.
 */
int baphoto_heif_decode(int fd, const baphoto_limits *limits, const baphoto_target *target, baphoto_header *header,
                        baphoto_metadata *metadata, char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

/** The libheif version in use ("1.15.1"). */
const char *baphoto_heif_version(void);

/** libheif's version as the entry API names it: "libheif 1.15.1". */
const char *baphoto_heif_library_version(void);

/**
 * libheif's one-time set-up (heif_init): libheif 1.17 and later (Debian 13) load their decoder
 * plugins here, with dlopen, which opens files: done before the decode sandbox closes. The
 * security limits' look-up (baphoto_heif_has_security_limits) is done here too.
 */
void baphoto_heif_prepare(void);

/**
 * Whether the libheif in use has security limits (heif_context_get_security_limits, 1.19 and
 * later: Debian 13), looked up at run time with dlsym; when it has, every decode sets them from
 * the pixel limit and the budget (the image's pixels, a memory block, the total memory, tiles), so
 * libheif itself refuses a larger image before allocating it. Debian 12's 1.15 has none: the
 * codec's own checks, which run either way, then stand alone.
 */
int baphoto_heif_has_security_limits(void);

/**
 * For tests: libheif's own verdict on the HEIF at `fd`, its primary image decoded by libheif alone
 * with the limits every decode sets on it (the side limit and, where the library has them, the
 * security limits from `limits`) and none of the codec's own checks; in process, unconfined.
 * 0 when libheif decodes it, else a BAPHOTO_ERROR_* code with libheif's message.
 */
int baphoto_heif_decode_by_libheif_alone(int fd, const baphoto_limits *limits,
                                         char error[BAPHOTO_ERROR_MESSAGE_SIZE]);

/** Whether libheif can decode AV1 (AVIF). */
int baphoto_heif_decodes_avif(void);

#endif

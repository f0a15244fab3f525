#ifndef BAPHOTO_JPEG_MARKERS_H
#define BAPHOTO_JPEG_MARKERS_H
/*
 * The JPEG codec's own processor for APPn and COM markers (jpeg_set_marker_processor), in place
 * of libjpeg's jpeg_save_markers: libjpeg appends each saved marker by walking its whole list,
 * so a file of 100,000 empty APP1 markers took 9.7 s to read its header. This one keeps the
 * first Exif APP1 segment and the ICC_PROFILE APP2 chunks only, skips everything else without
 * reading it, counts the markers against a cap and the kept bytes against the decode budget.
 * It also reads JFIF (APP0) and Adobe (APP14) as libjpeg would, since it replaces libjpeg's
 * processor for them.
 */
#include "CJPEGCodec.h"

#include <stdint.h>
#include <stdio.h>

#include <jpeglib.h>

/** Most APPn and COM markers a JPEG may have; cameras write fewer than 30. */
#define BAJPEG_MAX_MARKERS 1000
/** Largest ICC profile kept (the sum of its chunks); a larger one is left out. */
#define BAJPEG_MAX_ICC_BYTES (4u << 20)

/** What the marker processor keeps, and how it reports a failure (it never returns from one). */
typedef struct {
    /* The first APP1 "Exif\0\0" segment's TIFF bytes (after the name). */
    uint8_t *exif;
    uint32_t exif_length;
    /* ICC_PROFILE chunks by their sequence number (1 to 255), as stored. */
    uint8_t *icc_chunks[256];
    uint16_t icc_chunk_lengths[256];
    /* The chunk count the first chunk declared; -1 once the chunks disagree (profile dropped). */
    int icc_count;
    uint32_t markers;
    /* Bytes kept so far, and the most the decode budget leaves for them. */
    uint64_t kept_bytes;
    uint64_t budget_bytes;
    /* Ends the decode (longjmp); `owner` is the codec's context. */
    void (*fail)(void *owner, int status, const char *reason);
    void *owner;
} bajpeg_markers;

/** Installs the processor for APP0 to APP15 and COM; `markers` must outlive the decode. */
void bajpeg_markers_install(j_decompress_ptr cinfo, bajpeg_markers *markers);

/** The EXIF orientation of the kept Exif segment, or 1. */
int bajpeg_markers_orientation(const bajpeg_markers *markers);

/**
 * Moves the kept EXIF and the joined ICC profile (when all its chunks are there, in one count)
 * into `metadata`; the joined profile stays counted in `kept_bytes`.
 */
void bajpeg_markers_take(bajpeg_markers *markers, baphoto_metadata *metadata);

/** Frees what the processor still holds. */
void bajpeg_markers_free(bajpeg_markers *markers);

#endif

#include "jpeg_markers.h"

#include "layout.h"

#include <stdlib.h>
#include <string.h>

/* The bytes of an APPn segment read before deciding what it is: "ICC_PROFILE\0" + seq + count. */
#define HEAD_SIZE 14

static bajpeg_markers *markers_of(j_decompress_ptr cinfo) { return (bajpeg_markers *)cinfo->client_data; }

/*
 * Bytes are read through the codec's source manager, which never suspends: it fills its buffer
 * or ends the decode (truncated file, read error).
 */
static void fill_if_empty(j_decompress_ptr cinfo) {
    if (cinfo->src->bytes_in_buffer == 0) (void)(*cinfo->src->fill_input_buffer)(cinfo);
}

static void read_bytes(j_decompress_ptr cinfo, uint8_t *out, size_t count) {
    struct jpeg_source_mgr *source = cinfo->src;
    while (count > 0) {
        fill_if_empty(cinfo);
        size_t now = count < source->bytes_in_buffer ? count : source->bytes_in_buffer;
        memcpy(out, source->next_input_byte, now);
        source->next_input_byte += now;
        source->bytes_in_buffer -= now;
        out += now;
        count -= now;
    }
}

static void skip_bytes(j_decompress_ptr cinfo, size_t count) {
    if (count > 0) (*cinfo->src->skip_input_data)(cinfo, (long)count);
}

/* JFIF in APP0, as libjpeg's examine_app0 reads it (it decides a 3-component file's colours). */
static void examine_jfif(j_decompress_ptr cinfo, const uint8_t *head, size_t got) {
    if (got < HEAD_SIZE || memcmp(head, "JFIF\0", 5) != 0) return;
    cinfo->saw_JFIF_marker = TRUE;
    cinfo->JFIF_major_version = head[5];
    cinfo->JFIF_minor_version = head[6];
    cinfo->density_unit = head[7];
    cinfo->X_density = (UINT16)((head[8] << 8) + head[9]);
    cinfo->Y_density = (UINT16)((head[10] << 8) + head[11]);
}

/* Adobe in APP14, as libjpeg's examine_app14 reads it (RGB or YCbCr, inverted CMYK). */
static void examine_adobe(j_decompress_ptr cinfo, const uint8_t *head, size_t got) {
    if (got < 12 || memcmp(head, "Adobe", 5) != 0) return;
    cinfo->saw_Adobe_marker = TRUE;
    cinfo->Adobe_transform = head[11];
}

/* Allocates `size` bytes counted against the budget, or NULL when the budget has no room. */
static uint8_t *allocate_counted(bajpeg_markers *markers, size_t size) {
    if (markers->kept_bytes + size > markers->budget_bytes) return NULL;
    uint8_t *bytes = malloc(size ? size : 1);
    if (!bytes) markers->fail(markers->owner, BAPHOTO_ERROR_NO_MEMORY, "out of memory");
    markers->kept_bytes += size;
    return bytes;
}

/* Keeps the first Exif segment: `head` holds its first bytes (after the name), `rest` follow. */
static void keep_exif(j_decompress_ptr cinfo, const uint8_t *head, size_t got, size_t rest) {
    bajpeg_markers *markers = markers_of(cinfo);
    uint8_t *exif = allocate_counted(markers, got + rest);
    if (!exif) {
        skip_bytes(cinfo, rest);
        return;
    }
    memcpy(exif, head, got);
    /* Held before it is read: libjpeg's error exit (a file cut short) jumps out of read_bytes. */
    markers->exif = exif;
    markers->exif_length = (uint32_t)(got + rest);
    read_bytes(cinfo, exif + got, rest);
}

static void drop_icc(bajpeg_markers *markers) {
    for (int i = 0; i < 256; i++) {
        markers->kept_bytes -= markers->icc_chunk_lengths[i];
        free(markers->icc_chunks[i]);
        markers->icc_chunks[i] = NULL;
        markers->icc_chunk_lengths[i] = 0;
    }
    markers->icc_count = -1;
}

static uint64_t icc_bytes(const bajpeg_markers *markers) {
    uint64_t total = 0;
    for (int i = 1; i < 256; i++) total += markers->icc_chunk_lengths[i];
    return total;
}

/*
 * Keeps one ICC_PROFILE chunk (`size` bytes after its 14-byte head). A profile whose chunks
 * disagree on their count, repeat a number, or sum to more than BAJPEG_MAX_ICC_BYTES is dropped
 * whole: the photo is still shown, as an sRGB one.
 */
static void keep_icc_chunk(j_decompress_ptr cinfo, int sequence, int count, size_t size) {
    bajpeg_markers *markers = markers_of(cinfo);
    if (markers->icc_count == 0 && count > 0) markers->icc_count = count;
    int valid = markers->icc_count > 0 && count == markers->icc_count && sequence >= 1 && sequence <= count &&
                markers->icc_chunks[sequence] == NULL && size > 0 &&
                icc_bytes(markers) + size <= BAJPEG_MAX_ICC_BYTES;
    if (!valid) {
        if (markers->icc_count != -1) drop_icc(markers);
        skip_bytes(cinfo, size);
        return;
    }
    uint8_t *chunk = allocate_counted(markers, size);
    if (!chunk) {
        drop_icc(markers);
        skip_bytes(cinfo, size);
        return;
    }
    /* Held before it is read: libjpeg's error exit (a file cut short) jumps out of read_bytes. */
    markers->icc_chunks[sequence] = chunk;
    markers->icc_chunk_lengths[sequence] = (uint16_t)size;
    read_bytes(cinfo, chunk, size);
}

/* Every APPn and COM marker comes here; libjpeg has just read the marker's code. */
static boolean process_marker(j_decompress_ptr cinfo) {
    bajpeg_markers *markers = markers_of(cinfo);
    if (++markers->markers > BAJPEG_MAX_MARKERS) {
        char reason[BAPHOTO_ERROR_MESSAGE_SIZE];
        snprintf(reason, sizeof reason, "JPEG has more than %d metadata markers (refused as a marker bomb)",
                 BAJPEG_MAX_MARKERS);
        markers->fail(markers->owner, BAPHOTO_ERROR_TOO_LARGE, reason);
    }
    uint8_t length_bytes[2];
    read_bytes(cinfo, length_bytes, 2);
    size_t length = ((size_t)length_bytes[0] << 8) | length_bytes[1];
    if (length < 2) markers->fail(markers->owner, BAPHOTO_ERROR_CORRUPT, "corrupt JPEG: a marker is shorter than its length");
    length -= 2;
    uint8_t head[HEAD_SIZE];
    size_t got = length < HEAD_SIZE ? length : HEAD_SIZE;
    read_bytes(cinfo, head, got);
    size_t rest = length - got;
    int code = cinfo->unread_marker;
    if (code == JPEG_APP0) {
        examine_jfif(cinfo, head, got);
    } else if (code == JPEG_APP0 + 14) {
        examine_adobe(cinfo, head, got);
    } else if (code == JPEG_APP0 + 1 && !markers->exif && got >= 6 && memcmp(head, "Exif\0\0", 6) == 0) {
        keep_exif(cinfo, head + 6, got - 6, rest);
        return TRUE;
    } else if (code == JPEG_APP0 + 2 && got == HEAD_SIZE && memcmp(head, "ICC_PROFILE\0", 12) == 0) {
        keep_icc_chunk(cinfo, head[12], head[13], rest);
        return TRUE;
    }
    skip_bytes(cinfo, rest);
    return TRUE;
}

void bajpeg_markers_install(j_decompress_ptr cinfo, bajpeg_markers *markers) {
    cinfo->client_data = markers;
    for (int n = 0; n < 16; n++) jpeg_set_marker_processor(cinfo, JPEG_APP0 + n, process_marker);
    jpeg_set_marker_processor(cinfo, JPEG_COM, process_marker);
}

int bajpeg_markers_orientation(const bajpeg_markers *markers) {
    if (!markers->exif) return 1;
    return baphoto_exif_orientation(markers->exif, markers->exif_length);
}

/* Joins the chunks 1 to count into one profile, counted against the budget; NULL if incomplete. */
static uint8_t *join_icc(bajpeg_markers *markers, size_t *length) {
    if (markers->icc_count <= 0) return NULL;
    for (int i = 1; i <= markers->icc_count; i++) {
        if (!markers->icc_chunks[i]) return NULL;
    }
    size_t total = (size_t)icc_bytes(markers);
    uint8_t *profile = allocate_counted(markers, total);
    if (!profile) return NULL;
    size_t at = 0;
    for (int i = 1; i <= markers->icc_count; i++) {
        memcpy(profile + at, markers->icc_chunks[i], markers->icc_chunk_lengths[i]);
        at += markers->icc_chunk_lengths[i];
    }
    *length = total;
    return profile;
}

void bajpeg_markers_take(bajpeg_markers *markers, baphoto_metadata *metadata) {
    baphoto_metadata_free(metadata);
    size_t icc_length = 0;
    uint8_t *icc = join_icc(markers, &icc_length);
    /* The chunks are freed; the joined profile stays counted in kept_bytes while it is held. */
    drop_icc(markers);
    metadata->icc = icc;
    metadata->icc_length = icc ? icc_length : 0;
    metadata->exif = markers->exif;
    metadata->exif_length = markers->exif ? markers->exif_length : 0;
    markers->exif = NULL;
    markers->exif_length = 0;
}

void bajpeg_markers_free(bajpeg_markers *markers) {
    drop_icc(markers);
    free(markers->exif);
    markers->exif = NULL;
}

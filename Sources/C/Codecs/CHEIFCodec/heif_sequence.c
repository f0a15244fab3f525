#include "heif_grid.h"

#include <stdlib.h>
#include <string.h>

/*
 * The first frame of an image sequence that has no primary image item (only a `moov` with its
 * tracks: AVIF's `avis`, HEIF's `msf1`), made into a still image file in memory that libheif reads
 * (1.15 reads no tracks): the first sample of the first picture track (handler `pict` or `vide`,
 * sample entry `av01`, `hvc1` or `hev1`) as the primary item, with the sample entry's
 * configuration (`av1C`, `hvcC`), size and `colr`; the first sample of an alpha track (handler
 * `auxv`, referring to it with `auxl`) as its alpha. Every length is checked against what holds
 * it; anything else than this plain shape is left to libheif, which refuses it.
 */

#define FOURCC(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))
#define ALPHA_URN "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"

typedef struct {
    const uint8_t *data;
    size_t size;
} span;

static uint32_t be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* The first child box of `in` (after `skip` bytes) of `type`; 0 when there is none. */
static int child(span in, size_t skip, uint32_t type, span *out) {
    size_t at = skip;
    while (at + 8 <= in.size) {
        uint64_t size = be32(in.data + at);
        uint32_t kind = be32(in.data + at + 4);
        size_t header = 8;
        if (size == 1) {
            if (at + 16 > in.size) return 0;
            size = ((uint64_t)be32(in.data + at + 8) << 32) | be32(in.data + at + 12);
            header = 16;
        } else if (size == 0) {
            size = in.size - at;
        }
        if (size < header || size > in.size - at) return 0;
        if (kind == type) {
            *out = (span){in.data + at + header, (size_t)size - header};
            return 1;
        }
        at += (size_t)size;
    }
    return 0;
}

/* The n-th (0-based) child of `in` of `type`. */
static int nth_child(span in, uint32_t type, int n, span *out) {
    size_t at = 0;
    while (at + 8 <= in.size) {
        uint64_t size = be32(in.data + at);
        if (size < 8 || size > in.size - at) return 0;
        if (be32(in.data + at + 4) == type && n-- == 0) {
            *out = (span){in.data + at + 8, (size_t)size - 8};
            return 1;
        }
        at += (size_t)size;
    }
    return 0;
}

typedef struct {
    uint32_t id, handler, codec, reference; /* reference: the track an `auxl` points to */
    uint32_t width, height;
    span config, colr; /* the sample entry's av1C or hvcC body, and its colr body */
    uint64_t offset, size; /* the first sample in the file */
    int alpha;             /* an auxiliary track of type alpha */
} track;

/* Reads one `trak`; 0 when it is a track this handles. */
static int read_track(span file, span trak, track *t) {
    memset(t, 0, sizeof *t);
    span tkhd, mdia, hdlr, minf, stbl, stsd, stsz, stco, tref, auxl, entry;
    if (!child(trak, 0, FOURCC('t', 'k', 'h', 'd'), &tkhd) || tkhd.size < 24) return -1;
    t->id = be32(tkhd.data + (tkhd.data[0] == 1 ? 20 : 12));
    if (!child(trak, 0, FOURCC('m', 'd', 'i', 'a'), &mdia) || !child(mdia, 0, FOURCC('h', 'd', 'l', 'r'), &hdlr) ||
        hdlr.size < 12)
        return -1;
    t->handler = be32(hdlr.data + 8);
    if (child(trak, 0, FOURCC('t', 'r', 'e', 'f'), &tref) && child(tref, 0, FOURCC('a', 'u', 'x', 'l'), &auxl) &&
        auxl.size >= 4)
        t->reference = be32(auxl.data);
    if (!child(mdia, 0, FOURCC('m', 'i', 'n', 'f'), &minf) || !child(minf, 0, FOURCC('s', 't', 'b', 'l'), &stbl) ||
        !child(stbl, 0, FOURCC('s', 't', 's', 'd'), &stsd) || stsd.size < 16)
        return -1;
    /* The first sample entry: a VisualSampleEntry (ISO/IEC 14496-12 12.1.3), 78 bytes, then boxes. */
    span entries = {stsd.data + 8, stsd.size - 8};
    if (be32(entries.data) < 8 + 78 || be32(entries.data) > entries.size) return -1;
    t->codec = be32(entries.data + 4);
    entry = (span){entries.data + 8, be32(entries.data) - 8};
    t->width = ((uint32_t)entry.data[24] << 8) | entry.data[25];
    t->height = ((uint32_t)entry.data[26] << 8) | entry.data[27];
    uint32_t config = t->codec == FOURCC('a', 'v', '0', '1') ? FOURCC('a', 'v', '1', 'C') : FOURCC('h', 'v', 'c', 'C');
    if (t->codec != FOURCC('a', 'v', '0', '1') && t->codec != FOURCC('h', 'v', 'c', '1') &&
        t->codec != FOURCC('h', 'e', 'v', '1'))
        return -1;
    if (!child(entry, 78, config, &t->config)) return -1;
    (void)child(entry, 78, FOURCC('c', 'o', 'l', 'r'), &t->colr);
    span auxi;
    t->alpha = t->handler == FOURCC('a', 'u', 'x', 'v') && child(entry, 78, FOURCC('a', 'u', 'x', 'i'), &auxi) &&
               auxi.size > 4 && memchr(auxi.data + 4, 0, auxi.size - 4) &&
               strcmp((const char *)auxi.data + 4, ALPHA_URN) == 0;
    /* The first sample: the first chunk's start, its size from stsz. */
    if (!child(stbl, 0, FOURCC('s', 't', 's', 'z'), &stsz) || stsz.size < 12) return -1;
    t->size = be32(stsz.data + 4);
    if (t->size == 0) {
        if (stsz.size < 16 || be32(stsz.data + 8) == 0) return -1;
        t->size = be32(stsz.data + 12);
    }
    if (child(stbl, 0, FOURCC('s', 't', 'c', 'o'), &stco) && stco.size >= 12 && be32(stco.data + 4) > 0) {
        t->offset = be32(stco.data + 8);
    } else if (child(stbl, 0, FOURCC('c', 'o', '6', '4'), &stco) && stco.size >= 16 && be32(stco.data + 4) > 0) {
        t->offset = ((uint64_t)be32(stco.data + 8) << 32) | be32(stco.data + 12);
    } else {
        return -1;
    }
    if (t->size == 0 || t->offset > file.size || t->size > file.size - t->offset) return -1;
    return 0;
}

/* A growing buffer; `bad` once an allocation failed. */
typedef struct {
    uint8_t *data;
    size_t size, capacity;
    int bad;
} buffer;

static void put(buffer *b, const void *bytes, size_t count) {
    if (b->bad) return;
    if (b->size + count > b->capacity) {
        size_t capacity = (b->size + count) * 2;
        uint8_t *grown = realloc(b->data, capacity);
        if (!grown) {
            b->bad = 1;
            return;
        }
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->size, bytes, count);
    b->size += count;
}

static void put32(buffer *b, uint32_t v) {
    uint8_t bytes[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    put(b, bytes, 4);
}

static void put16(buffer *b, uint16_t v) {
    uint8_t bytes[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    put(b, bytes, 2);
}

/* Opens a box of `type` (its size written by close_box); returns where it starts. */
static size_t open_box(buffer *b, uint32_t type) {
    size_t start = b->size;
    put32(b, 0);
    put32(b, type);
    return start;
}

static void close_box(buffer *b, size_t start) {
    if (b->bad) return;
    uint32_t size = (uint32_t)(b->size - start);
    b->data[start] = (uint8_t)(size >> 24);
    b->data[start + 1] = (uint8_t)(size >> 16);
    b->data[start + 2] = (uint8_t)(size >> 8);
    b->data[start + 3] = (uint8_t)size;
}

static void put_box(buffer *b, uint32_t type, span body) {
    size_t box = open_box(b, type);
    put(b, body.data, body.size);
    close_box(b, box);
}

static void put_item(buffer *b, uint16_t id, uint32_t type, int hidden) {
    size_t infe = open_box(b, FOURCC('i', 'n', 'f', 'e'));
    put32(b, (2u << 24) | (hidden ? 1u : 0u)); /* version 2 */
    put16(b, id);
    put16(b, 0);
    put32(b, type);
    put(b, "", 1); /* item_name */
    close_box(b, infe);
}

/* The properties of one item: its configuration, ispe and colr (when it has one). */
static int put_properties(buffer *b, const track *t) {
    put_box(b, t->codec == FOURCC('a', 'v', '0', '1') ? FOURCC('a', 'v', '1', 'C') : FOURCC('h', 'v', 'c', 'C'),
            t->config);
    size_t ispe = open_box(b, FOURCC('i', 's', 'p', 'e'));
    put32(b, 0);
    put32(b, t->width);
    put32(b, t->height);
    close_box(b, ispe);
    if (!t->colr.data) return 2;
    put_box(b, FOURCC('c', 'o', 'l', 'r'), t->colr);
    return 3;
}

int baheif_sequence_still(const uint8_t *file, size_t size, uint8_t **out, size_t *out_size) {
    span whole = {file, size}, moov, trak;
    if (!child(whole, 0, FOURCC('m', 'o', 'o', 'v'), &moov)) return -1;
    track colour = {0}, alpha = {0}, t;
    int have_colour = 0, have_alpha = 0;
    for (int n = 0; n < 64 && nth_child(moov, FOURCC('t', 'r', 'a', 'k'), n, &trak); n++) {
        if (read_track(whole, trak, &t) != 0) continue;
        if (!have_colour && (t.handler == FOURCC('p', 'i', 'c', 't') || t.handler == FOURCC('v', 'i', 'd', 'e'))) {
            colour = t;
            have_colour = 1;
        } else if (!have_alpha && t.alpha) {
            alpha = t;
            have_alpha = 1;
        }
    }
    if (!have_colour || colour.width == 0 || colour.height == 0) return -1;
    if (have_alpha && (alpha.reference != colour.id || alpha.codec != colour.codec)) have_alpha = 0;
    int av1 = colour.codec == FOURCC('a', 'v', '0', '1');
    uint32_t type = av1 ? FOURCC('a', 'v', '0', '1') : FOURCC('h', 'v', 'c', '1');
    buffer b = {0};
    size_t ftyp = open_box(&b, FOURCC('f', 't', 'y', 'p'));
    put32(&b, av1 ? FOURCC('a', 'v', 'i', 'f') : FOURCC('h', 'e', 'i', 'c'));
    put32(&b, 0);
    put32(&b, FOURCC('m', 'i', 'f', '1'));
    put32(&b, av1 ? FOURCC('a', 'v', 'i', 'f') : FOURCC('h', 'e', 'i', 'c'));
    put32(&b, FOURCC('m', 'i', 'a', 'f'));
    close_box(&b, ftyp);
    size_t meta = open_box(&b, FOURCC('m', 'e', 't', 'a'));
    put32(&b, 0);
    size_t hdlr = open_box(&b, FOURCC('h', 'd', 'l', 'r'));
    put32(&b, 0);
    put32(&b, 0);
    put32(&b, FOURCC('p', 'i', 'c', 't'));
    for (int i = 0; i < 3; i++) put32(&b, 0);
    put(&b, "", 1);
    close_box(&b, hdlr);
    size_t pitm = open_box(&b, FOURCC('p', 'i', 't', 'm'));
    put32(&b, 0);
    put16(&b, 1);
    close_box(&b, pitm);
    /* iloc version 0: offsets and lengths of 4 bytes, no base offset; the offsets are filled in below. */
    size_t iloc = open_box(&b, FOURCC('i', 'l', 'o', 'c'));
    put32(&b, 0);
    put16(&b, 0x4400);
    put16(&b, (uint16_t)(have_alpha ? 2 : 1));
    size_t offsets[2];
    for (int i = 0; i < (have_alpha ? 2 : 1); i++) {
        put16(&b, (uint16_t)(i + 1));
        put16(&b, 0);
        put16(&b, 1);
        offsets[i] = b.size;
        put32(&b, 0);
        put32(&b, (uint32_t)(i == 0 ? colour.size : alpha.size));
    }
    close_box(&b, iloc);
    size_t iinf = open_box(&b, FOURCC('i', 'i', 'n', 'f'));
    put32(&b, 0);
    put16(&b, (uint16_t)(have_alpha ? 2 : 1));
    put_item(&b, 1, type, 0);
    if (have_alpha) put_item(&b, 2, type, 1);
    close_box(&b, iinf);
    if (have_alpha) {
        size_t iref = open_box(&b, FOURCC('i', 'r', 'e', 'f'));
        put32(&b, 0);
        size_t auxl = open_box(&b, FOURCC('a', 'u', 'x', 'l'));
        put16(&b, 2);
        put16(&b, 1);
        put16(&b, 1);
        close_box(&b, auxl);
        close_box(&b, iref);
    }
    size_t iprp = open_box(&b, FOURCC('i', 'p', 'r', 'p'));
    size_t ipco = open_box(&b, FOURCC('i', 'p', 'c', 'o'));
    int colour_properties = put_properties(&b, &colour), alpha_properties = 0;
    if (have_alpha) {
        alpha_properties = put_properties(&b, &alpha);
        size_t auxc = open_box(&b, FOURCC('a', 'u', 'x', 'C'));
        put32(&b, 0);
        put(&b, ALPHA_URN, sizeof ALPHA_URN);
        close_box(&b, auxc);
    }
    close_box(&b, ipco);
    size_t ipma = open_box(&b, FOURCC('i', 'p', 'm', 'a'));
    put32(&b, 0);
    put32(&b, have_alpha ? 2 : 1);
    put16(&b, 1);
    uint8_t count = (uint8_t)colour_properties;
    put(&b, &count, 1);
    for (int i = 0; i < colour_properties; i++) {
        uint8_t index = (uint8_t)((i == 0 ? 0x80 : 0) | (i + 1));
        put(&b, &index, 1);
    }
    if (have_alpha) {
        put16(&b, 2);
        count = (uint8_t)(alpha_properties + 1);
        put(&b, &count, 1);
        for (int i = 0; i <= alpha_properties; i++) {
            uint8_t index = (uint8_t)((i == 0 ? 0x80 : 0) | (colour_properties + i + 1));
            put(&b, &index, 1);
        }
    }
    close_box(&b, ipma);
    close_box(&b, iprp);
    close_box(&b, meta);
    size_t mdat = open_box(&b, FOURCC('m', 'd', 'a', 't'));
    size_t colour_at = b.size;
    put(&b, file + colour.offset, (size_t)colour.size);
    size_t alpha_at = b.size;
    if (have_alpha) put(&b, file + alpha.offset, (size_t)alpha.size);
    close_box(&b, mdat);
    if (b.bad || b.size > UINT32_MAX) {
        free(b.data);
        return -1;
    }
    size_t at[2] = {colour_at, alpha_at};
    for (int i = 0; i < (have_alpha ? 2 : 1); i++) {
        uint8_t *p = b.data + offsets[i];
        p[0] = (uint8_t)(at[i] >> 24);
        p[1] = (uint8_t)(at[i] >> 16);
        p[2] = (uint8_t)(at[i] >> 8);
        p[3] = (uint8_t)at[i];
    }
    *out = b.data;
    *out_size = b.size;
    return 0;
}

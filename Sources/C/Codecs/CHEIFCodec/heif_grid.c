#include "heif_grid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A bounded ISO-BMFF reader for the few `meta` boxes that say what a grid costs: `pitm`, `iinf`
 * (item types), `iref` (`dimg`: the grid's tiles), `iprp` (`ipco` properties, `ipma`
 * associations: the tiles' `ispe`), `iloc` and `idat` (the grid descriptor). Every read is checked
 * against the span that holds it; a read past the end yields zeros and marks the reader bad.
 */

#define FOURCC(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))
/* ipco property indexes are 7 or 15 bits: at most this many properties are looked at. */
#define MAX_PROPERTIES 32768u

typedef struct {
    const uint8_t *data;
    size_t size;
} span;

typedef struct {
    span in;
    size_t at;
    int bad;
} reader;

static reader reader_of(span in) { return (reader){.in = in}; }

/* A big-endian unsigned integer of `bytes` (0 to 8) bytes; 0 (and bad) past the end. */
static uint64_t get(reader *r, unsigned bytes) {
    if (bytes > 8 || r->at > r->in.size || r->in.size - r->at < bytes) {
        r->bad = 1;
        r->at = r->in.size;
        return 0;
    }
    uint64_t value = 0;
    for (unsigned i = 0; i < bytes; i++) value = (value << 8) | r->in.data[r->at + i];
    r->at += bytes;
    return value;
}

static void skip(reader *r, size_t bytes) {
    if (r->at > r->in.size || r->in.size - r->at < bytes) {
        r->bad = 1;
        r->at = r->in.size;
    } else {
        r->at += bytes;
    }
}


/* The next box of `r`: its type and body. 0 at the end or on a box longer than what holds it. */
static int next_box(reader *r, uint32_t *type, span *body) {
    if (r->in.size - r->at < 8) return 0;
    size_t start = r->at;
    uint64_t size = get(r, 4);
    *type = (uint32_t)get(r, 4);
    if (size == 1) size = get(r, 8);
    else if (size == 0) size = r->in.size - start;
    size_t header = r->at - start;
    if (r->bad || size < header || size > r->in.size - start) return 0;
    *body = (span){r->in.data + r->at, (size_t)size - header};
    r->at = start + (size_t)size;
    return 1;
}

/* The first child of `parent` of `type` (after `skip_bytes`: 4 for a full box's version and flags). */
static int find_box(span parent, size_t skip_bytes, uint32_t type, span *body) {
    reader r = reader_of(parent);
    skip(&r, skip_bytes);
    uint32_t found;
    while (!r.bad && next_box(&r, &found, body))
        if (found == type) return 1;
    return 0;
}

/* The boxes of `meta` this parser reads. */
typedef struct {
    span pitm, iinf, iref, ipco, ipma, iloc, idat;
    int has_ipma;
} meta_boxes;

static int read_meta(const uint8_t *file, size_t size, meta_boxes *m) {
    span meta, iprp;
    memset(m, 0, sizeof *m);
    if (!find_box((span){file, size}, 0, FOURCC('m', 'e', 't', 'a'), &meta)) return -1;
    if (!find_box(meta, 4, FOURCC('p', 'i', 't', 'm'), &m->pitm)) return -1;
    find_box(meta, 4, FOURCC('i', 'i', 'n', 'f'), &m->iinf);
    find_box(meta, 4, FOURCC('i', 'r', 'e', 'f'), &m->iref);
    find_box(meta, 4, FOURCC('i', 'l', 'o', 'c'), &m->iloc);
    find_box(meta, 4, FOURCC('i', 'd', 'a', 't'), &m->idat);
    if (find_box(meta, 4, FOURCC('i', 'p', 'r', 'p'), &iprp)) {
        find_box(iprp, 0, FOURCC('i', 'p', 'c', 'o'), &m->ipco);
        m->has_ipma = find_box(iprp, 0, FOURCC('i', 'p', 'm', 'a'), &m->ipma);
    }
    return 0;
}

static uint32_t primary_item(span pitm) {
    reader r = reader_of(pitm);
    unsigned version = (unsigned)get(&r, 1);
    skip(&r, 3);
    return (uint32_t)get(&r, version == 0 ? 2 : 4);
}

/* Calls `found` with each item of `iinf`, its type and its `infe` box's body. */
static void each_item(span iinf, void (*found)(void *, uint32_t, uint32_t, span), void *context) {
    reader r = reader_of(iinf);
    unsigned version = (unsigned)get(&r, 1);
    skip(&r, 3 + (version == 0 ? 2 : 4));
    uint32_t type;
    span infe;
    while (!r.bad && next_box(&r, &type, &infe)) {
        if (type != FOURCC('i', 'n', 'f', 'e')) continue;
        reader e = reader_of(infe);
        unsigned infe_version = (unsigned)get(&e, 1);
        skip(&e, 3);
        if (infe_version < 2) continue;
        uint32_t id = (uint32_t)get(&e, infe_version == 2 ? 2 : 4);
        skip(&e, 2);
        uint32_t kind = (uint32_t)get(&e, 4);
        if (!e.bad) found(context, id, kind, infe);
    }
}

typedef struct {
    uint32_t item, type;
} type_query;

static void match_type(void *context, uint32_t id, uint32_t kind, span infe) {
    (void)infe;
    type_query *query = context;
    if (id == query->item && !query->type) query->type = kind;
}

/* The type of `item` from `iinf` (0 when not listed). */
static uint32_t item_type(span iinf, uint32_t item) {
    type_query query = {.item = item};
    each_item(iinf, match_type, &query);
    return query.type;
}

/* One `dimg` reference of the grid, and the size its `ispe` gives. */
typedef struct {
    uint32_t id;
    uint32_t width, height;
    int sized;
    uint32_t type; /* its item type (iinf) */
    uint64_t data; /* where its data starts (iloc, plus 1; 0 when not located) */
} tile;

/* The size of an item id in `iref` (its version 0: 16 bits, else 32), read from its header. */
static unsigned iref_id_bytes(reader *r) {
    unsigned version = (unsigned)get(r, 1);
    skip(r, 3);
    return version == 0 ? 2 : 4;
}

/* The next reference of type `kind` from `item` in `iref` (`r` after its header): `*rest` reads
 * the rest of its box, after from_item_ID. Returns 0 when there is none. */
static int next_reference(reader *r, unsigned id_bytes, uint32_t kind, uint32_t item, reader *rest) {
    uint32_t type;
    span body;
    while (!r->bad && next_box(r, &type, &body)) {
        reader b = reader_of(body);
        uint32_t from = (uint32_t)get(&b, id_bytes);
        if (b.bad || type != kind || from != item) continue;
        *rest = b;
        return 1;
    }
    return 0;
}

/* The grid's `dimg` references (malloc'd, `*count` of them), or NULL. */
static tile *grid_tiles(span iref, uint32_t grid, uint32_t *count) {
    reader r = reader_of(iref), b;
    unsigned id_bytes = iref_id_bytes(&r);
    while (next_reference(&r, id_bytes, FOURCC('d', 'i', 'm', 'g'), grid, &b)) {
        uint32_t n = (uint32_t)get(&b, 2);
        if (b.bad) continue;
        if (n == 0 || b.in.size - b.at < (size_t)n * id_bytes) return NULL;
        tile *tiles = calloc(n, sizeof *tiles);
        if (!tiles) return NULL;
        for (uint32_t i = 0; i < n; i++) tiles[i].id = (uint32_t)get(&b, id_bytes);
        *count = n;
        return tiles;
    }
    return NULL;
}

/* Whether `item` has a `pred` reference (HEIF 6.4.10: it is predicted from the items it names). */
static int has_prediction(span iref, uint32_t item) {
    reader r = reader_of(iref), rest;
    unsigned id_bytes = iref_id_bytes(&r);
    return next_reference(&r, id_bytes, FOURCC('p', 'r', 'e', 'd'), item, &rest);
}

/* The size of each of `ipco`'s properties that gives one, by its 1-based index: an `ispe`'s
 * (sizes[SIZE_AT(i)], sizes[SIZE_AT(i) + 1]), an `hvcC`'s coded size (sizes[SIZE_AT(i) + 2], + 3);
 * what else a property says of the image (sizes[SIZE_AT(i) + 4] the kind, + 5 its value), and
 * where its body is (+ 6 its offset in `ipco`, + 7 its length). */
#define SIZE_AT(index) (8 * (size_t)(index))
/* The kinds of sizes[SIZE_AT(i) + 4]. */
enum { KIND_NONE, KIND_MONOCHROME, KIND_OPERATING_POINT, KIND_LAYER, KIND_IROT, KIND_IMIR, KIND_CLAP, KIND_AV1C, KIND_NCLX };

static uint32_t *property_sizes(span ipco, uint32_t *count) {
    uint32_t *sizes = calloc(SIZE_AT(MAX_PROPERTIES), sizeof *sizes);
    if (!sizes) return NULL;
    reader r = reader_of(ipco);
    uint32_t type, n = 0;
    span body;
    while (n < MAX_PROPERTIES - 1 && !r.bad && next_box(&r, &type, &body)) {
        n++;
        uint32_t *size = sizes + SIZE_AT(n);
        size[6] = (uint32_t)(body.data - ipco.data);
        size[7] = (uint32_t)body.size;
        if (type == FOURCC('h', 'v', 'c', 'C')) {
            if (baheif_hvcc_size(body.data, body.size, &size[2], &size[3]) != 0) size[2] = size[3] = 0;
            /* chroma_format_idc 0 (ISO/IEC 14496-15 8.3.3.1.2: the low bits of byte 16) */
            if (body.size > 16 && (body.data[16] & 3) == 0) size[4] = KIND_MONOCHROME;
            continue;
        }
        /* av1C's mono_chrome (AV1-ISOBMFF 2.3.3: bit 4 of byte 2) */
        if (type == FOURCC('a', 'v', '1', 'C')) size[4] = body.size > 2 && (body.data[2] & 0x10) ? KIND_MONOCHROME : KIND_AV1C;
        /* a1op: the operating point to decode (AVIF 2.2.2.4); lsel: the layer to show (HEIF 6.5.11) */
        if (type == FOURCC('a', '1', 'o', 'p') && body.size >= 1) {
            size[4] = KIND_OPERATING_POINT;
            size[5] = body.data[0];
        }
        if (type == FOURCC('i', 'r', 'o', 't') && body.size >= 1) size[4] = KIND_IROT;
        if (type == FOURCC('i', 'm', 'i', 'r') && body.size >= 1) size[4] = KIND_IMIR;
        if (type == FOURCC('c', 'l', 'a', 'p') && body.size >= 32) size[4] = KIND_CLAP;
        if (type == FOURCC('c', 'o', 'l', 'r') && body.size >= 11 && memcmp(body.data, "nclx", 4) == 0) size[4] = KIND_NCLX;
        if (type == FOURCC('l', 's', 'e', 'l') && body.size >= 2) {
            size[4] = KIND_LAYER;
            size[5] = ((uint32_t)body.data[0] << 8) | body.data[1];
        }
        if (type != FOURCC('i', 's', 'p', 'e')) continue;
        reader p = reader_of(body);
        skip(&p, 4);
        uint32_t width = (uint32_t)get(&p, 4), height = (uint32_t)get(&p, 4);
        if (!p.bad) {
            size[0] = width;
            size[1] = height;
        }
    }
    *count = n;
    return sizes;
}

/* Swaps two elements of `size` bytes. */
static void swap_bytes(unsigned char *a, unsigned char *b, size_t size) {
    for (size_t i = 0; i < size; i++) {
        unsigned char t = a[i];
        a[i] = b[i];
        b[i] = t;
    }
}

static void sift_down(unsigned char *base, size_t root, size_t n, size_t size, int (*compare)(const void *, const void *)) {
    for (size_t child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && compare(base + child * size, base + (child + 1) * size) < 0) child++;
        if (compare(base + root * size, base + child * size) >= 0) return;
        swap_bytes(base + root * size, base + child * size, size);
    }
}

/*
 * A heap sort: O(n log n) whatever the input, no allocation, and no system call (glibc's qsort
 * asks the system for its memory size, which the decode sandbox refuses).
 */
static void heap_sort(void *items, size_t n, size_t size, int (*compare)(const void *, const void *)) {
    unsigned char *base = items;
    for (size_t i = n / 2; i-- > 0;) sift_down(base, i, n, size, compare);
    for (size_t end = n; end-- > 1;) {
        swap_bytes(base, base + end * size, size);
        sift_down(base, 0, end, size, compare);
    }
}

static int by_id(const void *a, const void *b) {
    uint32_t x = ((const tile *)a)->id, y = ((const tile *)b)->id;
    return (x > y) - (x < y);
}

/* Gives every tile whose item is `item` at least the size `width` x `height` (the tiles sorted
 * by id): its `ispe` (`sized`), or its coded size, whichever is larger. */
static void size_tiles(tile *tiles, uint32_t count, uint32_t item, uint32_t width, uint32_t height, int sized) {
    if (!tiles || count == 0) return;
    tile key = {.id = item};
    tile *found = bsearch(&key, tiles, count, sizeof *tiles, by_id);
    if (!found) return;
    while (found > tiles && found[-1].id == item) found--;
    for (; found < tiles + count && found->id == item; found++) {
        if (width > found->width) found->width = width;
        if (height > found->height) found->height = height;
        found->sized |= sized;
    }
}

/* Sizes the tiles (sorted by id) from the `ispe` and `hvcC` their `ipma` entries point to, and
 * the primary item (`s`, when not a grid). */
static void read_item_sizes(const uint8_t *file, span ipma, span ipco, tile *tiles, uint32_t count, uint32_t primary,
                            baheif_structure *s) {
    uint32_t properties = 0;
    uint32_t *sizes = property_sizes(ipco, &properties);
    if (!sizes) return;
    reader r = reader_of(ipma);
    unsigned version = (unsigned)get(&r, 1);
    uint32_t flags = (uint32_t)get(&r, 3);
    uint32_t entries = (uint32_t)get(&r, 4);
    for (uint32_t e = 0; e < entries && !r.bad; e++) {
        uint32_t item = (uint32_t)get(&r, version < 1 ? 2 : 4);
        unsigned associations = (unsigned)get(&r, 1);
        for (unsigned a = 0; a < associations && !r.bad; a++) {
            uint32_t index = (flags & 1) ? (uint32_t)get(&r, 2) & 0x7fff : (uint32_t)get(&r, 1) & 0x7f;
            if (r.bad || index == 0 || index > properties) continue;
            const uint32_t *size = sizes + SIZE_AT(index);
            if (size[0]) size_tiles(tiles, count, item, size[0], size[1], 1);
            if (size[2]) size_tiles(tiles, count, item, size[2], size[3], 0);
            if (item != primary) continue;
            const uint8_t *body = ipco.data + size[6];
            if (size[4] == KIND_IROT) s->rotation = body[0] & 3;
            if (size[4] == KIND_IMIR) s->mirror = body[0] & 1;
            if (size[4] == KIND_CLAP) {
                s->has_clap = 1;
                for (int v = 0; v < 8; v++) {
                    const uint8_t *b = body + 4 * v;
                    s->clap[v] = (int32_t)(((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3]);
                }
            }
            if (size[4] == KIND_IROT || size[4] == KIND_IMIR || size[4] == KIND_CLAP) s->transformed = 1;
            if (size[4] == KIND_NCLX && !s->has_nclx) {
                s->has_nclx = 1;
                s->nclx_primaries = (body[4] << 8) | body[5];
                s->nclx_transfer = (body[6] << 8) | body[7];
                s->nclx_matrix = (body[8] << 8) | body[9];
                s->nclx_full = body[10] >> 7;
                s->nclx_offset = (uint64_t)(body - file);
            }
            if (size[4] == KIND_OPERATING_POINT) s->operating_point = (int)size[5];
            if (size[4] == KIND_LAYER && size[5] != 0xffff) s->layer = (int)size[5];
            if (s->is_grid) continue;
            if (size[4] == KIND_MONOCHROME || size[4] == KIND_AV1C) {
                s->av1c_offset = (uint64_t)(ipco.data + size[6] - file);
                s->av1c_size = size[7];
            }
            if (size[0]) {
                s->ispe_width = size[0];
                s->ispe_height = size[1];
            }
            if (size[2]) {
                s->coded_width = size[2];
                s->coded_height = size[3];
            }
            if (size[4] == KIND_MONOCHROME) s->monochrome = 1;
        }
    }
    free(sizes);
}

/* One `iloc` entry: an item and its first extent. */
typedef struct {
    uint32_t id;
    int method;
    uint64_t offset, length;
} location;

typedef struct {
    reader r;
    unsigned version, offset_size, length_size, base_size, index_size;
    uint32_t items, done;
    unsigned extents; /* the last item's */
} iloc_reader;

static iloc_reader iloc_open(span iloc) {
    iloc_reader it = {.r = reader_of(iloc)};
    it.version = (unsigned)get(&it.r, 1);
    skip(&it.r, 3);
    unsigned sizes = (unsigned)get(&it.r, 2);
    it.offset_size = sizes >> 12;
    it.length_size = (sizes >> 8) & 15;
    it.base_size = (sizes >> 4) & 15;
    it.index_size = it.version == 1 || it.version == 2 ? sizes & 15 : 0;
    it.items = (uint32_t)get(&it.r, it.version < 2 ? 2 : 4);
    return it;
}

/* The next item's location; 0 at the end or on a damaged table. */
static int iloc_next(iloc_reader *it, location *out) {
    if (it->done >= it->items || it->r.bad) return 0;
    it->done++;
    reader *r = &it->r;
    out->id = (uint32_t)get(r, it->version < 2 ? 2 : 4);
    out->method = it->version == 1 || it->version == 2 ? (int)(get(r, 2) & 15) : 0;
    skip(r, 2);
    uint64_t base = get(r, it->base_size);
    unsigned extents = (unsigned)get(r, 2);
    it->extents = extents;
    out->offset = out->length = 0;
    for (unsigned x = 0; x < extents && !r->bad; x++) {
        skip(r, it->index_size);
        uint64_t extent_offset = get(r, it->offset_size), extent_length = get(r, it->length_size);
        if (x > 0) continue;
        out->offset = base > UINT64_MAX - extent_offset ? UINT64_MAX : base + extent_offset;
        out->length = extent_length;
    }
    return !r->bad;
}

/* Where `item`'s data starts (its first extent) and how long it is; 0 when not found. */
static int item_location(span iloc, uint32_t item, int *method, uint64_t *offset, uint64_t *length) {
    iloc_reader it = iloc_open(iloc);
    location l;
    while (iloc_next(&it, &l)) {
        if (l.id != item) continue;
        *method = l.method;
        *offset = l.offset;
        *length = l.length;
        return l.offset != UINT64_MAX;
    }
    return 0;
}

typedef struct {
    tile *tiles;
    uint32_t count;
} tile_list;

/* The tiles (sorted by id) of item `id`: the first, and how many; NULL when none. */
static tile *tiles_of(const tile_list *list, uint32_t id, uint32_t *run) {
    if (!list->tiles || list->count == 0) return NULL;
    tile key = {.id = id};
    tile *found = bsearch(&key, list->tiles, list->count, sizeof *list->tiles, by_id);
    if (!found) return NULL;
    while (found > list->tiles && found[-1].id == id) found--;
    *run = 0;
    while (found + *run < list->tiles + list->count && found[*run].id == id) (*run)++;
    return found;
}

static void type_tile(void *context, uint32_t id, uint32_t kind, span infe) {
    (void)infe;
    uint32_t run = 0;
    tile *found = tiles_of(context, id, &run);
    for (uint32_t i = 0; found && i < run; i++) found[i].type = kind;
}

/*
 * The coded size of the AV1 item whose data is at `l` in the file (`file`): its `av1C` may not
 * carry the sequence header, so the data is read (the first extent, the file's own bytes only).
 */
static int av1_coded_size(span file, const location *l, uint32_t *width, uint32_t *height) {
    if (l->method != 0 || l->offset >= file.size) return -1;
    size_t length = file.size - (size_t)l->offset;
    if (l->length && l->length < length) length = (size_t)l->length;
    return baheif_av1_size(file.data + l->offset, length, width, height);
}

/*
 * Where each tile's data starts (tiles sorted by id; idat offsets kept apart from the file's),
 * and an AV1 tile's coded size, read from its data.
 */
static void locate_tiles(span file, span iloc, tile_list *list) {
    iloc_reader it = iloc_open(iloc);
    location l;
    while (iloc_next(&it, &l)) {
        uint32_t run = 0, width = 0, height = 0;
        tile *found = tiles_of(list, l.id, &run);
        if (!found || l.offset >= (UINT64_MAX >> 2)) continue;
        int coded = found->type == FOURCC('a', 'v', '0', '1') && av1_coded_size(file, &l, &width, &height) == 0;
        for (uint32_t i = 0; i < run; i++) {
            found[i].data = ((l.offset + 1) << 2) | (uint64_t)(l.method & 3);
            if (coded && width > found[i].width) found[i].width = width;
            if (coded && height > found[i].height) found[i].height = height;
        }
    }
}

/* The primary AV1 item's coded size, from its data. */
static void primary_av1_size(span file, span iloc, uint32_t primary, baheif_structure *s) {
    iloc_reader it = iloc_open(iloc);
    location l;
    while (iloc_next(&it, &l)) {
        if (l.id != primary) continue;
        uint32_t width = 0, height = 0;
        s->primary_method = l.method;
        s->primary_offset = l.offset;
        s->primary_length = l.length;
        s->primary_extents = it.extents;
        if (av1_coded_size(file, &l, &width, &height) != 0) return;
        s->coded_width = width;
        s->coded_height = height;
        return;
    }
}

static int by_data(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether two different tiles start at the same data (one coded image decoded again and again). */
static int tiles_share_data(const tile *tiles, uint32_t count) {
    uint64_t *starts = malloc((size_t)count * sizeof *starts);
    if (!starts) return 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; i++)
        if (tiles[i].data && (i == 0 || tiles[i].id != tiles[i - 1].id)) starts[n++] = tiles[i].data;
    heap_sort(starts, n, sizeof *starts, by_data);
    int shared = 0;
    for (uint32_t i = 1; i < n && !shared; i++) shared = starts[i] == starts[i - 1];
    free(starts);
    return shared;
}

/* The grid descriptor (ISO/IEC 23008-12 6.6.2.3.2): rows, columns and the output size. */
static void read_descriptor(const uint8_t *file, size_t size, const meta_boxes *m, uint32_t grid,
                            baheif_structure *s) {
    int method = 0;
    uint64_t offset = 0, length = 0;
    if (!item_location(m->iloc, grid, &method, &offset, &length)) return;
    span holder = method == 1 ? m->idat : method == 0 ? (span){file, size} : (span){NULL, 0};
    if (offset > holder.size) return;
    span data = {holder.data + offset, holder.size - (size_t)offset};
    if (length && length < data.size) data.size = (size_t)length;
    reader r = reader_of(data);
    skip(&r, 1);
    unsigned flags = (unsigned)get(&r, 1);
    uint32_t rows = (uint32_t)get(&r, 1) + 1, columns = (uint32_t)get(&r, 1) + 1;
    uint32_t width = (uint32_t)get(&r, (flags & 1) ? 4 : 2), height = (uint32_t)get(&r, (flags & 1) ? 4 : 2);
    if (r.bad) return;
    s->rows = rows;
    s->columns = columns;
    s->output_width = width;
    s->output_height = height;
}

static uint64_t saturating_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* The tiles' sum, their largest size, and whether one repeats or lacks an `ispe` (sorted by id). */
static void sum_tiles(const tile *tiles, uint32_t count, baheif_structure *s) {
    s->tile_count = count;
    for (uint32_t i = 0; i < count; i++) {
        if (i > 0 && tiles[i].id == tiles[i - 1].id) s->repeats_a_tile = 1;
        if (!tiles[i].sized) s->tile_without_size = 1;
        if (tiles[i].width > s->tile_width) s->tile_width = tiles[i].width;
        if (tiles[i].height > s->tile_height) s->tile_height = tiles[i].height;
        s->tile_pixels = saturating_add(s->tile_pixels, (uint64_t)tiles[i].width * tiles[i].height);
    }
}

int baheif_read_structure(const uint8_t *file, size_t size, baheif_structure *structure) {
    meta_boxes m;
    memset(structure, 0, sizeof *structure);
    structure->operating_point = -1;
    structure->layer = -1;
    structure->mirror = -1;
    if (!file || read_meta(file, size, &m) != 0) return -1;
    structure->has_meta = 1;
    uint32_t primary = primary_item(m.pitm), type = item_type(m.iinf, primary);
    structure->is_predicted = has_prediction(m.iref, primary);
    if (type != FOURCC('g', 'r', 'i', 'd') && type != FOURCC('i', 'o', 'v', 'l')) {
        if (m.has_ipma) read_item_sizes(file, m.ipma, m.ipco, NULL, 0, primary, structure);
        if (type == FOURCC('a', 'v', '0', '1')) {
            structure->is_av1 = 1;
            primary_av1_size((span){file, size}, m.iloc, primary, structure);
        }
        return 0;
    }
    structure->is_grid = 1;
    structure->is_overlay = type == FOURCC('i', 'o', 'v', 'l');
    if (!structure->is_overlay) read_descriptor(file, size, &m, primary, structure);
    uint32_t count = 0;
    tile *tiles = grid_tiles(m.iref, primary, &count);
    if (!tiles) return 0;
    heap_sort(tiles, count, sizeof *tiles, by_id);
    tile_list list = {tiles, count};
    each_item(m.iinf, type_tile, &list);
    if (m.has_ipma) read_item_sizes(file, m.ipma, m.ipco, tiles, count, primary, structure);
    if (count <= BAHEIF_MAX_TILES) {
        locate_tiles((span){file, size}, m.iloc, &list);
        structure->tiles_share_data = tiles_share_data(tiles, count);
    }
    sum_tiles(tiles, count, structure);
    for (uint32_t i = 0; i < count; i++)
        if (tiles[i].type == FOURCC('a', 'v', '0', '1')) structure->is_av1 = 1;
    free(tiles);
    return 0;
}

int baheif_grid_is_too_costly(const baheif_structure *s, uint64_t max_pixels, char *reason, size_t size) {
    if (!s->is_grid || s->tile_count == 0) return 0;
    const char *kind = s->is_overlay ? "overlay" : "grid", *tile = s->is_overlay ? "layer" : "tile";
    if (s->repeats_a_tile) {
        snprintf(reason, size, "HEIF %s of %u %ss refers to the same %s more than once", kind, s->tile_count, tile, tile);
        return 1;
    }
    if (s->tile_count > BAHEIF_MAX_TILES) {
        snprintf(reason, size, "HEIF %s of %u %ss has more than %u", kind, s->tile_count, tile, BAHEIF_MAX_TILES);
        return 1;
    }
    if (s->tiles_share_data) {
        snprintf(reason, size, "HEIF %s of %u %ss has %ss that share one coded image", kind, s->tile_count, tile, tile);
        return 1;
    }
    if (s->tile_without_size) {
        snprintf(reason, size, "HEIF %s of %u %ss has a %s without a size (ispe)", kind, s->tile_count, tile, tile);
        return 1;
    }
    /* Covering the output takes at most one more row and column of tiles; so does the pixel limit. */
    uint64_t needed = max_pixels;
    if (s->output_width && s->output_height) {
        uint64_t covering = ((uint64_t)s->output_width + s->tile_width) * ((uint64_t)s->output_height + s->tile_height);
        uint64_t padding = covering - (uint64_t)s->output_width * s->output_height;
        needed = covering < saturating_add(max_pixels, padding) ? covering : saturating_add(max_pixels, padding);
    }
    if (s->tile_pixels <= needed) return 0;
    if (s->is_overlay) {
        snprintf(reason, size, "HEIF overlay of %u layers holds %llu pixels, over the limit of %llu", s->tile_count,
                 (unsigned long long)s->tile_pixels, (unsigned long long)needed);
        return 1;
    }
    snprintf(reason, size,
             "HEIF grid of %u tiles of up to %ux%u holds %llu pixels, more than the %llu its %ux%u image needs",
             s->tile_count, s->tile_width, s->tile_height, (unsigned long long)s->tile_pixels,
             (unsigned long long)needed, s->output_width, s->output_height);
    return 1;
}

static int by_value(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The file and the grid's tile ids (sorted), for unhide_tile. */
typedef struct {
    uint8_t *file;
    const uint32_t *sorted;
    uint32_t count;
} tile_unhiding;

/* A tile's `infe` (version 2 or 3, read by each_item): its flags' lowest bit (hidden) cleared, in place. */
static void unhide_tile(void *context, uint32_t id, uint32_t kind, span infe) {
    (void)kind;
    tile_unhiding *u = context;
    if (bsearch(&id, u->sorted, u->count, sizeof *u->sorted, by_value)) u->file[(size_t)(infe.data - u->file) + 3] &= 0xfe;
}

int baheif_show_grid_tiles(uint8_t *file, size_t size, uint32_t **ids, uint32_t *count) {
    meta_boxes m;
    *ids = NULL;
    *count = 0;
    if (read_meta(file, size, &m) != 0) return -1;
    uint32_t n = 0;
    tile *tiles = grid_tiles(m.iref, primary_item(m.pitm), &n);
    if (!tiles) return -1;
    uint32_t *list = malloc((size_t)n * sizeof *list), *sorted = malloc((size_t)n * sizeof *sorted);
    if (!list || !sorted) {
        free(tiles);
        free(list);
        free(sorted);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) list[i] = sorted[i] = tiles[i].id;
    free(tiles);
    heap_sort(sorted, n, sizeof *sorted, by_value);
    tile_unhiding unhiding = {.file = file, .sorted = sorted, .count = n};
    each_item(m.iinf, unhide_tile, &unhiding);
    free(sorted);
    *ids = list;
    *count = n;
    return 0;
}

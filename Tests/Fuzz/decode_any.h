#ifndef BABYALBUM_FUZZ_DECODE_ANY_H
#define BABYALBUM_FUZZ_DECODE_ANY_H
/*
 * One fuzz input through BabyAlbum's decoders, as the frame would meet it: the file's first
 * bytes pick PNG (libpng through CPNGCodec), JPEG (CJPEGCodec) or WebP (CWebPCodec), or HEIF (an ISO-BMFF
 * `ftyp`: libheif through CHEIFCodec, in process); the header is read, then
 * the photo is decoded to two small targets (fill, and fit through the order-free path).
 * Errors are expected; only a sanitizer report or a crash is a failure.
 */
#include <stddef.h>

/** Which decoder `decode_any_file` used. */
typedef enum { FORMAT_PNG, FORMAT_JPEG, FORMAT_WEBP, FORMAT_HEIF, FORMAT_OTHER } fuzz_format;

/** Decodes the file at `path` (its first bytes `head`, `head_length` of them) every way. */
fuzz_format decode_any_file(const char *path, const unsigned char *head, size_t head_length);

#endif

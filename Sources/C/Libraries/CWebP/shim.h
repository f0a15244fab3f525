/* libwebp and its demuxer, as found by pkg-config (Debian: libwebp-dev). */
#include <webp/decode.h>
#include <webp/demux.h>

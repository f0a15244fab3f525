/* libpng, as found by pkg-config (Debian: libpng-dev). */
#include <png.h>

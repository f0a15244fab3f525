/* FreeType 2, as found by pkg-config (Debian: libfreetype-dev). */
#include <ft2build.h>
#include FT_FREETYPE_H

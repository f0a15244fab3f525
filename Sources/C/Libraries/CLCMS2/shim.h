/* Little CMS 2 (lcms2), as found by pkg-config (Debian: liblcms2-dev). */
#include <lcms2.h>

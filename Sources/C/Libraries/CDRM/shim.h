/* libdrm, as found by pkg-config (Debian: libdrm-dev). */
#include <xf86drm.h>
#include <xf86drmMode.h>

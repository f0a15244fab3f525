/* libjpeg-turbo's libjpeg API, as found by pkg-config (Debian: libjpeg62-turbo-dev). */
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>

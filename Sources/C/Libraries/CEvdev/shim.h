/* libevdev, as found by pkg-config (Debian: libevdev-dev). */
#include <libevdev/libevdev.h>

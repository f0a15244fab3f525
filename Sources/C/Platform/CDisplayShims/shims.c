#include "CDisplayShims.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kd.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

const unsigned long CDisplayShims_DRM_IOCTL_MODE_CREATE_DUMB = DRM_IOCTL_MODE_CREATE_DUMB;
const unsigned long CDisplayShims_DRM_IOCTL_MODE_MAP_DUMB = DRM_IOCTL_MODE_MAP_DUMB;
const unsigned long CDisplayShims_DRM_IOCTL_MODE_DESTROY_DUMB = DRM_IOCTL_MODE_DESTROY_DUMB;
const uint32_t CDisplayShims_DRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
const uint32_t CDisplayShims_DRM_MODE_PAGE_FLIP_EVENT = DRM_MODE_PAGE_FLIP_EVENT;
const uint32_t CDisplayShims_DRM_MODE_TYPE_PREFERRED = DRM_MODE_TYPE_PREFERRED;
const uint32_t CDisplayShims_DRM_MODE_TYPE_USERDEF = DRM_MODE_TYPE_USERDEF;
const uint32_t CDisplayShims_DRM_MODE_FLAG_INTERLACE = DRM_MODE_FLAG_INTERLACE;
const uint64_t CDisplayShims_DRM_MODE_DPMS_ON = DRM_MODE_DPMS_ON;
const uint64_t CDisplayShims_DRM_MODE_DPMS_OFF = DRM_MODE_DPMS_OFF;
const int CDisplayShims_DRM_EVENT_CONTEXT_VERSION = 2; /* page_flip_handler is enough */

const unsigned long CDisplayShims_KDSETMODE = KDSETMODE;
const unsigned long CDisplayShims_KDGETMODE = KDGETMODE;
const int CDisplayShims_KD_TEXT = KD_TEXT;
const int CDisplayShims_KD_GRAPHICS = KD_GRAPHICS;

/* The Swift side relies on these layouts and values. */
_Static_assert(DRM_FORMAT_XRGB8888 == 0x34325258, "XRGB8888 fourcc");
_Static_assert(sizeof(struct drm_mode_create_dumb) == 32, "drm_mode_create_dumb layout");
_Static_assert(sizeof(struct drm_mode_map_dumb) == 16, "drm_mode_map_dumb layout");
_Static_assert(sizeof(struct drm_mode_destroy_dumb) == 4, "drm_mode_destroy_dumb layout");
_Static_assert(DRM_MODE_DPMS_OFF == 3 && DRM_MODE_DPMS_ON == 0, "DPMS values");
_Static_assert(KD_TEXT == 0 && KD_GRAPHICS == 1, "console modes");
_Static_assert(DRM_EVENT_CONTEXT_VERSION >= 2, "libdrm event context too old");

int CDisplayShims_kd_get_mode(int fd, int *mode) {
    return ioctl(fd, KDGETMODE, mode); /* the kernel stores an int */
}

int CDisplayShims_kd_set_mode(int fd, int mode) { return ioctl(fd, KDSETMODE, (unsigned long)mode); }

static atomic_int restore_tty_fd = -1;
static atomic_int handlers_installed = 0;

static void restore_text_mode(void) {
    int fd = atomic_exchange(&restore_tty_fd, -1);
    if (fd >= 0) ioctl(fd, KDSETMODE, KD_TEXT);
}

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE};
static struct sigaction previous_actions[sizeof fatal_signals / sizeof fatal_signals[0]];

static void on_fatal_signal(int sig) {
    int saved = errno;
    restore_text_mode();
    /* Put back whatever handled the signal before (the default action, or the Swift runtime's
     * backtracer) and re-raise, so the process reports as it would have. */
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        if (fatal_signals[i] == sig) sigaction(sig, &previous_actions[i], NULL);
    }
    errno = saved;
    raise(sig);
    /* The backtracer returns for a signal another process sent (kill -ABRT): the process must
     * still die, or it goes on showing photos. The default action ends it. */
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(sig, &default_action, NULL);
    raise(sig);
    _exit(128 + sig);
}

void CDisplayShims_arm_console_restore(int tty_fd) {
    atomic_store(&restore_tty_fd, tty_fd);
    if (tty_fd < 0 || atomic_exchange(&handlers_installed, 1)) return;
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_fatal_signal;
        action.sa_flags = SA_NODEFER;
        sigemptyset(&action.sa_mask);
        sigaction(fatal_signals[i], &action, &previous_actions[i]);
    }
    atexit(restore_text_mode);
}

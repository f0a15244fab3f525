#include "CPhotoCodecCore.h"

baphoto_scale_mode baphoto_auto_scale(uint32_t photo_width, uint32_t photo_height, int orientation,
                                      uint32_t screen_width, uint32_t screen_height, double crop_limit) {
    if (!photo_width || !photo_height || !screen_width || !screen_height) return BAPHOTO_SCALE_FILL;
    int transposed = orientation >= 5; /* EXIF orientations 5 to 8 swap width and height */
    double upright_width = transposed ? photo_height : photo_width;
    double upright_height = transposed ? photo_width : photo_height;
    double photo = upright_width / upright_height, screen = (double)screen_width / screen_height;
    double crop = 1 - (photo < screen ? photo : screen) / (photo > screen ? photo : screen);
    return crop <= crop_limit ? BAPHOTO_SCALE_FILL : BAPHOTO_SCALE_FIT;
}

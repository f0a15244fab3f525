#ifndef BAPHOTO_ORIENTATION_H
#define BAPHOTO_ORIENTATION_H
/*
 * A photo's EXIF orientation (1 to 8: how its stored pixels turn upright) combined with how the
 * screen is mounted (quarter turns clockwise: 1 is the kernel's "Left Side Up", 3 "Right Side
 * Up"). The result is again one of the 8 orientations, now from the stored pixels to the
 * panel's own pixels, so the codecs' single turning step does both at once.
 */

/** The orientation that takes the stored pixels straight to the panel. */
static inline int ba_orientation_on_panel(int exif_orientation, int quarter_turns) {
    static const int table[8][4] = {
        {1, 8, 3, 6}, {2, 5, 4, 7}, {3, 6, 1, 8}, {4, 7, 2, 5},
        {5, 4, 7, 2}, {6, 1, 8, 3}, {7, 2, 5, 4}, {8, 3, 6, 1},
    };
    int orientation = exif_orientation >= 1 && exif_orientation <= 8 ? exif_orientation : 1;
    int turns = ((quarter_turns % 4) + 4) % 4;
    return table[orientation - 1][turns];
}

#endif

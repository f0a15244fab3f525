#ifndef C_CAPTION_H
#define C_CAPTION_H
/*
 * BabyAlbum's captions: a line of text drawn with FreeType (anti-aliased) into a frame of
 * XRGB8888 pixels, over a translucent dark band with a soft shadow, legible on a white sky and
 * on a black night.
 *
 * Why this is C: FreeType's API is C structs and macros. The caption is laid out in a buffer
 * the size of the text alone (a few tens of KB), then blended into the frame in place: no
 * second full-frame buffer.
 */
#include <stdint.h>

#define BACAPTION_ERROR_MESSAGE_SIZE 256

/** An open font (a FreeType library and face); one thread at a time. */
typedef struct bacaption_font bacaption_font;

/** Opens the font file at `path`; NULL with the reason in `error`. */
bacaption_font *bacaption_font_open(const char *path, char error[BACAPTION_ERROR_MESSAGE_SIZE]);

/** Closes `font` (NULL is fine). */
void bacaption_font_close(bacaption_font *font);

/** Where and how big a caption is drawn. */
typedef struct {
    /** The frame, `width * height` pixels as the panel holds them (already turned for the screen). */
    uint32_t *pixels;
    uint32_t width;
    uint32_t height;
    /**
     * How the screen is mounted, in quarter turns clockwise (0 to 3): the caption is drawn upright
     * for the viewer, in the bottom-right corner of the screen as the viewer sees it.
     */
    int quarter_turns;
    /** The text's size in pixels (its em); shrunk when the line would not fit the screen's width. */
    uint32_t pixel_size;
    /** Where the line goes on the screen as the viewer sees it: BACAPTION_BOTTOM_RIGHT or BACAPTION_TOP_LEFT. */
    int corner;
} bacaption_target;

/** A photo's caption: the bottom-right corner. */
#define BACAPTION_BOTTOM_RIGHT 0
/** A notice of the frame's (the clock is not set): the top-left corner, clear of the caption. */
#define BACAPTION_TOP_LEFT 1

/**
 * Draws the UTF-8 `text` into `target`. Returns 0, or -1 with the reason in `error` (a glyph
 * missing from the font is left out, never an error).
 */
int bacaption_draw(bacaption_font *font, const char *text, const bacaption_target *target,
                   char error[BACAPTION_ERROR_MESSAGE_SIZE]);

#endif

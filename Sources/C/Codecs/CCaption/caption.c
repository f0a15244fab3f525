#include "CCaption.h"

#include <ft2build.h>
#include FT_FREETYPE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bacaption_font {
    FT_Library library;
    FT_Face face;
};

bacaption_font *bacaption_font_open(const char *path, char error[BACAPTION_ERROR_MESSAGE_SIZE]) {
    bacaption_font *font = calloc(1, sizeof *font);
    if (!font) {
        snprintf(error, BACAPTION_ERROR_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    FT_Error status = FT_Init_FreeType(&font->library);
    if (status == 0) status = FT_New_Face(font->library, path, 0, &font->face);
    if (status != 0) {
        const char *reason = FT_Error_String(status);
        snprintf(error, BACAPTION_ERROR_MESSAGE_SIZE, "cannot open the font %s: %s (FreeType error %d)", path,
                 reason ? reason : "not a font FreeType reads", status);
        bacaption_font_close(font);
        return NULL;
    }
    return font;
}

void bacaption_font_close(bacaption_font *font) {
    if (!font) return;
    if (font->face) FT_Done_Face(font->face);
    if (font->library) FT_Done_FreeType(font->library);
    free(font);
}

/* The next code point of UTF-8 `*text` (U+FFFD for a malformed sequence); advances `*text`. */
static uint32_t next_code_point(const unsigned char **text) {
    const unsigned char *p = *text;
    uint32_t c = *p++;
    int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    if (c >= 0x80 && more == 0) c = 0xFFFD;
    if (more) c &= 0x3F >> more;
    for (; more > 0; more--) {
        if ((*p & 0xC0) != 0x80) {
            *text = p;
            return 0xFFFD;
        }
        c = c << 6 | (*p++ & 0x3F);
    }
    *text = p;
    return c;
}

/* The text's advance width at the face's current size, in pixels. */
static long measure(FT_Face face, const char *text) {
    long pen = 0;
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        FT_UInt glyph = FT_Get_Char_Index(face, next_code_point(&p));
        if (FT_Load_Glyph(face, glyph, FT_LOAD_DEFAULT) == 0) pen += face->glyph->advance.x;
    }
    return (pen + 63) >> 6;
}

/* The caption's coverage: one byte a pixel, `width * height`, the text on its baseline. */
typedef struct {
    uint8_t *coverage;
    int width, height;
    int baseline;
} text_box;

static void draw_glyph(text_box *box, const FT_Bitmap *bitmap, int left, int top) {
    for (unsigned row = 0; row < bitmap->rows; row++) {
        int y = top + (int)row;
        if (y < 0 || y >= box->height) continue;
        const uint8_t *source = bitmap->buffer + (long)row * bitmap->pitch;
        for (unsigned column = 0; column < bitmap->width; column++) {
            int x = left + (int)column;
            if (x < 0 || x >= box->width) continue;
            uint8_t *to = box->coverage + (size_t)y * box->width + x;
            if (source[column] > *to) *to = source[column];
        }
    }
}

/* Renders `text` (anti-aliased) into a box with `pad` pixels around it. */
static int render_text(FT_Face face, const char *text, int pad, text_box *box) {
    int ascender = (int)(face->size->metrics.ascender >> 6), descender = (int)(-face->size->metrics.descender >> 6);
    box->width = (int)measure(face, text) + 2 * pad;
    box->height = ascender + descender + 2 * pad;
    box->baseline = pad + ascender;
    box->coverage = calloc((size_t)box->width * box->height, 1);
    if (!box->coverage) return -1;
    long pen = (long)pad << 6;
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        FT_UInt glyph = FT_Get_Char_Index(face, next_code_point(&p));
        if (FT_Load_Glyph(face, glyph, FT_LOAD_RENDER) != 0) continue;
        FT_GlyphSlot slot = face->glyph;
        draw_glyph(box, &slot->bitmap, (int)(pen >> 6) + slot->bitmap_left, box->baseline - slot->bitmap_top);
        pen += slot->advance.x;
    }
    return 0;
}

/* The panel pixel that the viewer's upright pixel (x, y) falls on, for a screen turned `turns`. */
static size_t panel_index(const bacaption_target *target, int x, int y) {
    uint32_t w = target->width, h = target->height;
    switch (target->quarter_turns & 3) {
    case 1: return (size_t)(h - 1 - (uint32_t)x) * w + (uint32_t)y;
    case 2: return (size_t)(h - 1 - (uint32_t)y) * w + (w - 1 - (uint32_t)x);
    case 3: return (size_t)x * w + (w - 1 - (uint32_t)y);
    default: return (size_t)y * w + (uint32_t)x;
    }
}

/* `pixel` mixed towards `to` (0 black or 255 white) by `amount` / 255, per channel. */
static uint32_t mix(uint32_t pixel, uint32_t to, uint32_t amount) {
    uint32_t result = 0;
    for (int shift = 0; shift <= 16; shift += 8) {
        uint32_t channel = (pixel >> shift) & 0xFF;
        channel = (channel * (255 - amount) + to * amount + 127) / 255;
        result |= channel << shift;
    }
    return result;
}

/* The band darkens what is behind it to a third; the shadow is the text, offset and darker still. */
enum { BAND_DARKENING = 170, SHADOW_STRENGTH = 160 };

static uint32_t caption_pixel(const text_box *box, int x, int y, int shadow, uint32_t behind) {
    uint32_t pixel = mix(behind, 0, BAND_DARKENING);
    int sx = x - shadow, sy = y - shadow;
    if (sx >= 0 && sy >= 0) pixel = mix(pixel, 0, box->coverage[(size_t)sy * box->width + sx] * SHADOW_STRENGTH / 255);
    return mix(pixel, 255, box->coverage[(size_t)y * box->width + x]);
}

int bacaption_draw(bacaption_font *font, const char *text, const bacaption_target *target,
                   char error[BACAPTION_ERROR_MESSAGE_SIZE]) {
    int turned = target->quarter_turns & 1;
    int screen_width = (int)(turned ? target->height : target->width);
    int screen_height = (int)(turned ? target->width : target->height);
    uint32_t size = target->pixel_size < 6 ? 6 : target->pixel_size;
    if (FT_Set_Pixel_Sizes(font->face, 0, size) != 0) {
        snprintf(error, BACAPTION_ERROR_MESSAGE_SIZE, "the font has no %u pixel size", size);
        return -1;
    }
    long width = measure(font->face, text), room = screen_width * 9L / 10;
    if (width > room && width > 0) {
        size = (uint32_t)(size * room / width);
        if (size < 6 || FT_Set_Pixel_Sizes(font->face, 0, size) != 0) return 0; /* no room: no caption */
    }
    int pad = (int)size * 3 / 10, margin = (int)size / 2, shadow = (int)size / 20 + 1;
    text_box box = {0};
    if (render_text(font->face, text, pad, &box) != 0) {
        snprintf(error, BACAPTION_ERROR_MESSAGE_SIZE, "out of memory");
        return -1;
    }
    int left = screen_width - margin - box.width, top = screen_height - margin - box.height;
    if (target->corner == BACAPTION_TOP_LEFT) left = top = margin;
    for (int y = 0; y < box.height; y++) {
        if (top + y < 0 || top + y >= screen_height) continue;
        for (int x = 0; x < box.width; x++) {
            if (left + x < 0 || left + x >= screen_width) continue;
            uint32_t *pixel = target->pixels + panel_index(target, left + x, top + y);
            *pixel = caption_pixel(&box, x, y, shadow, *pixel);
        }
    }
    free(box.coverage);
    return 0;
}

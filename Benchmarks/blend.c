/* The crossfade's cost: blending two 1920x1080 frames into a third, row by row, against a plain
 * copy of one frame, in the same run; and the memory-traffic floor of any blend, a loop that reads
 * two frames and writes one with no arithmetic (out = from | to).
 * Built by scripts/bench with the product's own blend.c:
 *   cc -O2 -I Sources/C/Platform/CFrameBlend/include Benchmarks/blend.c Sources/C/Platform/CFrameBlend/blend.c */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "CFrameBlend.h"

enum { WIDTH = 1920, HEIGHT = 1080, RUNS = 101 };

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Reads two rows, writes one, no arithmetic: what the blend would cost if its multiplies were free. */
static void traffic_row(uint32_t *restrict out, const uint32_t *restrict a, const uint32_t *restrict b, size_t count) {
    for (size_t i = 0; i < count; i++) out[i] = a[i] | b[i];
}

static double median(double *values, int count) {
    qsort(values, count, sizeof *values, compare);
    return values[count / 2];
}

int main(void) {
    size_t pixels = (size_t)WIDTH * HEIGHT;
    uint32_t *from = malloc(pixels * 4), *to = malloc(pixels * 4), *out = malloc(pixels * 4);
    if (!from || !to || !out) return 1;
    for (size_t i = 0; i < pixels; i++) {
        from[i] = (uint32_t)(i * 2654435761u) & 0xFFFFFF;
        to[i] = (uint32_t)(i * 40503u + 77) & 0xFFFFFF;
    }
    double copy[RUNS], blend[RUNS], traffic[RUNS];
    uint32_t check = 0;
    for (int run = 0; run < RUNS; run++) {
        double start = now_ms();
        for (int y = 0; y < HEIGHT; y++) memcpy(out + (size_t)y * WIDTH, to + (size_t)y * WIDTH, WIDTH * 4);
        copy[run] = now_ms() - start;
        check += out[run];
        start = now_ms();
        uint32_t weight = (uint32_t)(run * FRAME_BLEND_WEIGHT_MAX / (RUNS - 1));
        for (int y = 0; y < HEIGHT; y++) {
            frame_blend_row(out + (size_t)y * WIDTH, from + (size_t)y * WIDTH, to + (size_t)y * WIDTH, WIDTH, weight);
        }
        blend[run] = now_ms() - start;
        check += out[run];
        start = now_ms();
        for (int y = 0; y < HEIGHT; y++) {
            traffic_row(out + (size_t)y * WIDTH, from + (size_t)y * WIDTH, to + (size_t)y * WIDTH, WIDTH);
        }
        traffic[run] = now_ms() - start;
        check += out[run];
    }
    double copy_ms = median(copy, RUNS), blend_ms = median(blend, RUNS), traffic_ms = median(traffic, RUNS);
    printf("copy one 1920x1080 frame: %.3f ms\n", copy_ms);
    printf("blend two frames into one: %.3f ms (%.2fx the copy; %.0f fades frames/s possible)\n", blend_ms,
           blend_ms / copy_ms, 1000.0 / blend_ms);
    printf("read two frames and write one, no arithmetic (the traffic floor): %.3f ms (%.2fx the copy)\n", traffic_ms,
           traffic_ms / copy_ms);
    fprintf(stderr, "(checksum %u)\n", check);
    return 0;
}

/*
 * Baseline for BabyAlbum's benchmarks: decode a PNG with libpng's simplified API to BGRA, and
 * nothing else (no scaling). Prints the median wall time of RUNS decodes in milliseconds.
 *
 *   cc -O2 -o libpng-simplified libpng-simplified.c $(pkg-config --cflags --libs libpng)
 *   ./libpng-simplified photo.png 5
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s PNG RUNS\n", argv[0]);
        return 64;
    }
    int runs = atoi(argv[2]);
    double *times = calloc(runs, sizeof *times);
    for (int run = 0; run < runs; run++) {
        double start = now_ms();
        png_image image;
        memset(&image, 0, sizeof image);
        image.version = PNG_IMAGE_VERSION;
        if (!png_image_begin_read_from_file(&image, argv[1])) {
            fprintf(stderr, "%s\n", image.message);
            return 1;
        }
        image.format = PNG_FORMAT_BGRA;
        png_bytep buffer = malloc(PNG_IMAGE_SIZE(image));
        if (!buffer || !png_image_finish_read(&image, NULL, buffer, 0, NULL)) {
            fprintf(stderr, "%s\n", image.message);
            return 1;
        }
        free(buffer);
        times[run] = now_ms() - start;
    }
    qsort(times, runs, sizeof *times, compare);
    printf("%.3f\n", times[runs / 2]);
    return 0;
}

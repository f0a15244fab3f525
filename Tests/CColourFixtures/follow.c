#define _GNU_SOURCE
#include "CColourFixtures.h"

#include <CColour.h>
#include <sched.h>

int bacolour_fixture_follow(const struct bacolour_rows *rows, uint32_t *pixels, uint32_t width, uint32_t height,
                            int one_cpu) {
    cpu_set_t before, one;
    if (sched_getaffinity(0, sizeof before, &before) != 0) return -1;
    if (one_cpu) {
        CPU_ZERO(&one);
        for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
            if (CPU_ISSET(cpu, &before)) {
                CPU_SET(cpu, &one);
                break;
            }
        }
        if (sched_setaffinity(0, sizeof one, &one) != 0) return -1;
    }
    bacolour_follower *follower = bacolour_follower_start(rows, pixels, width, width);
    if (follower) {
        for (uint32_t y = 0; y < height; y++) bacolour_follower_row_done(follower);
        bacolour_follower_finish(follower);
    }
    if (one_cpu) sched_setaffinity(0, sizeof before, &before);
    return follower ? 0 : -1;
}

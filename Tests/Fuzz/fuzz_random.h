#ifndef FUZZ_RANDOM_H
#define FUZZ_RANDOM_H
/* The fuzz jobs' one pseudo-random sequence (SplitMix64), seeded by setting rng_state (--seed). */
#include <stdint.h>

static uint64_t rng_state;

static inline uint64_t next_random(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#endif

/* spec_rng.c — the documented random generator behind a spec's "random" initialiser
 * (spec.h gl_random_fill): splitmix64, identical on every back end. */
#include "runtime/spec_internal.h"

#include <string.h>

/* splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014; the constants of Vigna's splitmix64.c). Per output, with 64-bit
 * wrapping arithmetic:
 *     state += 0x9E3779B97F4A7C15;
 *     z = state;
 *     z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
 *     z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
 *     return z ^ (z >> 31);
 * The state starts at the seed, so seed 0 gives 0xE220A8397B1DCDAF first. One output r
 * per element, in order:
 *   integers: min + (r % (max - min + 1)) in 64-bit wrapping arithmetic (r itself when
 *             the range is all 2^64 values), then the low bits of the type;
 *   f32:      u = (r >> 40) * 2^-24, value = (float)(min + (max - min) * u);
 *   f64:      u = (r >> 11) * 2^-53, value = min + (max - min) * u;
 * with min + (max - min) * u computed in double, so u is in [0, 1) but rounding may give
 * max itself. min/max use .i for signed types, .u for unsigned ones, .f for floats. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

void gl_random_fill(void *dst, gl_type t, size_t len, uint64_t seed, gl_value min, gl_value max)
{
    uint64_t state = seed;
    const double span = max.f - min.f;
    unsigned char *p = dst;
    if (t == GL_F32) { /* one loop per type, each element stored in place */
        for (size_t i = 0; i < len; i++) {
            const double u = (double)(splitmix64(&state) >> 40) * 0x1p-24;
            const float x = (float)(min.f + span * u);
            memcpy(p + 4 * i, &x, 4);
        }
        return;
    }
    if (t == GL_F64) {
        for (size_t i = 0; i < len; i++) {
            const double u = (double)(splitmix64(&state) >> 11) * 0x1p-53;
            const double x = min.f + span * u;
            memcpy(p + 8 * i, &x, 8);
        }
        return;
    }
    /* For signed types .i and .u share their bits: the same wrapping arithmetic works. */
    uint64_t range = max.u - min.u;
    for (size_t i = 0; i < len; i++) {
        uint64_t r = splitmix64(&state);
        uint64_t off = range == UINT64_MAX ? r : r % (range + 1);
        spec_store_bits(dst, t, i, min.u + off);
    }
}

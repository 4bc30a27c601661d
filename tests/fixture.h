/* fixture.h — helpers shared by the Check programs that run the simulator on the PTX
 * fixtures in tests/fixtures/ptx/ (made by tools/gen_ptx_fixtures.sh). Tests run from
 * the repository root. static inline: each program uses the ones it needs. */
#ifndef GL_TESTS_FIXTURE_H
#define GL_TESTS_FIXTURE_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"

/* The compilers every kernel has a fixture from: NAME.nvcc.ptx and NAME.clang.ptx. */
static const char *const fixture_compilers[] = {"nvcc", "clang"};

/* A whole file, NUL-terminated (*len bytes before the NUL), or NULL. Caller frees. */
static inline char *fixture_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        buf[n] = 0;
    *len = buf ? (size_t)n : 0;
    return buf;
}

/* Parses tests/fixtures/ptx/NAME.<fixture_compilers[ci]>.ptx; fails the test on errors.
 * Caller frees with ptx_module_free. */
static inline ptx_module_t *fixture_load(const char *name, int ci)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/ptx/%s.%s.ptx", name, fixture_compilers[ci]);
    size_t len;
    char *text = fixture_read(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s (run tests from the repo root)", path);
    ptx_module_t *m = NULL;
    char *diag = NULL;
    sim_status st = ptx_parse(text, len, path, &m, &diag);
    ck_assert_msg(st == SIM_OK, "parse of %s failed:\n%s", path, diag ? diag : "");
    free(text);
    free(diag);
    return m;
}

/* A simulated global allocation of `bytes` labelled `label`, filled from data (or zero
 * when data is NULL); fails the test on errors. */
static inline uint64_t fixture_upload(sim_t *s, const void *data, size_t bytes, const char *label)
{
    uint64_t d = 0;
    ck_assert_int_eq(sim_malloc(s, bytes, label, &d), SIM_OK);
    if (data)
        ck_assert_int_eq(sim_memcpy_htod(s, d, data, bytes), SIM_OK);
    return d;
}

#endif

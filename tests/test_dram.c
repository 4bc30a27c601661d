/* test_dram.c — the DRAM model (trace/dram.h): requests in, bytes read from and written
 * to DRAM out, first as a table of request sequences, then on kernels of
 * tests/kernels/dram/reread.cu run by the simulator on each device profile's L2, whose
 * metrics (dram__bytes_read.sum, dram__bytes_write.sum) stream over every event. */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/backend.h"
#include "runtime/spec.h"
#include "trace/analysis.h"
#include "trace/dram.h"
#include "trace/trace.h"
#include "tests/temp_cache.h"

/* One warp request in a table row: op, the address of lane 0, the stride between lanes
 * (bytes), the active lanes and the bytes per lane. */
typedef struct req {
    int op;
    uint64_t base, stride;
    uint32_t mask;
    unsigned width;
} req;

enum { LD = TRACE_LOAD, ST = TRACE_STORE, AT = TRACE_ATOMIC };

/* Runs n requests on an L2 of l2 bytes; the DRAM bytes read and written. */
static void play(uint64_t l2, const req *r, int n, uint64_t *read, uint64_t *written)
{
    gl_dram *d = gl_dram_new(l2);
    ck_assert_ptr_nonnull(d);
    *read = *written = 0;
    for (int i = 0; i < n; i++) {
        uint64_t addrs[32];
        for (int l = 0; l < 32; l++)
            addrs[l] = r[i].base + (uint64_t)l * r[i].stride;
        gl_dram_access(d, r[i].op, addrs, r[i].mask, r[i].width, read, written);
    }
    ck_assert_int_eq(gl_dram_nomem(d), 0);
    gl_dram_free(d);
}

START_TEST(test_the_model_counts_first_touches_evictions_and_dirty_sectors)
{
    static const struct {
        const char *what;
        uint64_t l2;
        req r[4];
        int n;
        uint64_t read, written;
    } rows[] = {
        {"a coalesced f32 load: 4 sectors read", 1 << 20, {{LD, 0x1000, 4, ~0u, 4}}, 1, 128, 0},
        {"the same load again: L2 hits",
         1 << 20,
         {{LD, 0x1000, 4, ~0u, 4}, {LD, 0x1000, 4, ~0u, 4}},
         2,
         128,
         0},
        {"a stride of 32 floats: 32 sectors", 1 << 20, {{LD, 0, 128, ~0u, 4}}, 1, 1024, 0},
        {"one lane: one sector", 1 << 20, {{LD, 0x40, 4, 1u, 4}}, 1, 32, 0},
        {"a float4 straddling sectors: 2", 1 << 20, {{LD, 0x18, 0, 1u, 16}}, 1, 64, 0},
        {"a store: no read, 4 dirty sectors written back",
         1 << 20,
         {{ST, 0, 4, ~0u, 4}},
         1,
         0,
         128},
        {"stored twice while resident: written back once",
         1 << 20,
         {{ST, 0, 4, ~0u, 4}, {ST, 0, 4, ~0u, 4}},
         2,
         0,
         128},
        {"loaded after its store: a hit",
         1 << 20,
         {{ST, 0, 4, ~0u, 4}, {LD, 0, 4, ~0u, 4}},
         2,
         0,
         128},
        {"an atomic: read and made dirty", 1 << 20, {{AT, 0, 0, ~0u, 4}}, 1, 32, 32},
        /* an L2 of 4 sectors: 8 sectors streamed, then the first 4 again are gone */
        {"evicted, then read again",
         128,
         {{LD, 0, 4, ~0u, 4}, {LD, 128, 4, ~0u, 4}, {LD, 0, 4, ~0u, 4}},
         3,
         384,
         0},
        {"evicted dirty, stored again: two write-backs",
         128,
         {{ST, 0, 4, ~0u, 4}, {LD, 128, 4, ~0u, 4}, {ST, 0, 4, ~0u, 4}},
         3,
         128,
         256},
        /* LRU: touching sector 0 again keeps it over sector 1 */
        {"the least recent goes first",
         64,
         {{LD, 0, 0, 1u, 4}, {LD, 32, 0, 1u, 4}, {LD, 0, 0, 1u, 4}, {LD, 64, 0, 1u, 4}},
         4,
         96,
         0},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uint64_t rd, wr;
        play(rows[i].l2, rows[i].r, rows[i].n, &rd, &wr);
        ck_assert_msg(rd == rows[i].read && wr == rows[i].written,
                      "%s: read %llu written %llu, want %llu %llu", rows[i].what,
                      (unsigned long long)rd, (unsigned long long)wr,
                      (unsigned long long)rows[i].read, (unsigned long long)rows[i].written);
    }
    /* after "the least recent goes first" sector 0 is still there, sector 1 is not */
    gl_dram *d = gl_dram_new(64);
    uint64_t rd = 0, wr = 0, a[32] = {0};
    const uint64_t seq[] = {0, 32, 0, 64, 0, 32};
    for (int i = 0; i < 6; i++) {
        a[0] = seq[i];
        gl_dram_access(d, LD, a, 1u, 4, &rd, &wr);
    }
    ck_assert_uint_eq(rd, 4 * 32); /* 0, 32, 64 first touches and 32 again */
    gl_dram_free(d);
}
END_TEST

/* A streaming pass over far more sectors than the L2 holds, then a check that the hash
 * table survived the evictions: the last sectors are still hits. */
START_TEST(test_streaming_past_the_l2_reads_every_sector)
{
    gl_dram *d = gl_dram_new(64 * 1024); /* 2048 sectors */
    uint64_t rd = 0, wr = 0, a[32];
    for (uint64_t base = 0; base < (1u << 22); base += 128) {
        for (int l = 0; l < 32; l++)
            a[l] = base + 4 * (uint64_t)l;
        gl_dram_access(d, LD, a, ~0u, 4, &rd, &wr);
    }
    ck_assert_uint_eq(rd, 1u << 22);
    const uint64_t before = rd;
    for (uint64_t base = (1u << 22) - 64 * 1024; base < (1u << 22); base += 128) {
        for (int l = 0; l < 32; l++)
            a[l] = base + 4 * (uint64_t)l;
        gl_dram_access(d, LD, a, ~0u, 4, &rd, &wr);
    }
    ck_assert_uint_eq(rd, before); /* the last 64 KiB are resident */
    ck_assert_uint_eq(wr, 0);
    gl_dram_free(d);
}
END_TEST

/* Runs kernel of reread.cu on the simulator modelling arch with metrics; res is the
 * caller's to free. */
static void run_kernel(const char *kernel, const char *arch, unsigned grid, unsigned block,
                       const char *args, gl_run_result *res)
{
    char text[1200];
    snprintf(text, sizeof text,
             "{\"source\": \"reread.cu\", \"kernel\": \"%s\", \"grid\": [%u,1,1], \"block\": "
             "[%u,1,1], \"arch\": \"%s\", \"args\": [%s]}",
             kernel, grid, block, arch, args);
    cJSON *js = cJSON_Parse(text);
    ck_assert_ptr_nonnull(js);
    gl_spec spec;
    gl_error err = {0};
    ck_assert_msg(spec_from_json(js, "t.json", "tests/kernels/dram/", NULL, &spec, &err) == GL_OK,
                  "%s", err.msg);
    cJSON_Delete(js);
    gl_run_opts o = {.backend = GL_BACKEND_SIM, .metrics = 1};
    ck_assert_msg(gl_run_spec(&spec, &o, res, &err) == GL_OK, "%s", err.msg);
    spec_free(&spec);
    ck_assert_ptr_nonnull(res->metrics);
    ck_assert_int_eq(res->metrics->incomplete, 0);
}

/* 64 blocks each read all of a 4 KiB table and add a sum into out[block] with one atomic
 * per warp: the global sectors are 64 x 128 (256 KiB asked of the L2), DRAM reads the
 * table once (4096 bytes) and out's 8 sectors once (atomics read, then write back 256). */
START_TEST(test_a_table_read_by_every_block_costs_its_size_once)
{
    gl_run_result res;
    run_kernel("reread", "sm_90", 64, 256,
               "{\"name\": \"table\", \"type\": \"f32*\", \"len\": 1024, \"init\": {\"fill\": 1}},"
               "{\"name\": \"out\", \"type\": \"f32*\", \"len\": 64},"
               "{\"name\": \"n\", \"type\": \"i32\", \"value\": 1024}",
               &res);
    const gl_counts *c = &res.metrics->total;
    ck_assert_uint_eq(c->gld_sectors, 64 * 128);
    ck_assert_uint_eq(c->dram_read_bytes, 4096 + 256);
    ck_assert_uint_eq(c->dram_write_bytes, 256);
    ck_assert_float_eq(((float *)res.buffers[1].data)[63], 1024.0f);
    ck_assert_uint_eq(res.peaks.l2_bytes, 50u << 20);
    gl_run_result_free(&res);
}
END_TEST

/* x and y of 8 MiB each, read and written in two passes: in an H100's 50 MiB L2 the second
 * pass hits (x read once, y written back once: 8 MiB each); in a T4's 4 MiB every access
 * of the second pass misses (x twice and y once read: 24 MiB; y written back twice). */
START_TEST(test_a_second_pass_hits_only_in_an_l2_that_holds_it)
{
    static const char args[] =
        "{\"name\": \"x\", \"type\": \"f32*\", \"len\": 2097152, \"init\": {\"fill\": 1}},"
        "{\"name\": \"y\", \"type\": \"f32*\", \"len\": 2097152},"
        "{\"name\": \"n\", \"type\": \"i32\", \"value\": 2097152}";
    const uint64_t mib8 = 8u << 20;
    gl_run_result res;
    run_kernel("two_passes", "sm_90", 1, 1024, args, &res);
    ck_assert_uint_eq(res.metrics->total.dram_read_bytes, mib8);
    ck_assert_uint_eq(res.metrics->total.dram_write_bytes, mib8);
    ck_assert_float_eq(((float *)res.buffers[1].data)[2097151], 2.0f);
    gl_run_result_free(&res);
    run_kernel("two_passes", "sm_75", 1, 1024, args, &res);
    ck_assert_uint_eq(res.metrics->total.dram_read_bytes, 3 * mib8);
    ck_assert_uint_eq(res.metrics->total.dram_write_bytes, 2 * mib8);
    gl_run_result_free(&res);
}
END_TEST

static Suite *dram_suite(void)
{
    Suite *s = suite_create("dram");
    TCase *tc = tcase_create("dram");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_the_model_counts_first_touches_evictions_and_dirty_sectors);
    tcase_add_test(tc, test_streaming_past_the_l2_reads_every_sector);
    tcase_add_test(tc, test_a_table_read_by_every_block_costs_its_size_once);
    tcase_add_test(tc, test_a_second_pass_hits_only_in_an_l2_that_holds_it);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return temp_cache_run_suite(dram_suite());
}

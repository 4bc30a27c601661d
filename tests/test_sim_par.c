/* Tests of a launch's blocks on worker threads (sim_config.threads, sim/sim_par.c): a
 * launch whose blocks are independent runs on the workers with the buffers and
 * statistics of one thread; one whose blocks communicate (atomics on one word), report
 * findings (races, reads of unwritten memory), fault or print runs again on one thread
 * with everything of the one-thread run, memory first put back as it was; every block
 * runs once whatever chunks the workers take, and the workers commit what they wrote; a
 * launch pays no first touch of the pages sim_malloc made; a launch whose worker threads
 * cannot all be created runs on one thread. Kernels: tests/kernels/sim and
 * tests/kernels/check through their PTX fixtures. */
#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "tests/fixture.h"

/* pthread_create as libsim calls it (this definition comes first): the C library's,
 * counting its calls in creates, but failing (EAGAIN, a machine out of threads) once
 * create_ok creations have succeeded, when create_ok >= 0. */
static int create_ok = -1, creates;
int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    void *sym = dlsym(RTLD_NEXT, "pthread_create");
    memcpy(&real, &sym, sizeof real);
    const int made = __atomic_fetch_add(&creates, 1, __ATOMIC_RELAXED);
    if (create_ok >= 0 && made >= create_ok)
        return EAGAIN;
    return real(th, attr, fn, arg);
}

/* CLOCK_MONOTONIC seconds. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* What one launch gave: its result (findings copied out) and its output buffer. */
typedef struct outcome {
    sim_status st;
    sim_result r;
    unsigned char out[16384];
    size_t out_bytes;
} outcome;

static const unsigned thread_counts[] = {1, 2, 3, 8};

/* A kernel's arguments (run): (in, out, n), (in, out), (in, out) with in never
 * written, (out, n). in holds n0 ints 0, 1, 2, ... (mod 97); out is nout zero bytes; n is
 * n0. */
enum { A_IN_OUT_N, A_IN_OUT, A_UNWRITTEN_IN_OUT, A_OUT_N };

/* Runs kernel `name` of fixture `fixture` (compiler ci) on `threads` threads over grid
 * blocks of 256 threads with arguments `args`. */
static void run(const char *fixture, const char *name, int ci, unsigned threads, unsigned grid,
                int args, int n0, size_t nout, outcome *o)
{
    ptx_module_t *m = fixture_load(fixture, ci);
    sim_config cfg = {.threads = threads, .step_limit = 1ull << 30};
    sim_t *s = sim_new(&cfg);
    ck_assert_ptr_nonnull(s);
    int *in = calloc((size_t)n0 + 1, sizeof *in);
    for (int i = 0; i < n0; i++)
        in[i] = i % 97;
    uint64_t din = fixture_upload(s, args == A_UNWRITTEN_IN_OUT ? NULL : in,
                                  (size_t)n0 * sizeof *in + 4, "in");
    static const unsigned char zeros[sizeof o->out];
    uint64_t dout = fixture_upload(s, zeros, nout, "out");
    int n = n0;
    void *pin[] = {&din, &dout, &n}, *pout[] = {&dout, &n};
    unsigned g[3] = {grid, 1, 1}, b[3] = {256, 1, 1};
    o->st = sim_launch(s, m, name, g, b, 0, args == A_OUT_N ? pout : pin, &o->r);
    o->out_bytes = nout;
    ck_assert_int_eq(sim_memcpy_dtoh(s, o->out, dout, nout), SIM_OK);
    free(in);
    sim_free(s);
    ptx_module_free(m);
}

/* a and b are the same run: status, fault, findings, printf, statistics, buffer. */
static void same(const outcome *a, const outcome *b)
{
    ck_assert_int_eq(a->st, b->st);
    const sim_fault *fa = &a->r.fault, *fb = &b->r.fault; /* src_file: each its module's */
    ck_assert_int_eq(fa->kind, fb->kind);
    ck_assert_uint_eq(fa->address, fb->address);
    ck_assert_mem_eq(fa->block, fb->block, sizeof fa->block);
    ck_assert_mem_eq(fa->thread, fb->thread, sizeof fa->thread);
    ck_assert_int_eq(fa->ptx_line, fb->ptx_line);
    ck_assert_str_eq(fa->message, fb->message);
    ck_assert_int_eq(a->r.nfindings, b->r.nfindings);
    ck_assert_int_eq(a->r.nerrors, b->r.nerrors);
    ck_assert_int_eq(a->r.nwarnings, b->r.nwarnings);
    for (int i = 0; i < a->r.nfindings; i++)
        ck_assert_str_eq(a->r.findings[i].message, b->r.findings[i].message);
    ck_assert_uint_eq(a->r.printf_len, b->r.printf_len);
    if (a->r.printf_len)
        ck_assert_mem_eq(a->r.printf_out, b->r.printf_out, a->r.printf_len);
    ck_assert_mem_eq(&a->r.stats, &b->r.stats, sizeof a->r.stats);
    ck_assert_uint_eq(a->r.regions, b->r.regions);
    ck_assert_mem_eq(a->out, b->out, a->out_bytes);
}

START_TEST(test_independent_blocks_run_on_the_workers_with_one_threads_results)
{
    for (unsigned k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++) {
        ptx_module_t *m = fixture_load("vec_add", _i);
        sim_config cfg = {.threads = thread_counts[k]};
        sim_t *s = sim_new(&cfg);
        enum { N = 4000 };
        static float a[N], bb[N], c[N], c1[N];
        for (int i = 0; i < N; i++)
            a[i] = (float)i * 0.5f, bb[i] = 7.0f - (float)i;
        uint64_t da = fixture_upload(s, a, sizeof a, "a"),
                 db = fixture_upload(s, bb, sizeof bb, "b"),
                 dc = fixture_upload(s, NULL, sizeof c, "c");
        int n = N;
        void *params[] = {&da, &db, &dc, &n};
        unsigned g[3] = {(N + 255) / 256, 1, 1}, b[3] = {256, 1, 1};
        sim_result r;
        ck_assert_int_eq(sim_launch(s, m, "vec_add", g, b, 0, params, &r), SIM_OK);
        ck_assert_int_eq(sim_memcpy_dtoh(s, k ? c : c1, dc, sizeof c), SIM_OK);
        ck_assert_int_eq(r.nfindings, 0);
        ck_assert_uint_eq(r.threads, thread_counts[k]);
        if (k)
            ck_assert_mem_eq(c, c1, sizeof c);
        static sim_stats st1;
        if (!k)
            st1 = r.stats;
        ck_assert_mem_eq(&r.stats, &st1, sizeof st1);
        /* a second launch reads what the first wrote (initcheck bits committed) */
        sim_result r2;
        void *params2[] = {&dc, &db, &da, &n};
        ck_assert_int_eq(sim_launch(s, m, "vec_add", g, b, 0, params2, &r2), SIM_OK);
        ck_assert_int_eq(r2.nfindings, 0);
        sim_result_free(&r);
        sim_result_free(&r2);
        sim_free(s);
        ptx_module_free(m);
    }
}
END_TEST

START_TEST(test_every_block_runs_once_whatever_the_chunks_and_the_workers_commit_their_writes)
{
    /* the workers take chunks of shrinking size (sim.c par_take) and each commits its own
     * initcheck bits once all have ended (par_arrive): over 782 blocks on 3 workers every
     * element is written once, right; over 2 blocks on 8 threads (2 workers, which end
     * before or after the launching thread has made them all) every launch runs on both
     * and a second launch reads what the first wrote without a finding */
    static const struct {
        int n;
        unsigned threads, reps;
    } cases[] = {{200000, 3, 1}, {300, 8, 40}};
    for (unsigned k = 0; k < sizeof cases / sizeof *cases; k++) {
        const int N = cases[k].n;
        float *a = malloc((size_t)N * sizeof *a), *bb = malloc((size_t)N * sizeof *bb),
              *c = malloc((size_t)N * sizeof *c);
        ck_assert(a && bb && c);
        for (int i = 0; i < N; i++)
            a[i] = (float)(i % 1000), bb[i] = 3.0f * (float)(i % 7);
        ptx_module_t *m = fixture_load("vec_add", _i);
        for (unsigned rep = 0; rep < cases[k].reps; rep++) {
            sim_config cfg = {.threads = cases[k].threads};
            sim_t *s = sim_new(&cfg);
            const size_t bytes = (size_t)N * sizeof *a;
            uint64_t da = fixture_upload(s, a, bytes, "a"), db = fixture_upload(s, bb, bytes, "b"),
                     dc = fixture_upload(s, NULL, bytes, "c");
            int n = N;
            void *params[] = {&da, &db, &dc, &n};
            const unsigned nb = (unsigned)(N + 255) / 256;
            unsigned g[3] = {nb, 1, 1}, b[3] = {256, 1, 1};
            sim_result r, r2;
            ck_assert_int_eq(sim_launch(s, m, "vec_add", g, b, 0, params, &r), SIM_OK);
            ck_assert_int_eq(r.nfindings, 0);
            ck_assert_uint_eq(r.threads, cases[k].threads < nb ? cases[k].threads : nb);
            ck_assert_int_eq(sim_memcpy_dtoh(s, c, dc, bytes), SIM_OK);
            for (int i = 0; i < N; i++)
                ck_assert_msg(c[i] == a[i] + bb[i], "element %d: %g", i, (double)c[i]);
            void *params2[] = {&dc, &db, &da, &n}; /* reads c: its initcheck bits */
            ck_assert_int_eq(sim_launch(s, m, "vec_add", g, b, 0, params2, &r2), SIM_OK);
            ck_assert_int_eq(r2.nfindings, 0);
            sim_result_free(&r);
            sim_result_free(&r2);
            sim_free(s);
        }
        ptx_module_free(m);
        free(a);
        free(bb);
        free(c);
    }
}
END_TEST

START_TEST(test_a_launch_pays_no_first_touch_of_the_pages_sim_malloc_made)
{
    /* sim_malloc maps an allocation's pages (up to 256 MiB, as cudaMalloc commits device
     * memory): a launch writing an 8 MiB output that was never copied in takes fewer page
     * faults than half its pages, on one thread and on two. (GCC folded the malloc and
     * memset of zeros into calloc, which maps nothing: every page then faulted in the
     * launch, twice on the workers, whose claim reads a line before its first write.) */
    enum { N = 1 << 21 };
    float *a = malloc(N * sizeof *a), *bb = malloc(N * sizeof *bb);
    ck_assert(a && bb);
    for (int i = 0; i < N; i++)
        a[i] = (float)(i % 100), bb[i] = 1.0f;
    const long pages = (long)(N * sizeof *a) / sysconf(_SC_PAGESIZE);
#ifdef GL_SANITIZER_BUILD
    const int count_faults = 0; /* a sanitizer's shadow memory faults in too */
#else
    const int count_faults = 1;
#endif
    ptx_module_t *m = fixture_load("vec_add", _i);
    for (unsigned threads = 1; threads <= 2; threads++) {
        sim_config cfg = {.threads = threads};
        sim_t *s = sim_new(&cfg);
        uint64_t da = fixture_upload(s, a, N * sizeof *a, "a"),
                 db = fixture_upload(s, bb, N * sizeof *bb, "b"),
                 dc = fixture_upload(s, NULL, N * sizeof *a, "c");
        int n = N;
        void *params[] = {&da, &db, &dc, &n};
        unsigned g[3] = {N / 256, 1, 1}, b[3] = {256, 1, 1};
        sim_result r;
        struct rusage u0, u1;
        getrusage(RUSAGE_SELF, &u0);
        ck_assert_int_eq(sim_launch(s, m, "vec_add", g, b, 0, params, &r), SIM_OK);
        getrusage(RUSAGE_SELF, &u1);
        ck_assert_uint_eq(r.threads, threads);
        ck_assert_msg(!count_faults || u1.ru_minflt - u0.ru_minflt < pages / 2,
                      "%u thread(s): %ld page faults in the launch, %ld pages written", threads,
                      u1.ru_minflt - u0.ru_minflt, pages);
        sim_result_free(&r);
        sim_free(s);
    }
    ptx_module_free(m);
    free(a);
    free(bb);
}
END_TEST

START_TEST(test_blocks_adding_into_one_word_run_again_on_one_thread_from_the_same_memory)
{
    /* reduce_sum: every block's thread 0 adds its block's sum into *out (atomicAdd): a
     * word written by every block. A parallel attempt that left its additions in memory
     * would give a larger sum. */
    static outcome o1, on;
    run("reduce", "reduce_sum", _i, 1, 16, A_IN_OUT_N, 4096, 4, &o1);
    ck_assert_int_eq(o1.st, SIM_OK);
    int32_t sum, want = 0;
    for (int i = 0; i < 4096; i++)
        want += i % 97;
    memcpy(&sum, o1.out, 4);
    ck_assert_int_eq(sum, want);
    for (unsigned k = 1; k < sizeof thread_counts / sizeof *thread_counts; k++) {
        run("reduce", "reduce_sum", _i, thread_counts[k], 16, A_IN_OUT_N, 4096, 4, &on);
        same(&o1, &on);
        ck_assert_uint_eq(on.r.threads, 1);
        sim_result_free(&on.r);
    }
    sim_result_free(&o1.r);
}
END_TEST

START_TEST(test_findings_and_faults_are_the_one_thread_runs)
{
    static outcome o1, on;
    /* races: reverse_racy's shared-memory race in every block; copy_in reads a buffer
     * nothing wrote (initcheck); oob_write's first fault (block 3's threads past n) */
    struct {
        const char *fixture, *kernel;
        int args, n0;
        size_t nout;
        unsigned grid;
    } cases[] = {
        {"races", "reverse_racy", A_IN_OUT, 2048, 2048 * 4, 8},
        {"races", "copy_in", A_UNWRITTEN_IN_OUT, 2048, 2048 * 4, 8},
        {"oob", "oob_write", A_OUT_N, 900, 900 * 4, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run(cases[i].fixture, cases[i].kernel, _i, 1, cases[i].grid, cases[i].args, cases[i].n0,
            cases[i].nout, &o1);
        ck_assert_msg(o1.r.nfindings > 0 || o1.r.fault.kind != SIM_FAULT_NONE, "%s finds nothing",
                      cases[i].kernel);
        for (unsigned k = 1; k < sizeof thread_counts / sizeof *thread_counts; k++) {
            run(cases[i].fixture, cases[i].kernel, _i, thread_counts[k], cases[i].grid,
                cases[i].args, cases[i].n0, cases[i].nout, &on);
            same(&o1, &on);
            ck_assert_uint_eq(on.r.threads, 1);
            sim_result_free(&on.r);
        }
        sim_result_free(&o1.r);
    }
}
END_TEST

START_TEST(test_a_block_waiting_for_a_later_block_of_its_chunk_completes_on_one_thread)
{
    /* wait_next: block 2k waits for block 2k + 1's flag. Interleaved on one thread the
     * launch completes; on the workers each chunk holds a pair, whose first block waits
     * for ever: halted at half the time limit, the launch runs on one thread with the
     * whole limit (not past it) */
    enum { NB = 64 };
    static int32_t spins[2][NB];
    for (unsigned k = 0; k < 2; k++) {
        ptx_module_t *m = fixture_load("wait_next", _i);
        sim_config cfg = {.threads = k ? 2 : 1, .time_limit_s = 4};
        sim_t *s = sim_new(&cfg);
        static const int32_t zeros[NB];
        uint64_t dflag = fixture_upload(s, zeros, sizeof zeros, "flag"),
                 dspins = fixture_upload(s, zeros, sizeof zeros, "spins");
        void *params[] = {&dflag, &dspins};
        unsigned g[3] = {NB, 1, 1}, b[3] = {32, 1, 1};
        sim_result r;
        const double t0 = now_s();
        ck_assert_msg(sim_launch(s, m, "wait_next", g, b, 0, params, &r) == SIM_OK, "%u: %s", k,
                      r.fault.message);
        ck_assert_uint_eq(r.threads, 1);
        if (k) { /* the workers' half (2 s), then the run on one thread, not the limit */
            ck_assert_double_ge(now_s() - t0, 1.9);
            ck_assert_double_lt(now_s() - t0, 3.5);
        }
        ck_assert_int_eq(sim_memcpy_dtoh(s, spins[k], dspins, sizeof spins[k]), SIM_OK);
        sim_result_free(&r);
        sim_free(s);
        ptx_module_free(m);
    }
    ck_assert_mem_eq(spins[0], spins[1], sizeof spins[0]);
}
END_TEST

/* vec_add over 4000 floats (16 blocks) on `threads` threads: the result in *r, c the sums. */
static void run_vec_add(int ci, unsigned threads, float *c, sim_result *r)
{
    ptx_module_t *m = fixture_load("vec_add", ci);
    sim_config cfg = {.threads = threads};
    sim_t *s = sim_new(&cfg);
    ck_assert_ptr_nonnull(s);
    enum { N = 4000 };
    static float a[N], bb[N];
    for (int i = 0; i < N; i++)
        a[i] = (float)i * 0.5f, bb[i] = 7.0f - (float)i;
    uint64_t da = fixture_upload(s, a, sizeof a, "a"), db = fixture_upload(s, bb, sizeof bb, "b"),
             dc = fixture_upload(s, NULL, N * sizeof *c, "c");
    int n = N;
    void *params[] = {&da, &db, &dc, &n};
    unsigned g[3] = {(N + 255) / 256, 1, 1}, b[3] = {256, 1, 1};
    ck_assert_int_eq(sim_launch(s, m, "vec_add", g, b, 0, params, r), SIM_OK);
    ck_assert_int_eq(sim_memcpy_dtoh(s, c, dc, N * sizeof *c), SIM_OK);
    ck_assert_int_eq(r->nfindings, 0);
    sim_free(s);
    ptx_module_free(m);
}

START_TEST(test_a_launch_whose_workers_cannot_all_start_runs_on_one_thread)
{
    /* 8 workers: the launching thread and 7 created through the tree; creation fails
     * at once, after one, after three, after six: nothing more is tried, and the launch
     * runs again on one thread with the one-thread results */
    static float c1[4000], c[4000];
    sim_result r1, r;
    run_vec_add(_i, 1, c1, &r1);
    static const int oks[] = {0, 1, 3, 6};
    for (unsigned k = 0; k < sizeof oks / sizeof *oks; k++) {
        create_ok = oks[k];
        creates = 0;
        run_vec_add(_i, 8, c, &r);
        create_ok = -1;
        ck_assert_int_eq(creates, oks[k] + 1);
        ck_assert_uint_eq(r.threads, 1);
        ck_assert_mem_eq(c, c1, sizeof c);
        ck_assert_mem_eq(&r.stats, &r1.stats, sizeof r.stats);
        sim_result_free(&r);
    }
    /* all 7 created: on the workers */
    creates = 0;
    run_vec_add(_i, 8, c, &r);
    ck_assert_int_eq(creates, 7);
    ck_assert_uint_eq(r.threads, 8);
    ck_assert_mem_eq(c, c1, sizeof c);
    sim_result_free(&r);
    sim_result_free(&r1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sim_par");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    const int nc = (int)(sizeof fixture_compilers / sizeof *fixture_compilers);
    tcase_add_loop_test(tc, test_independent_blocks_run_on_the_workers_with_one_threads_results, 0,
                        nc);
    tcase_add_loop_test(
        tc, test_every_block_runs_once_whatever_the_chunks_and_the_workers_commit_their_writes, 0,
        nc);
    tcase_add_loop_test(tc, test_a_launch_pays_no_first_touch_of_the_pages_sim_malloc_made, 0, nc);
    tcase_add_loop_test(
        tc, test_blocks_adding_into_one_word_run_again_on_one_thread_from_the_same_memory, 0, nc);
    tcase_add_loop_test(tc, test_findings_and_faults_are_the_one_thread_runs, 0, nc);
    tcase_add_loop_test(
        tc, test_a_block_waiting_for_a_later_block_of_its_chunk_completes_on_one_thread, 0, nc);
    tcase_add_loop_test(tc, test_a_launch_whose_workers_cannot_all_start_runs_on_one_thread, 0, nc);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

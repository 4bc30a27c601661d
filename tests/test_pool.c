/* test_pool.c — runtime/pool.h: jobs run in workers, each job's messages come back
 * whole, and a worker's launches get its share of the cores (GPULEARN_SIM_THREADS:
 * cores over the workers running at once, at least 1), unless the user set a count. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/child.h"
#include "runtime/pool.h"

/* A job's body: sends "job <j> <GPULEARN_SIM_THREADS>". */
static void body(int fd, int job, void *ctx)
{
    (void)ctx;
    const char *t = getenv("GPULEARN_SIM_THREADS");
    char msg[64];
    const int n = snprintf(msg, sizeof msg, "job %d %s", job, t ? t : "(unset)");
    gl_child_send(fd, 1, 0, msg, (size_t)n);
}

/* Runs njobs jobs on `workers` workers; each job's message must be "job <j> <want>". */
static void expect_threads(int workers, int njobs, const char *want)
{
    gl_pool_opts o = {.workers = workers, .njobs = njobs, .body = body, .max_message = 1024};
    gl_pool *p = gl_pool_new(&o);
    ck_assert_ptr_nonnull(p);
    for (int j = 0; j < njobs; j++) {
        gl_pool_result *r = gl_pool_wait(p, j);
        ck_assert_ptr_nonnull(r);
        ck_assert_int_eq(r->nmsgs, 1);
        char expect[64];
        snprintf(expect, sizeof expect, "job %d %s", j, want);
        ck_assert_str_eq(r->msgs[0].data, expect);
    }
    gl_pool_free(p);
}

START_TEST(workers_share_the_cores)
{
    unsetenv("GPULEARN_SIM_THREADS");
    const int cores = gl_pool_cores();
    char want[16];
    /* two workers at once: half the cores each (one on a 1-core machine) */
    snprintf(want, sizeof want, "%d", cores / 2 > 1 ? cores / 2 : 1);
    expect_threads(2, 5, want);
    /* one job: it is the only worker, so every core */
    snprintf(want, sizeof want, "%d", cores);
    expect_threads(64, 1, want);
    /* more workers than cores: one thread each */
    expect_threads(cores + 1, cores + 1, "1");
    ck_assert_ptr_null(getenv("GPULEARN_SIM_THREADS")); /* the caller's environment as it was */
}
END_TEST

START_TEST(a_count_the_user_set_stands)
{
    setenv("GPULEARN_SIM_THREADS", "3", 1);
    expect_threads(2, 4, "3");
    unsetenv("GPULEARN_SIM_THREADS");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pool");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, workers_share_the_cores);
    tcase_add_test(tc, a_count_the_user_set_stands);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* lessons.c — `make bench`: the lessons as a learner waits for them, on the simulator.
 *
 * Steps: every step of every lesson (lesson_list) that launches a kernel runs once
 * untimed (it fills the PTX cache, in a temporary XDG_CACHE_HOME), then once timed with
 * the blocks on the cores (gl_run_opts.sim_threads); each lesson's slowest step is then
 * timed BENCH_RUNS times (default 3; 1 with BENCH_QUICK) with one thread and with the
 * cores: the wall time of gl_run_spec (compiling from the cache, the inputs, the
 * simulation, the outputs: what `gpulearn run` of the step's launch does, less starting
 * the process), the median with the min and max. Grading: `gpulearn grade N REFERENCE
 * --seed 1` of each exercise's reference solution (the binary named by $GPULEARN, else
 * build/release/gpulearn), once untimed, then timed once with GPULEARN_SIM_THREADS=1 and
 * GPULEARN_JOBS=1 (one core) and once with the defaults (the cores for both). Targets
 * (issue 32, on a 16-core host): every step under 1 s, every reference graded under 5 s.
 *
 * BENCH_LESSONS="1 9 12" limits the lessons (numbers); BENCH_QUICK: lessons 1 and 9.
 * BENCH_NO_GRADE=1 skips the gradings. Exit status: 0, or 1 when a step's run or a
 * grading fails (a reference must pass), 2 on bad usage. Arguments are ignored.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/spread.h"

#include "runtime/backend.h"
#include "runtime/gl.h"
#include "runtime/lesson.h"
#include "runtime/spec.h"

extern char **environ;

/* Most runs BENCH_RUNS may ask for. */
enum { MAX_RUNS = 100 };

/* Runs step s of lesson l on the simulator with its blocks on `threads` threads: wall
 * seconds into *secs and the threads it ran on into *used. 0, or -1 (message printed). */
static int run_step(const gl_lesson *l, int s, unsigned threads, double *secs, unsigned *used)
{
    gl_spec spec;
    gl_error err = {0};
    if (lesson_step_spec_for(l, s, NULL, GL_BACKEND_SIM, &spec, &err) != GL_OK) {
        fprintf(stderr, "bench/lessons: %s step %d: %s\n", l->id, s + 1, err.msg);
        return -1;
    }
    gl_run_opts o = {.backend = GL_BACKEND_SIM, .sim_threads = threads};
    gl_run_result r;
    const double t0 = wall_s();
    const gl_status st = gl_run_spec(&spec, &o, &r, &err);
    *secs = wall_s() - t0;
    *used = r.block_threads;
    gl_run_result_free(&r);
    spec_free(&spec);
    if (st != GL_OK && st != GL_ERR_FAULT) { /* a step may show a fault on purpose */
        fprintf(stderr, "bench/lessons: %s step %d: %s\n", l->id, s + 1, err.msg);
        return -1;
    }
    return 0;
}

/* A copy of the file `reference` at a path no grading used before (dir/gN/<its name>)
 * into copy[n]: a submission the compilation cache has never seen, as a learner's
 * edited code is, while the reference's own build stays cached. 0, or -1. */
static int fresh_copy(const char *dir, const char *reference, char *copy, size_t n)
{
    static int count;
    char sub[600];
    const char *base = strrchr(reference, '/') ? strrchr(reference, '/') + 1 : reference;
    snprintf(sub, sizeof sub, "%s/g%d", dir, count++);
    if (mkdir(sub, 0700) != 0 || snprintf(copy, n, "%s/%s", sub, base) >= (int)n)
        return -1;
    return gl_copy_tree(reference, copy);
}

/* Runs `gpulearn grade LABEL SUBMISSION --seed 1` (LABEL: "1", "0b"; SUBMISSION: a fresh
 * copy of reference in dir, fresh_copy) with the environment's extra settings and its
 * output to /dev/null: wall seconds into *secs. Its exit status, or -1 when it could not
 * run. */
static int grade_once(const char *gpulearn, const char *dir, const char *label,
                      const char *reference, int one_core, double *secs)
{
    char copy[1200];
    if (fresh_copy(dir, reference, copy, sizeof copy) != 0)
        return -1;
    if (one_core) {
        setenv("GPULEARN_SIM_THREADS", "1", 1);
        setenv("GPULEARN_JOBS", "1", 1);
    } else {
        unsetenv("GPULEARN_SIM_THREADS");
        unsetenv("GPULEARN_JOBS");
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {(char *)gpulearn, "grade", (char *)label, copy, "--seed", "1", NULL};
    const double t0 = wall_s();
    pid_t pid;
    int rc = posix_spawn(&pid, gpulearn, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    unsetenv("GPULEARN_SIM_THREADS");
    unsetenv("GPULEARN_JOBS");
    if (rc != 0)
        return -1;
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    *secs = wall_s() - t0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Whether lesson number n is one BENCH_LESSONS (or BENCH_QUICK) names. */
static int wanted(int n, const char *list)
{
    if (!list)
        return 1;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *t = strtok(buf, " ,"); t; t = strtok(NULL, " ,"))
        if (atoi(t) == n)
            return 1;
    return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

int main(void)
{
    const char *gpulearn = getenv("GPULEARN");
    if (!gpulearn || !*gpulearn)
        gpulearn = "build/release/gpulearn";
    const char *quick = getenv("BENCH_QUICK");
    const int is_quick = quick && *quick && strcmp(quick, "0") != 0;
    int runs = is_quick ? 1 : 3;
    const char *env = getenv("BENCH_RUNS");
    if (env && *env) {
        char *end;
        const long n = strtol(env, &end, 10);
        if (*end || n < 1 || n > MAX_RUNS) {
            fprintf(stderr, "bench/lessons: BENCH_RUNS=%s: a number of runs from 1 to %d\n", env,
                    MAX_RUNS);
            return 2;
        }
        runs = (int)n;
    }
    const char *list = getenv("BENCH_LESSONS");
    if (!list && is_quick)
        list = "1 9";
    const char *ng = getenv("BENCH_NO_GRADE");
    const int grade = !(ng && *ng && strcmp(ng, "0") != 0);
    char tmp[] = "/tmp/gpulearn-bench-lessons-XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("bench/lessons: mkdtemp");
        return 2;
    }
    char cache[64], data[64];
    snprintf(cache, sizeof cache, "%s/cache", tmp);
    snprintf(data, sizeof data, "%s/data", tmp);
    setenv("XDG_CACHE_HOME", cache, 1);
    setenv("XDG_DATA_HOME", data, 1);
    setenv("GPULEARN_NO_GPU", "1", 1);
    const long nc = sysconf(_SC_NPROCESSORS_ONLN);
    const unsigned cores = nc > 0 ? (unsigned)nc : 1;

    gl_lesson *ls = NULL;
    int n = 0;
    gl_error err = {0};
    if (lesson_list(&ls, &n, &err) != GL_OK) {
        fprintf(stderr, "bench/lessons: %s\n", err.msg);
        return 2;
    }
    printf("\nEach lesson's slowest step on the simulator (gl_run_spec, as `gpulearn run` of the "
           "step's\nlaunch), %d run%s (BENCH_RUNS) with one thread and with the %u cores; wall "
           "seconds%s:\n",
           runs, runs > 1 ? "s" : "", cores, runs > 1 ? ", median [min-max]" : "");
    printf("%-16s %5s %-22s %19s %19s %8s %3s %s\n", "lesson", "step", "kernel", "1 thread",
           "cores", "speed-up", "on", "target < 1 s");
    int fail = 0, steps_met = 0, steps_all = 0;
    for (int i = 0; i < n; i++) {
        const gl_lesson *l = &ls[i];
        if (l->broken || !wanted(l->number, list))
            continue;
        int slow = -1;
        double slow_s = 0;
        for (int s = 0; s < l->nsteps; s++) {
            if (!l->steps[s].kernel || !l->steps[s].launch)
                continue;
            double t;
            unsigned used;
            if (run_step(l, s, 1, &t, &used) < 0 || run_step(l, s, cores, &t, &used) < 0) {
                fail = 1;
                continue;
            }
            if (t > slow_s)
                slow = s, slow_s = t;
        }
        if (slow < 0)
            continue;
        double t1[MAX_RUNS], tn[MAX_RUNS];
        unsigned used = 0;
        for (int r = 0; r < runs && !fail; r++)
            if (run_step(l, slow, 1, &t1[r], &used) < 0 ||
                run_step(l, slow, cores, &tn[r], &used) < 0)
                fail = 1;
        if (fail)
            break;
        const spread a = spread_of(t1, runs), b = spread_of(tn, runs);
        char s1[40], sn[40];
        snprintf(s1, sizeof s1, runs > 1 ? "%.2f [%.2f-%.2f]" : "%.2f", a.med, a.min, a.max);
        snprintf(sn, sizeof sn, runs > 1 ? "%.2f [%.2f-%.2f]" : "%.2f", b.med, b.min, b.max);
        steps_all++;
        steps_met += b.med < 1.0;
        printf("%-16.16s %5d %-22.22s %19s %19s %7.2fx %3u %s\n", l->id, slow + 1,
               lesson_step_kernel_name(&l->steps[slow]), s1, sn, a.med / b.med, used,
               b.med < 1.0 ? "met" : "NOT met");
        fflush(stdout);
    }
    printf("steps under 1 s with the cores: %d of %d lessons' slowest\n", steps_met, steps_all);

    if (grade && access(gpulearn, X_OK) != 0) {
        fprintf(stderr, "bench/lessons: no gpulearn binary at %s (set GPULEARN)\n", gpulearn);
        fail = 1;
    } else if (grade) {
        printf("\nGrading each exercise's reference: gpulearn grade LABEL COPY --seed 1, wall "
               "seconds,\none core (GPULEARN_SIM_THREADS=1, GPULEARN_JOBS=1) and the defaults "
               "(the %u cores);\nCOPY: the reference copied to a new path for each grading, so "
               "that its builds compile\nas a learner's new code does (the reference's own, "
               "cached after an untimed first grading):\n",
               cores);
        printf("%-16s %9s %9s %8s %s\n", "lesson", "one core", "cores", "speed-up", "target < 5 s");
        int met = 0, all = 0;
        for (int i = 0; i < n && !fail; i++) {
            const gl_lesson *l = &ls[i];
            if (l->broken || !l->exercise || !l->exercise->reference || !wanted(l->number, list))
                continue;
            double w, g1, gn;
            if (grade_once(gpulearn, tmp, l->label, l->exercise->reference, 0, &w) != 0 ||
                grade_once(gpulearn, tmp, l->label, l->exercise->reference, 1, &g1) != 0 ||
                grade_once(gpulearn, tmp, l->label, l->exercise->reference, 0, &gn) != 0) {
                fprintf(stderr, "bench/lessons: grading %s's reference failed\n", l->id);
                fail = 1;
                break;
            }
            all++;
            met += gn < 5.0;
            printf("%-16.16s %9.2f %9.2f %7.2fx %s\n", l->id, g1, gn, g1 / gn,
                   gn < 5.0 ? "met" : "NOT met");
            fflush(stdout);
        }
        printf("references graded under 5 s with the cores: %d of %d\n", met, all);
    }
    lesson_list_free(ls, n);
    nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return fail;
}

/* similar.c — `make bench`: the copied-work report of a class (issue 35: 300 submissions
 * in under 30 s).
 *
 * Builds a class in a temporary folder from the repository's graded submissions
 * (tests/grade/LESSON/NAME.cu, 332 files of every lesson, sorted by path, taken in turn):
 * submission i is file i mod 332 with "// learner i" prepended, and every tenth one a
 * copy of the one before it (another learner's work with its comment), so that the
 * report has pairs to find and regions to show. Then times `gpulearn similar 9 DIR
 * --top 50 --html OUT` (the binary named by $GPULEARN, else build/release/gpulearn;
 * lesson 9's starter and steps as the base): the wall time and peak RSS (wait4) over
 * BENCH_RUNS runs (default 3; 1 with BENCH_QUICK=1), median with min and max, for 300
 * submissions (the target) and for 2000 (GL_SIMILAR_MAX_FILES, the most one comparison
 * takes).
 *
 * Exit status: 0 when every run exits 0 (a missed target is reported, not failed), 1
 * when one does not, 2 when gpulearn or tests/grade is missing or BENCH_RUNS is not a
 * number from 1 to 100. Arguments are ignored (bench-run passes every bench the PTX
 * folder).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/spread.h"

extern char **environ;

/* Most runs BENCH_RUNS may ask for. */
enum { MAX_RUNS = 100 };

/* Runs argv with stdout and stderr to /dev/null: wall seconds into *secs, peak RSS (KiB)
 * into *rss_kb. Its exit status, or -1 when it could not start or was killed. */
static int run_once(char **argv, double *secs, long *rss_kb)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    const double t0 = wall_s();
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid)
        return -1;
    *secs = wall_s() - t0;
    *rss_kb = ru.ru_maxrss;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* Writes the class of n submissions (see the top) into dir: 0, or -1. */
static int make_class(const char *dir, int n, const glob_t *g)
{
    for (int i = 0; i < n; i++) {
        const int src = i % 10 == 9 ? i - 1 : i; /* every tenth: a copy of the one before */
        FILE *in = fopen(g->gl_pathv[(size_t)src % g->gl_pathc], "r");
        char path[256];
        snprintf(path, sizeof path, "%s/s%04d.cu", dir, i);
        FILE *out = fopen(path, "w");
        if (!in || !out) {
            if (in)
                fclose(in);
            if (out)
                fclose(out);
            return -1;
        }
        fprintf(out, "// learner %d\n", i);
        char buf[8192];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, got, out);
        fclose(in);
        if (fclose(out) != 0)
            return -1;
    }
    return 0;
}

int main(void)
{
    const char *gpulearn = getenv("GPULEARN");
    if (!gpulearn || !*gpulearn)
        gpulearn = "build/release/gpulearn";
    const char *quick = getenv("BENCH_QUICK");
    int runs = quick && *quick && strcmp(quick, "0") != 0 ? 1 : 3;
    const char *env = getenv("BENCH_RUNS");
    if (env && *env) {
        char *end;
        const long v = strtol(env, &end, 10);
        if (*end || v < 1 || v > MAX_RUNS) {
            fprintf(stderr, "bench/similar: BENCH_RUNS=%s: a number of runs from 1 to %d\n", env,
                    MAX_RUNS);
            return 2;
        }
        runs = (int)v;
    }
    if (access(gpulearn, X_OK) != 0) {
        fprintf(stderr, "bench/similar: no gpulearn binary at %s (set GPULEARN)\n", gpulearn);
        return 2;
    }
    glob_t g;
    if (glob("tests/grade/*/*.cu", 0, NULL, &g) != 0 || g.gl_pathc == 0) {
        fprintf(stderr, "bench/similar: no tests/grade/*/*.cu (run from the repository root)\n");
        return 2;
    }
    char tmp[] = "/tmp/gpulearn-bench-similar-XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("bench/similar: mkdtemp");
        globfree(&g);
        return 2;
    }
    printf("\nCopied work: gpulearn similar 9 DIR --top 50 --html OUT > /dev/null\n"
           "(gpulearn: %s; the class made of tests/grade's %zu submissions, every tenth a "
           "copy)\n%d timed run%s (BENCH_RUNS)%s\n\n",
           gpulearn, g.gl_pathc, runs, runs > 1 ? "s" : "",
           runs > 1 ? ": the median, min and max of each" : ", no spread");
    printf("%-12s %9s %10s\n", "submissions", "wall s", "RSS MiB");
    static const int sizes[] = {300, 2000};
    int fail = 0;
    double at300 = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes && !fail; k++) {
        char dir[128], html[128];
        snprintf(dir, sizeof dir, "%s/class%d", tmp, sizes[k]);
        snprintf(html, sizeof html, "%s/report%d.html", tmp, sizes[k]);
        if (mkdir(dir, 0700) != 0 || make_class(dir, sizes[k], &g) != 0) {
            fprintf(stderr, "bench/similar: cannot write the class in %s\n", dir);
            fail = 2;
            break;
        }
        char *argv[] = {(char *)gpulearn, "similar", "9", dir, "--top", "50", "--html", html, NULL};
        double t[MAX_RUNS], rss[MAX_RUNS];
        for (int i = 0; i < runs; i++) {
            long kb = 0;
            if (run_once(argv, &t[i], &kb) != 0) {
                fprintf(stderr, "bench/similar: %s similar 9 %s failed\n", gpulearn, dir);
                fail = 1;
                break;
            }
            rss[i] = (double)kb / 1024.0;
        }
        if (fail)
            break;
        const spread ts = spread_of(t, runs), rs = spread_of(rss, runs);
        printf("%-12d %9.2f %10.1f\n", sizes[k], ts.med, rs.med);
        if (runs > 1) {
            printf("%-12s %9.2f %10.1f\n", "  min", ts.min, rs.min);
            printf("%-12s %9.2f %10.1f\n", "  max", ts.max, rs.max);
        }
        if (sizes[k] == 300)
            at300 = ts.med;
    }
    if (!fail)
        printf("\ntarget: the report of 300 submissions in under 30 s: %.2f s, %s\n", at300,
               at300 < 30 ? "met" : "NOT met");
    nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    globfree(&g);
    return fail;
}

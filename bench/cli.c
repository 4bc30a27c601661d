/* cli.c — `make bench`: end-to-end time of the command line on the simulator.
 *
 * Spawns `gpulearn run SPEC` (the binary named by $GPULEARN, else
 * build/release/gpulearn) with GPULEARN_NO_GPU=1 for vector add over 2^24 and 2^26
 * floats (bench/cli/vec_add_24.json and vec_add_26.json: random inputs a and b,
 * c = a + b): what a learner waits for, parsing, compiling (from the PTX cache),
 * generating the inputs, simulating, printing the summary, freeing. Each spec runs once
 * untimed (filling the PTX and translating-tier caches, in a temporary XDG_CACHE_HOME),
 * then BENCH_CLI_REPS times (default 3); reported: the median wall time with the min
 * and max, and the median peak RSS (wait4's ru_maxrss) per byte of the launch's
 * buffers.
 *
 * Exit status: 0 when every run exits 0, 1 when one does not, 2 when gpulearn or a
 * spec is missing. Arguments are ignored (bench-run passes every bench the PTX folder).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* One spec: its path from the repository root and its buffers' bytes in all. */
typedef struct cli_case {
    const char *spec;
    int log2_n;
    double buffer_bytes;
} cli_case;

static const cli_case cases[] = {
    {"bench/cli/vec_add_24.json", 24, 3.0 * 4 * (1 << 24)},
    {"bench/cli/vec_add_26.json", 26, 3.0 * 4 * (1 << 26)},
};

static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v[n] and returns its median. */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Runs `gpulearn run spec` with stdout and stderr to /dev/null: wall seconds into
 * *secs, peak RSS (KiB) into *rss_kb. Returns its exit status, or -1 if it could not
 * be started or was killed. */
static int run_once(const char *gpulearn, const char *spec, double *secs, long *rss_kb)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {(char *)gpulearn, "run", (char *)spec, NULL};
    const double t0 = wall_s();
    pid_t pid;
    int rc = posix_spawn(&pid, gpulearn, &fa, NULL, argv, environ);
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
    const char *r = getenv("BENCH_CLI_REPS");
    int reps = r ? atoi(r) : 3;
    if (reps < 1 || reps > 99)
        reps = 3;
    if (access(gpulearn, X_OK) != 0) {
        fprintf(stderr, "bench/cli: no gpulearn binary at %s (set GPULEARN)\n", gpulearn);
        return 2;
    }
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
        if (access(cases[k].spec, R_OK) != 0) {
            fprintf(stderr, "bench/cli: cannot read %s (run from the repository root)\n",
                    cases[k].spec);
            return 2;
        }
    /* the caches of these runs only, never the user's */
    char tmp[] = "/tmp/gpulearn-bench-cli-XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("bench/cli: mkdtemp");
        return 2;
    }
    char cache[64], data[64];
    snprintf(cache, sizeof cache, "%s/cache", tmp);
    snprintf(data, sizeof data, "%s/data", tmp);
    setenv("XDG_CACHE_HOME", cache, 1);
    setenv("XDG_DATA_HOME", data, 1);
    setenv("GPULEARN_NO_GPU", "1", 1);

    printf("\nEnd-to-end command line: GPULEARN_NO_GPU=1 %s run SPEC > /dev/null\n"
           "(after one untimed run filling the caches; wall time of %d runs: median [min, "
           "max]; peak RSS: median)\n\n",
           gpulearn, reps);
    printf("%-28s %9s %9s %9s %9s %10s %10s\n", "spec", "elements", "median s", "min s", "max s",
           "RSS MiB", "RSS/byte");
    int fail = 0;
    for (size_t k = 0; k < sizeof cases / sizeof *cases && !fail; k++) {
        const cli_case *c = &cases[k];
        double t[99], rss[99];
        long kb = 0;
        if (run_once(gpulearn, c->spec, &t[0], &kb) != 0) {
            fprintf(stderr, "bench/cli: %s run %s failed\n", gpulearn, c->spec);
            fail = 1;
            break;
        }
        for (int i = 0; i < reps; i++) {
            if (run_once(gpulearn, c->spec, &t[i], &kb) != 0) {
                fprintf(stderr, "bench/cli: %s run %s failed\n", gpulearn, c->spec);
                fail = 1;
                break;
            }
            rss[i] = (double)kb * 1024.0;
        }
        if (fail)
            break;
        const double med = median(t, reps), rss_med = median(rss, reps);
        printf("%-28s %6s2^%d %9.2f %9.2f %9.2f %10.1f %10.3f\n", c->spec, "", c->log2_n, med, t[0],
               t[reps - 1], rss_med / 1048576.0, rss_med / c->buffer_bytes);
    }
    printf("\nRSS/byte: peak RSS over the bytes of the launch's buffers (each held once in\n"
           "simulated memory with one initcheck bit per byte, 1.125, plus the process's "
           "own memory).\n");
    nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return fail;
}

/* cli.c — `make bench`: end-to-end time of the command line on the simulator.
 *
 * Spawns `gpulearn run SPEC --sim-threads T` (the binary named by $GPULEARN, else
 * build/release/gpulearn; T 1, then the cores) with GPULEARN_NO_GPU=1 for vector add over 2^24 and 2^26
 * floats (bench/cli/vec_add_24.json and vec_add_26.json: random inputs a and b,
 * c = a + b): what a learner waits for, parsing, compiling (from the PTX cache),
 * generating the inputs, simulating, printing the summary, freeing. Each spec runs once
 * untimed (filling the PTX and translating-tier caches, in a temporary XDG_CACHE_HOME),
 * then BENCH_RUNS times (default 3; 1 with BENCH_QUICK=1); reported: the wall time and
 * the peak RSS (wait4's ru_maxrss), also per byte of the launch's buffers, each as the
 * median with the min and max of the runs under it.
 *
 * Exit status: 0 when every run exits 0, 1 when one does not, 2 when gpulearn or a
 * spec is missing or BENCH_RUNS is not a number from 1 to 100. Arguments are ignored (bench-run passes every bench the PTX folder).
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

#include "bench/spread.h"

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

/* Runs `gpulearn run spec --sim-threads threads` with stdout and stderr to /dev/null: wall seconds into
 * *secs, peak RSS (KiB) into *rss_kb. Returns its exit status, or -1 if it could not
 * be started or was killed. */
static int run_once(const char *gpulearn, const char *spec, const char *threads, double *secs,
                    long *rss_kb)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {(char *)gpulearn, "run", (char *)spec, "--sim-threads", (char *)threads, NULL};
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

/* Most runs BENCH_RUNS may ask for. */
enum { MAX_RUNS = 100 };

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
        const long n = strtol(env, &end, 10);
        if (*end || n < 1 || n > MAX_RUNS) {
            fprintf(stderr, "bench/cli: BENCH_RUNS=%s: a number of runs from 1 to %d\n", env,
                    MAX_RUNS);
            return 2;
        }
        runs = (int)n;
    }
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

    printf("\nEnd-to-end command line: GPULEARN_NO_GPU=1 gpulearn run SPEC --sim-threads T "
           "> /dev/null\n"
           "(gpulearn: %s)\n"
           "after one untimed run filling the caches; %d timed run%s (BENCH_RUNS)%s\n\n",
           gpulearn, runs, runs > 1 ? "s" : "",
           runs > 1 ? ": the median, min and max of each" : ", no spread");
    printf("%-28s %9s %7s %9s %10s %10s\n", "spec", "elements", "threads", "wall s", "RSS MiB",
           "RSS/byte");
    int fail = 0;
    const long ncores = sysconf(_SC_NPROCESSORS_ONLN);
    char cores[24];
    snprintf(cores, sizeof cores, "%ld", ncores > 0 ? ncores : 1);
    const char *const threads[] = {"1", cores};
    double rss1 = 0;
    for (size_t q = 0; q < 2 * (sizeof cases / sizeof *cases) && !fail; q++) {
        const cli_case *c = &cases[q / 2];
        const char *th = threads[q % 2];
        if (q % 2 && strcmp(th, "1") == 0)
            continue; /* one core: the one-thread row says it all */
        double t[MAX_RUNS], rss[MAX_RUNS];
        long kb = 0;
        if (run_once(gpulearn, c->spec, th, &t[0], &kb) != 0) {
            fprintf(stderr, "bench/cli: %s run %s failed\n", gpulearn, c->spec);
            fail = 1;
            break;
        }
        for (int i = 0; i < runs; i++) {
            if (run_once(gpulearn, c->spec, th, &t[i], &kb) != 0) {
                fprintf(stderr, "bench/cli: %s run %s failed\n", gpulearn, c->spec);
                fail = 1;
                break;
            }
            rss[i] = (double)kb / 1024.0; /* MiB */
        }
        if (fail)
            break;
        const spread ts = spread_of(t, runs), rs = spread_of(rss, runs);
        char elements[16];
        snprintf(elements, sizeof elements, "2^%d", c->log2_n);
        const double bytes_mib = c->buffer_bytes / 1048576.0;
        printf("%-28s %9s %7s %9.2f %10.1f %10.3f", c->spec, elements, th, ts.med, rs.med,
               rs.med / bytes_mib);
        if (q % 2)
            printf("  RSS %.2fx one thread's (target <= 1.25x)", rs.med / rss1);
        else
            rss1 = rs.med;
        printf("\n");
        if (runs > 1) {
            printf("%-28s %9s %7s %9.2f %10.1f %10.3f\n", "  min", "", "", ts.min, rs.min,
                   rs.min / bytes_mib);
            printf("%-28s %9s %7s %9.2f %10.1f %10.3f\n", "  max", "", "", ts.max, rs.max,
                   rs.max / bytes_mib);
        }
    }
    printf("\nRSS/byte: peak RSS over the bytes of the launch's buffers (each held once in\n"
           "simulated memory with one initcheck bit per byte, 1.125, plus the process's "
           "own memory).\n");
    nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return fail;
}

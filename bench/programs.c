/* programs.c — `make bench`: whole CUDA programs (`gpulearn run PROG.cu`) against issue
 * 31's "Speed and memory" targets, in one run (bench/README.md "Whole programs").
 *
 * Spawns `gpulearn run bench/programs/NAME.cu` (the binary named by $GPULEARN, else
 * build/release/gpulearn) with GPULEARN_NO_GPU=1 and a temporary XDG_CACHE_HOME; each
 * program runs once untimed first, which fills the build cache, so the timed runs run no
 * compiler. BENCH_RUNS times (default 3; 1 with BENCH_QUICK=1), the median with min and
 * max of:
 *   - overhead.cu (a trivial kernel between cudaMalloc, two cudaMemcpy, a launch,
 *     cudaDeviceSynchronize, cudaFree): the wall time of the whole command less the
 *     wall time its launch records (GPULEARN_PROG_RECORD) give the launches: start,
 *     API calls, copies. Target: under 50 ms.
 *   - memcpy.cu: cudaMemcpy of 256 MiB host to device and device to host, and a host
 *     memcpy of the same bytes, timed by the program (3 rounds a run after one that maps
 *     the pages). Target: each copy within 2x of the host memcpy (medians).
 *   - alloc.cu with 1024 and with 0 MiB (cudaMalloc, cudaMemset, a kernel writing every
 *     4 KiB): the peak RSS of the command (wait4's ru_maxrss, the program's process
 *     included) with 1 GiB less that with none. Target: at most 1.2 GiB.
 * Each target is judged on the medians: "met" or "NOT met".
 *
 * Exit status: 0 when every run exits 0, 1 when one does not or prints what is not
 * expected, 2 when gpulearn or a program is missing or BENCH_RUNS is not a number from
 * 1 to 100. Arguments are ignored (bench-run passes every bench the PTX folder). */
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

/* Most runs BENCH_RUNS may ask for; rounds of memcpy.cu a run. */
enum { MAX_RUNS = 100, ROUNDS = 3 };

/* Runs `gpulearn run prog [-- arg]` with stdout into out (NULL: /dev/null) and stderr to
 * /dev/null: wall seconds into *secs, peak RSS (KiB, of it and its children) into
 * *rss_kb. Returns its exit status, or -1 if it could not be started or was killed. */
static int run_once(const char *gpulearn, const char *prog, const char *arg, const char *out,
                    double *secs, long *rss_kb)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {(char *)gpulearn, "run", (char *)prog, arg ? "--" : NULL, (char *)arg, NULL};
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

/* The launches' wall time in a record file (docs/architecture.md "Whole programs",
 * launch records: each launch line's wall_end_ns - wall_start_ns), seconds; -1 when
 * there is no launch. */
static double launches_s(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[8192];
    double sum = 0;
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        const char *a = strstr(line, "\"wall_start_ns\":"), *b = strstr(line, "\"wall_end_ns\":");
        if (!strstr(line, "\"type\":\"launch\"") || !a || !b)
            continue;
        sum += strtod(b + 14, NULL) - strtod(a + 16, NULL);
        n++;
    }
    fclose(f);
    return n ? sum * 1e-9 : -1;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* One figure's row: its median, min and max, in unit. */
static void row(const char *name, const char *unit, spread s)
{
    printf("%-34s %10.2f %10.2f %10.2f  %s\n", name, s.med, s.min, s.max, unit);
}

/* One target's line: the figure judged (med) with the runs' spread, met or not. */
static void target(const char *what, double med, spread s, int met)
{
    printf("  %-52s %8.2f (%.2f-%.2f)  %s\n", what, med, s.min, s.max, met ? "met" : "NOT met");
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
        const long n = strtol(env, &end, 10);
        if (*end || n < 1 || n > MAX_RUNS) {
            fprintf(stderr, "bench/programs: BENCH_RUNS=%s: a number of runs from 1 to %d\n", env,
                    MAX_RUNS);
            return 2;
        }
        runs = (int)n;
    }
    static const char *const progs[] = {"bench/programs/overhead.cu", "bench/programs/memcpy.cu",
                                        "bench/programs/alloc.cu"};
    if (access(gpulearn, X_OK) != 0) {
        fprintf(stderr, "bench/programs: no gpulearn binary at %s (set GPULEARN)\n", gpulearn);
        return 2;
    }
    for (size_t k = 0; k < sizeof progs / sizeof *progs; k++)
        if (access(progs[k], R_OK) != 0) {
            fprintf(stderr, "bench/programs: cannot read %s (run from the repository root)\n",
                    progs[k]);
            return 2;
        }
    char tmp[] = "/tmp/gpulearn-bench-programs-XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("bench/programs: mkdtemp");
        return 2;
    }
    char cache[64], data[64], rec[64], out[64];
    snprintf(cache, sizeof cache, "%s/cache", tmp);
    snprintf(data, sizeof data, "%s/data", tmp);
    snprintf(rec, sizeof rec, "%s/records.jsonl", tmp);
    snprintf(out, sizeof out, "%s/stdout", tmp);
    setenv("XDG_CACHE_HOME", cache, 1);
    setenv("XDG_DATA_HOME", data, 1);
    setenv("GPULEARN_NO_GPU", "1", 1);
    unsetenv("GPULEARN_NO_CACHE");

    printf("\nWhole programs: GPULEARN_NO_GPU=1 gpulearn run bench/programs/NAME.cu\n"
           "(gpulearn: %s)\n"
           "after one untimed run of each filling the build cache; %d timed run%s "
           "(BENCH_RUNS)\n\n",
           gpulearn, runs, runs > 1 ? "s" : "");
    int fail = 0;
    double t, ignored;
    long kb;
    for (size_t k = 0; k < sizeof progs / sizeof *progs && !fail; k++)
        if (run_once(gpulearn, progs[k], k == 2 ? "0" : NULL, NULL, &t, &kb) != 0) {
            fprintf(stderr, "bench/programs: %s run %s failed\n", gpulearn, progs[k]);
            fail = 1;
        }
    double over[MAX_RUNS], total[MAX_RUNS], launch[MAX_RUNS];
    double host[MAX_RUNS * ROUNDS], h2d[MAX_RUNS * ROUNDS], d2h[MAX_RUNS * ROUNDS];
    double r2h[MAX_RUNS * ROUNDS], r2d[MAX_RUNS * ROUNDS];
    double rss0[MAX_RUNS], rss1[MAX_RUNS], extra[MAX_RUNS];
    int nround = 0;
    for (int i = 0; i < runs && !fail; i++) {
        /* the overhead: the command's wall time less its launches' */
        unlink(rec);
        setenv("GPULEARN_PROG_RECORD", rec, 1);
        const int rc = run_once(gpulearn, progs[0], NULL, NULL, &t, &kb);
        unsetenv("GPULEARN_PROG_RECORD");
        const double l = launches_s(rec);
        if (rc != 0 || l < 0) {
            fprintf(stderr, "bench/programs: %s failed, or wrote no launch record\n", progs[0]);
            fail = 1;
            break;
        }
        total[i] = t * 1e3;
        launch[i] = l * 1e3;
        over[i] = (t - l) * 1e3;
        /* the copies, as the program timed them */
        char rounds[8];
        snprintf(rounds, sizeof rounds, "%d", ROUNDS);
        if (run_once(gpulearn, progs[1], rounds, out, &t, &kb) != 0) {
            fprintf(stderr, "bench/programs: %s failed\n", progs[1]);
            fail = 1;
            break;
        }
        FILE *f = fopen(out, "r");
        double a, b, c;
        int got = 0;
        while (f && fscanf(f, "host_ms %lf h2d_ms %lf d2h_ms %lf\n", &a, &b, &c) == 3 &&
               nround < MAX_RUNS * ROUNDS) {
            host[nround] = a, h2d[nround] = b, d2h[nround] = c;
            r2d[nround] = b / a, r2h[nround] = c / a;
            nround++, got++;
        }
        if (f)
            fclose(f);
        if (got != ROUNDS) {
            fprintf(stderr, "bench/programs: %s printed %d rounds, not %d\n", progs[1], got,
                    ROUNDS);
            fail = 1;
            break;
        }
        /* the memory: 1 GiB of device memory against none, alternately */
        if (run_once(gpulearn, progs[2], "1024", NULL, &ignored, &kb) != 0) {
            fprintf(stderr, "bench/programs: %s 1024 failed\n", progs[2]);
            fail = 1;
            break;
        }
        rss1[i] = (double)kb / 1048576.0;
        if (run_once(gpulearn, progs[2], "0", NULL, &ignored, &kb) != 0) {
            fprintf(stderr, "bench/programs: %s 0 failed\n", progs[2]);
            fail = 1;
            break;
        }
        rss0[i] = (double)kb / 1048576.0;
        extra[i] = rss1[i] - rss0[i];
    }
    if (!fail) {
        const spread so = spread_of(over, runs), st = spread_of(total, runs),
                     sl = spread_of(launch, runs), sh = spread_of(host, nround),
                     sd = spread_of(h2d, nround), sb = spread_of(d2h, nround),
                     rd = spread_of(r2d, nround), rb = spread_of(r2h, nround),
                     s0 = spread_of(rss0, runs), s1 = spread_of(rss1, runs),
                     se = spread_of(extra, runs);
        printf("%-34s %10s %10s %10s\n", "figure", "median", "min", "max");
        row("overhead.cu: whole command", "ms", st);
        row("overhead.cu: its launch", "ms", sl);
        row("overhead.cu: overhead", "ms", so);
        row("memcpy.cu: host memcpy 256 MiB", "ms", sh);
        row("memcpy.cu: cudaMemcpy H2D", "ms", sd);
        row("memcpy.cu: cudaMemcpy D2H", "ms", sb);
        row("memcpy.cu: H2D / host (a round)", "x", rd);
        row("memcpy.cu: D2H / host (a round)", "x", rb);
        row("alloc.cu 0 MiB: peak RSS", "GiB", s0);
        row("alloc.cu 1024 MiB: peak RSS", "GiB", s1);
        row("alloc.cu: 1 GiB over none", "GiB", se);
        printf("\ntargets (judged on the medians; min-max in brackets):\n");
        target("overhead over the kernels' simulation < 50 ms", so.med, so, so.med < 50);
        target("cudaMemcpy H2D 256 MiB within 2x of host memcpy", sd.med / sh.med, rd,
               sd.med <= 2 * sh.med);
        target("cudaMemcpy D2H 256 MiB within 2x of host memcpy", sb.med / sh.med, rb,
               sb.med <= 2 * sh.med);
        target("1 GiB of device memory: peak RSS over none <= 1.2 GiB", se.med, se, se.med <= 1.2);
    }
    nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return fail;
}

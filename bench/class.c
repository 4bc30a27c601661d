/* class.c — `make bench`: grading a class (issue 35's target: 300 submissions of a lesson
 * 1-10 exercise in under 10 minutes on a 16-core host).
 *
 * Makes a class folder of BENCH_CLASS submissions (default 300; 32 with BENCH_QUICK=1)
 * from tests/grade/01-threads (its .cu files in turn, each copy named student-NNN.cu),
 * then times `gpulearn grade 1 --batch DIR --seed 1 --out ...` (the binary named by
 * $GPULEARN, else build/release/gpulearn; GPULEARN_NO_GPU=1, every core: the default
 * --jobs) once, end to end: compiling each submission in the sandbox, grading it against
 * the reference, writing the reports. Prints the wall time, the submissions per minute
 * and the time the target's 300 would take at that rate.
 *
 * Exit status: 0 when the batch ran (its exit 1, some submissions failing, is a grade),
 * 2 when gpulearn or the submissions are missing or the batch could not run.
 * Arguments are ignored. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/spread.h"

extern char **environ;

#define SOURCES "tests/grade/01-threads"
enum { MAX_SOURCES = 256, MAX_CLASS = 5000 };

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static int is_cu(const struct dirent *d)
{
    const size_t n = strlen(d->d_name);
    return n > 3 && strcmp(d->d_name + n - 3, ".cu") == 0;
}

/* Copies file src to dst: 0, or -1. */
static int copy_file(const char *src, const char *dst)
{
    FILE *in = fopen(src, "rb"), *out = in ? fopen(dst, "wb") : NULL;
    char buf[1 << 14];
    size_t n;
    int ok = in && out;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

int main(void)
{
    const char *gpulearn = getenv("GPULEARN");
    if (!gpulearn || !*gpulearn)
        gpulearn = "build/release/gpulearn";
    const char *quick = getenv("BENCH_QUICK"), *env = getenv("BENCH_CLASS");
    int n = quick && *quick && strcmp(quick, "0") != 0 ? 32 : 300;
    if (env && *env) {
        n = atoi(env);
        if (n < 1 || n > MAX_CLASS) {
            fprintf(stderr, "bench/class: BENCH_CLASS=%s: a class of 1 to %d\n", env, MAX_CLASS);
            return 2;
        }
    }
    if (access(gpulearn, X_OK) != 0) {
        fprintf(stderr, "bench/class: no gpulearn binary at %s (set GPULEARN)\n", gpulearn);
        return 2;
    }
    struct dirent **src = NULL;
    const int nsrc = scandir(SOURCES, &src, is_cu, alphasort);
    if (nsrc <= 0) {
        fprintf(stderr, "bench/class: no submissions in %s (run from the repository root)\n",
                SOURCES);
        return 2;
    }
    char tmp[] = "/tmp/gpulearn-bench-class-XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("bench/class: mkdtemp");
        return 2;
    }
    char dir[128], path[512], from[512], out[160], cache[128], data[128];
    snprintf(dir, sizeof dir, "%s/class", tmp);
    snprintf(out, sizeof out, "%s/grades", tmp);
    snprintf(cache, sizeof cache, "%s/cache", tmp);
    snprintf(data, sizeof data, "%s/data", tmp);
    int rc = mkdir(dir, 0755) == 0 ? 0 : 2;
    for (int i = 0; i < n && rc == 0; i++) {
        snprintf(from, sizeof from, SOURCES "/%s", src[i % nsrc]->d_name);
        snprintf(path, sizeof path, "%s/student-%03d.cu", dir, i);
        if (copy_file(from, path) != 0)
            rc = 2;
    }
    for (int i = 0; i < nsrc; i++)
        free(src[i]);
    free(src);
    if (rc) {
        fprintf(stderr, "bench/class: cannot make the class folder in %s\n", tmp);
        nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        return 2;
    }
    setenv("XDG_CACHE_HOME", cache, 1);
    setenv("XDG_DATA_HOME", data, 1);
    setenv("GPULEARN_NO_GPU", "1", 1);
    unsetenv("GPULEARN_JOBS");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {(char *)gpulearn, "grade", "1",     "--batch", dir,
                    "--seed",         "1",     "--out", out,       NULL};
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("\nGrading a class: gpulearn grade 1 --batch DIR --seed 1 (%d submissions from "
           "%s, every core: %ld)\n",
           n, SOURCES, cores);
    const double t0 = wall_s();
    pid_t pid;
    int status = 0;
    if (posix_spawn(&pid, gpulearn, &fa, NULL, argv, environ) != 0 ||
        waitpid(pid, &status, 0) != pid)
        rc = 2;
    const double secs = wall_s() - t0;
    posix_spawn_file_actions_destroy(&fa);
    if (!rc && !(WIFEXITED(status) && WEXITSTATUS(status) <= 1)) {
        fprintf(stderr, "bench/class: the batch ended with status %d\n", status);
        rc = 2;
    }
    if (!rc) {
        const double per_min = n / secs * 60.0, at300 = 300.0 / per_min * 60.0;
        printf("  %d submissions in %.1f s: %.1f per minute; 300 would take %.0f s "
               "(target on 16 cores: under 600 s)%s\n",
               n, secs, per_min, at300,
               cores >= 16 ? (at300 < 600 ? ": met" : ": NOT met") : " (fewer cores here)");
    }
    nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return rc;
}

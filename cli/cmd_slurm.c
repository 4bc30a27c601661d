/* cmd_slurm.c — `gpulearn classroom slurm LESSON --batch DIR [--shards N] [--gpus]
 * [--partition P] [--time T] [--cpus N] [--seed S] [--out FOLDER]`: writes the scripts
 * that grade a class folder on a Slurm cluster: FOLDER/grade.sbatch, a job array of N
 * tasks, task K running `grade LESSON --batch DIR --shard K/N --seed S`;
 * FOLDER/merge.sbatch, `grade merge` of the N parts into FOLDER/grades-<lesson>.csv and
 * .json; and FOLDER/submit.sh, which submits the array and the merge as a job that
 * waits for every task (sbatch --dependency=afterok:JOBID). One seed, fixed here, is
 * written into both, so the merged reports are the unsharded batch's. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "runtime/grade.h"
#include "runtime/lesson.h"

/* The job array's tasks when --shards is not given. */
#define SLURM_SHARDS_DEFAULT 4
/* CPUs per task when --cpus is not given: each task grades that many submissions at
 * once (--jobs). */
#define SLURM_CPUS_DEFAULT 4

/* s single-quoted for sh (' as '\''), appended to f. */
static void sh_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

/* Whether s holds a control character (a newline would end a script's line). */
static int has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 1;
    return 0;
}

/* Whether s is a value an #SBATCH line can carry as it is (a partition, a time):
 * letters, digits and _ . : , + - only. */
static int sbatch_word(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("_.:,+-", *s))
            return 0;
    return 1;
}

/* A whole number in [lo, hi] from s: 0 with *v set, else -1. */
static int parse_count(const char *s, long lo, long hi, long *v)
{
    char *end = NULL;
    errno = 0;
    const long n = strtol(s, &end, 10);
    if (!isdigit((unsigned char)s[0]) || *end || errno || n < lo || n > hi)
        return -1;
    *v = n;
    return 0;
}

/* Whether folder `inner` (a real path) is `outer` or lies inside it. */
static int folder_within(const char *inner, const char *outer)
{
    const size_t n = strlen(outer);
    return strncmp(inner, outer, n) == 0 &&
           (inner[n] == '\0' || inner[n] == '/' || (n == 1 && outer[0] == '/'));
}

/* Writes text (len bytes) to FOLDER/name, never through a link: 0, or 2 after the
 * message. */
static int write_file(const char *folder, const char *name, const char *text, size_t len)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    gl_error err = {0};
    if (!text || gl_write_report(path, text, len, &err) != GL_OK) {
        fprintf(stderr, "gpulearn: %s\n", text ? err.msg : "out of memory");
        return 2;
    }
    return 0;
}

/* The options, checked. */
typedef struct slurm_job {
    const char *lesson; /* as the scripts name it: an id, or a lesson folder's real path */
    const char *id;
    const char *dir; /* the class folder, as given (relative to cwd) */
    char cwd[PATH_MAX], exe[PATH_MAX], out[PATH_MAX];
    long shards, cpus;
    int gpus;
    const char *partition, *time;
    unsigned long long seed;
} slurm_job;

/* The #SBATCH lines both scripts share, and the lines that find gpulearn and the
 * folder DIR is relative to. */
static void script_head(FILE *f, const slurm_job *j, const char *what)
{
    fprintf(f, "#!/bin/sh\n");
    fprintf(f, "#SBATCH --job-name=gpulearn-%s%s\n", j->id, what);
    if (j->partition)
        fprintf(f, "#SBATCH --partition=%s\n", j->partition);
    if (j->time)
        fprintf(f, "#SBATCH --time=%s\n", j->time);
}

static void script_env(FILE *f, const slurm_job *j)
{
    fputs("# gpulearn on the compute nodes (GPULEARN=... sbatch ... names another)\n"
          "GPULEARN=${GPULEARN:-",
          f);
    sh_quote(f, j->exe);
    fputs("}\ncd ", f);
    sh_quote(f, j->cwd);
    fputs(" || exit 2\n", f);
}

/* grade.sbatch: task K of the array grades share K. */
static char *grade_script(const slurm_job *j, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    script_head(f, j, "");
    fprintf(f, "#SBATCH --array=0-%ld\n", j->shards - 1);
    fprintf(f, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=%ld\n", j->cpus);
    if (j->gpus)
        fputs("#SBATCH --gres=gpu:1\n", f);
    fputs("#SBATCH --output=logs/grade-%A_%a.out\n", f);
    fprintf(f,
            "# Written by gpulearn classroom slurm: array task K grades share K of %ld of the\n"
            "# class folder (its sorted submissions K, K+%ld, ...) with seed %llu, into\n"
            "# parts/part-K.csv and .json; merge.sbatch joins them.\n",
            j->shards, j->shards, j->seed);
    script_env(f, j);
    fputs("\"$GPULEARN\" grade ", f);
    sh_quote(f, j->lesson);
    fputs(" --batch ", f);
    sh_quote(f, j->dir);
    fprintf(f, " --seed %llu --shard \"$SLURM_ARRAY_TASK_ID/%ld\" --backend %s \\\n", j->seed,
            j->shards, j->gpus ? "gpu" : "sim");
    fputs("    --jobs \"${SLURM_CPUS_PER_TASK:-1}\" --out ", f);
    sh_quote(f, j->out);
    fputs("/parts/part-\"$SLURM_ARRAY_TASK_ID\"\n", f);
    fputs("rc=$?\n"
          "# 1: a submission failed its checks, a grade and not a failed task (the merge\n"
          "# runs only after every task succeeded)\n"
          "[ $rc -le 1 ] && exit 0\n"
          "exit $rc\n",
          f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* merge.sbatch: the parts joined, checked against the folder. */
static char *merge_script(const slurm_job *j, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    script_head(f, j, "-merge");
    fputs("#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n", f);
    fputs("#SBATCH --output=logs/merge-%j.out\n", f);
    fprintf(f,
            "# Written by gpulearn classroom slurm: joins the %ld parts of grade.sbatch\n"
            "# (seed %llu) into grades-%s.csv and .json, the reports of the whole folder.\n",
            j->shards, j->seed, j->id);
    script_env(f, j);
    fputs("\"$GPULEARN\" grade merge ", f);
    sh_quote(f, j->out);
    fprintf(f, "/grades-%s \\\n", j->id);
    for (long k = 0; k < j->shards; k++) {
        fputs("    ", f);
        sh_quote(f, j->out);
        fprintf(f, "/parts/part-%ld \\\n", k);
    }
    fputs("    --lesson ", f);
    sh_quote(f, j->lesson);
    fprintf(f, " --seed %llu --batch ", j->seed);
    sh_quote(f, j->dir);
    fputs("\nrc=$?\n"
          "# 1: a submission failed its checks (the grades are written)\n"
          "[ $rc -le 1 ] && exit 0\n"
          "exit $rc\n",
          f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* submit.sh: the array, then the merge after it. */
static char *submit_script(const slurm_job *j, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    fprintf(f,
            "#!/bin/sh\n"
            "# Written by gpulearn classroom slurm: submits grade.sbatch (%ld array tasks) and\n"
            "# merge.sbatch to run after every task succeeded. Options given are passed to\n"
            "# both sbatch calls (sh submit.sh --account=ACCOUNT).\n"
            "set -e\n"
            "cd \"$(dirname \"$0\")\"\n"
            "mkdir -p logs parts\n"
            "array=$(sbatch --parsable \"$@\" grade.sbatch)\n"
            "array=${array%%%%;*}\n"
            "merge=$(sbatch --parsable \"$@\" --dependency=afterok:\"$array\" merge.sbatch)\n"
            "merge=${merge%%%%;*}\n"
            "echo \"submitted job array $array (%ld tasks) and merge job $merge; the grades "
            "will be in $(pwd)/grades-%s.csv and .json\"\n"
            "echo \"$array $merge\" > jobs\n",
            j->shards, j->shards, j->id);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

int cmd_classroom_slurm(int argc, char **argv)
{
    const char *batch = NULL, *shards = NULL, *partition = NULL, *time_arg = NULL, *cpus = NULL,
               *seed = NULL, *out = NULL, *lesson_arg = NULL;
    int gpus = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = strcmp(a, "--batch") == 0       ? &batch
                            : strcmp(a, "--shards") == 0    ? &shards
                            : strcmp(a, "--partition") == 0 ? &partition
                            : strcmp(a, "--time") == 0      ? &time_arg
                            : strcmp(a, "--cpus") == 0      ? &cpus
                            : strcmp(a, "--seed") == 0      ? &seed
                            : strcmp(a, "--out") == 0       ? &out
                                                            : NULL;
        if (strcmp(a, "--gpus") == 0)
            gpus = 1;
        else if (slot && i + 1 < argc)
            *slot = argv[++i];
        else if (slot)
            return cli_usage_error("%s needs a value", a);
        else if (a[0] == '-' && a[1])
            return cli_usage_error("classroom slurm: unknown option '%s'", a);
        else if (lesson_arg)
            return cli_usage_error("classroom slurm: one lesson at a time ('%s')", a);
        else
            lesson_arg = a;
    }
    if (!lesson_arg || !batch)
        return cli_usage_error("classroom slurm needs a lesson and the class folder "
                               "(gpulearn classroom slurm LESSON --batch DIR)%s",
                               "");
    slurm_job j = {.dir = batch, .gpus = gpus, .partition = partition, .time = time_arg};
    if (parse_count(shards ? shards : "4", 1, CLI_SHARDS_MAX, &j.shards))
        return cli_usage_error("--shards must be a whole number from 1 to 4096, not '%s'", shards);
    if (parse_count(cpus ? cpus : "4", 1, 1024, &j.cpus))
        return cli_usage_error("--cpus must be a whole number from 1 to 1024, not '%s'", cpus);
    if (partition && !sbatch_word(partition))
        return cli_usage_error("--partition: letters, digits and _ . : , + - only, not '%s'",
                               partition);
    if (time_arg && !sbatch_word(time_arg))
        return cli_usage_error("--time must be a Slurm time such as 30, 1:00:00 or 1-12, "
                               "not '%s'",
                               time_arg);
    if (seed) {
        long v;
        if (parse_count(seed, 0, 0xffffffffL, &v))
            return cli_usage_error("--seed must be a whole number from 0 to 4294967295, not '%s'",
                                   seed);
        j.seed = (unsigned long long)v;
    } else {
        j.seed = grade_new_seed();
    }
    if (has_control(batch) || (out && has_control(out)))
        return cli_usage_error("classroom slurm: a path with a control character ('%s')", batch);
    gl_lesson l;
    int rc = cli_exercise_lesson(lesson_arg, "grade", &l);
    if (rc)
        return rc;
    j.id = l.id;
    /* the lesson as the scripts name it: its id, or its folder's real path */
    char lesson_path[PATH_MAX];
    j.lesson = l.id;
    if (strchr(lesson_arg, '/') && realpath(l.dir, lesson_path))
        j.lesson = lesson_path;
    char real_dir[PATH_MAX], real_lesson[PATH_MAX], default_out[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", j.exe, sizeof j.exe - 1);
    struct stat st;
    if (n <= 0 || !getcwd(j.cwd, sizeof j.cwd) || has_control(j.cwd) || has_control(j.lesson)) {
        fprintf(stderr, "gpulearn: cannot tell where gpulearn or the current folder is\n");
        lesson_free(&l);
        return 2;
    }
    j.exe[n] = '\0';
    if (!realpath(batch, real_dir) || stat(real_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "gpulearn: --batch %s: %s\n", batch,
                errno ? strerror(errno) : "not a folder");
        lesson_free(&l);
        return 2;
    }
    if (!out) {
        snprintf(default_out, sizeof default_out, "slurm-%s", l.id);
        out = default_out;
    }
    if (mkdir(out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "gpulearn: --out %s: %s\n", out, strerror(errno));
        lesson_free(&l);
        return 2;
    }
    if (!realpath(out, j.out) || has_control(j.out)) {
        fprintf(stderr, "gpulearn: --out %s: %s\n", out, strerror(errno));
        lesson_free(&l);
        return 2;
    }
    /* as grade --batch's reports: never in the graded folder or the lesson's */
    if (folder_within(j.out, real_dir) ||
        (realpath(l.dir, real_lesson) && folder_within(j.out, real_lesson))) {
        fprintf(stderr,
                "gpulearn: --out %s: inside the %s folder: the scripts, parts and grades go "
                "elsewhere\n",
                out, folder_within(j.out, real_dir) ? "graded" : "lesson's");
        lesson_free(&l);
        return 2;
    }
    char sub[PATH_MAX + 16];
    for (int i = 0; i < 2; i++) {
        snprintf(sub, sizeof sub, "%s/%s", j.out, i ? "parts" : "logs");
        if (mkdir(sub, 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "gpulearn: %s: %s\n", sub, strerror(errno));
            lesson_free(&l);
            return 2;
        }
    }
    size_t glen = 0, mlen = 0, slen = 0;
    char *g = grade_script(&j, &glen), *m = merge_script(&j, &mlen), *s = submit_script(&j, &slen);
    rc = write_file(j.out, "grade.sbatch", g, glen);
    if (!rc)
        rc = write_file(j.out, "merge.sbatch", m, mlen);
    if (!rc)
        rc = write_file(j.out, "submit.sh", s, slen);
    free(g), free(m), free(s);
    if (!rc) {
        char shown[PATH_MAX];
        gl_escape_term(shown, sizeof shown, out, 0);
        printf("wrote %s/grade.sbatch (a job array of %ld tasks, %ld CPUs%s each, seed %llu), "
               "%s/merge.sbatch and %s/submit.sh\n",
               shown, j.shards, j.cpus, j.gpus ? " and a GPU" : "", j.seed, shown, shown);
        printf("submit with:\n    sh %s/submit.sh\n", shown);
        printf("the grades: %s/grades-%s.csv and .json once the merge job has run "
               "(squeue --me shows the jobs; logs in %s/logs)\n",
               shown, l.id, shown);
    }
    lesson_free(&l);
    return rc;
}

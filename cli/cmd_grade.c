/* cmd_grade.c — `gpulearn grade LESSON [FILE.cu] [--format text|json|junit]` and
 * `gpulearn grade LESSON --batch DIR [--out PREFIX]`. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli/cli.h"
#include "runtime/child.h"
#include "runtime/grade.h"
#include "runtime/lesson.h"
#include "runtime/pool.h"
#include "runtime/sandbox.h"
#include "runtime/wire.h"
#include "runtime/workspace.h"

/* Wall-clock limit for grading one submission of a batch, seconds. The simulator's
 * step limit stops endless loops long before; this catches anything else. */
#define BATCH_SUBMISSION_SECONDS 300

/* The message a batch grading child sends (runtime/child.h): a batch_out in runtime/wire.h's
 * codec. */
enum { BATCH_MSG_REPORT = 1 };

/* The largest report taken, bytes. */
#define BATCH_REPORT_MAX ((uint64_t)256 << 20)

typedef struct grade_args {
    const gl_lesson *l;
    const char *path;
    const gl_grade_opts *opts;
} grade_args;

/* What a submission's worker sends: grade_exercise's status and message, and the report
 * when it graded. */
typedef struct batch_out {
    gl_status st;
    const char *msg;
    const gl_grade_report *rep; /* st == GL_OK */
} batch_out;

static void put_out(gl_wire_out *w, const void *obj)
{
    const batch_out *o = obj;
    gl_wire_put_status(w, o->st, o->msg);
    if (o->st == GL_OK)
        gl_wire_put_report(w, o->rep);
}

/* grade_in_child's child (a gl_child body): grades, sends the report (or the error) and
 * exits 0 when grading worked, else 3. */
static void grade_child(int fd, void *arg)
{
    const grade_args *a = arg;
    gl_grade_report rep;
    gl_error err = {0};
    gl_status st = grade_exercise(a->l, a->path, a->opts, &rep, &err);
    gl_wire_send(fd, BATCH_MSG_REPORT, 0, put_out, &(batch_out){st, err.msg, &rep});
    _exit(st == GL_OK ? 0 : 3);
}

/* A batch's submissions, each graded in a worker of its own (a gl_pool body). */
typedef struct batch_jobs {
    const gl_lesson *l;
    const char *dir;
    struct dirent **names;
    const gl_grade_opts *opts;
} batch_jobs;

static void batch_child(int fd, int job, void *ctx)
{
    const batch_jobs *b = ctx;
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", b->dir, b->names[job]->d_name);
    grade_args a = {b->l, path, b->opts};
    grade_child(fd, &a);
}

/* The report a submission's worker sent, so that nothing one submission does (a crash,
 * a hang) reaches the others: 0 with *rep filled in (grade_report_free), or -1 with why
 * set (the worker's error, or how it ended). */
static int batch_report(gl_pool_result *res, gl_grade_report *rep, char *why, size_t why_len)
{
    memset(rep, 0, sizeof *rep);
    const gl_msg_in *m = res && res->nmsgs >= 1 ? &res->msgs[0] : NULL;
    if (res && res->start_errno)
        snprintf(why, why_len, "cannot start the grader: %s", strerror(res->start_errno));
    else if (res && res->end == GL_MSG_TIMEOUT)
        snprintf(why, why_len, "grading took longer than %d seconds and was stopped",
                 BATCH_SUBMISSION_SECONDS);
    else if (res && res->exit.signal)
        snprintf(why, why_len, "the grader crashed on this submission (signal %d)",
                 res->exit.signal);
    else if (!m || m->h.type != BATCH_MSG_REPORT || m->h.len == 0)
        snprintf(why, why_len, "the grader produced no report");
    else {
        gl_wire_in in = gl_wire_in_of(m->data, (size_t)m->h.len);
        gl_status st;
        gl_wire_get_status(&in, &st, why, why_len);
        if (in.ok && st == GL_OK && gl_wire_get_report(&in, rep) == 0 && in.p == in.end)
            return 0;
        if (!in.ok || st == GL_OK || in.p != in.end)
            snprintf(why, why_len, "the grader's report could not be read");
        grade_report_free(rep);
        memset(rep, 0, sizeof *rep);
    }
    return -1;
}

/* The progress line of a batch on a terminal (stderr): submissions graded of all,
 * time elapsed and an estimate of the time left. */
typedef struct batch_progress {
    int on;    /* stderr is a terminal */
    int shown; /* the line is on the screen */
    double t0; /* the batch's start (gl_child_now) */
    int done, total;
} batch_progress;

/* s seconds as "42s" or "3m07s". */
static void duration(char *buf, size_t n, double s)
{
    const long t = (long)(s + 0.5);
    if (t < 60)
        snprintf(buf, n, "%lds", t);
    else
        snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
}

static void progress_draw(batch_progress *p)
{
    if (!p->on)
        return;
    const double el = gl_child_now() - p->t0;
    char e[32], left[64] = "";
    duration(e, sizeof e, el);
    if (p->done > 0 && p->done < p->total) {
        char l[32];
        duration(l, sizeof l, el / p->done * (p->total - p->done));
        snprintf(left, sizeof left, ", about %s left", l);
    }
    fprintf(stderr, "\r\033[K%d of %d graded, %s elapsed%s", p->done, p->total, e, left);
    p->shown = 1;
}

/* A gl_pool progress hook. */
static void progress_update(void *ctx, int done, int total)
{
    batch_progress *p = ctx;
    p->done = done, p->total = total;
    progress_draw(p);
}

/* Takes the line off the screen (before a line of the batch's own output). */
static void progress_clear(batch_progress *p)
{
    if (p->shown)
        fputs("\r\033[K", stderr);
    p->shown = 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_cu(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return d->d_name[0] != '.' && n > 3 && strcmp(d->d_name + n - 3, ".cu") == 0;
}

/* A CSV field, quoted when it needs to be. */
/* One CSV field (RFC 4180 quoting). A field a spreadsheet would take for a formula
 * (starting with = + - @, tab or carriage return: a submission named
 * "=HYPERLINK(...).cu") gets a leading apostrophe inside quotes, so that it shows as
 * text (OWASP, "CSV Injection"). */
static void csv_field(FILE *f, const char *s)
{
    const int formula = *s && strchr("=+-@\t\r", *s);
    if (!formula && !strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    if (formula)
        fputc('\'', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* obj[key] = s as valid UTF-8 (gl_utf8_clean: a byte that is not is U+FFFD). */
static void add_text(cJSON *obj, const char *key, const char *s)
{
    char *clean = gl_utf8_clean(s);
    cJSON_AddStringToObject(obj, key, clean ? clean : "");
    free(clean);
}

/* s escaped for the terminal (gl_escape_term) into buf. */
static const char *term(char *buf, size_t len, const char *s)
{
    gl_escape_term(buf, len, s, 0);
    return buf;
}

/* Whether folder `inner` (a real path) is `outer` or lies inside it. */
static int folder_within(const char *inner, const char *outer)
{
    const size_t n = strlen(outer);
    return strncmp(inner, outer, n) == 0 &&
           (inner[n] == '\0' || inner[n] == '/' || (n == 1 && outer[0] == '/'));
}

/* Where a batch's reports go: prefix (--out), else grades-<lesson id> in the folder that
 * holds the graded folder: beside it, never in it. A prefix whose folder is the graded
 * folder or inside it is refused (a submission there could put a link in a report's
 * place), and so is the lesson's own folder (its files are inputs). 0 with out[n] set,
 * or the exit code after the message. */
static int report_prefix(const gl_lesson *l, const char *dir, const char *prefix, char *out,
                         size_t n)
{
    char real_dir[PATH_MAX], real_out[PATH_MAX], real_lesson[PATH_MAX], folder[PATH_MAX];
    if (!realpath(dir, real_dir)) {
        fprintf(stderr, "gpulearn: %s: %s\n", dir, strerror(errno));
        return 2;
    }
    if (!prefix) {
        snprintf(folder, sizeof folder, "%s", real_dir);
        char *slash = strrchr(folder, '/');
        if (slash)
            slash[slash == folder] = '\0'; /* "/subs" is in "/" */
        char full[PATH_MAX + 80];
        snprintf(full, sizeof full, "%s%sgrades-%s", folder, strcmp(folder, "/") ? "/" : "", l->id);
        if (strlen(full) >= n)
            return cli_usage_error("%s: the path is too long", dir);
        snprintf(out, n, "%s", gl_display_path(full)); /* relative when under here */
        return 0;
    }
    snprintf(folder, sizeof folder, "%s", prefix);
    char *slash = strrchr(folder, '/');
    if (slash)
        slash[slash == folder] = '\0';
    else
        snprintf(folder, sizeof folder, ".");
    /* before any grading: a report that cannot be written would lose it all */
    if (!realpath(folder, real_out) || access(real_out, W_OK) != 0) {
        fprintf(stderr, "gpulearn: --out %s: %s: %s\n", prefix, folder, strerror(errno));
        return 2;
    }
    {
        if (folder_within(real_out, real_dir)) {
            fprintf(stderr,
                    "gpulearn: --out %s: inside the graded folder %s, where a submission could "
                    "put a link in a report's place: write the reports elsewhere (the default "
                    "is beside the graded folder)\n",
                    prefix, dir);
            return 2;
        }
        if (realpath(l->dir, real_lesson) && folder_within(real_out, real_lesson)) {
            fprintf(stderr,
                    "gpulearn: --out %s: inside the lesson's folder %s: write the reports "
                    "elsewhere\n",
                    prefix, l->dir);
            return 2;
        }
    }
    snprintf(out, n, "%s", prefix);
    return 0;
}

/* Writes a report (gl_write_report: never through a link) unless it is one of the
 * inputs, a submission under another name (a hard link): 0, or 2 after the message. */
static int write_report(const char *path, const char *data, size_t len, const char *dir,
                        struct dirent **names, int n)
{
    for (int i = 0; i < n; i++) {
        char sub[PATH_MAX * 2];
        snprintf(sub, sizeof sub, "%s/%s", dir, names[i]->d_name);
        if (gl_same_file(path, sub)) {
            char shown[1200];
            fprintf(stderr, "gpulearn: %s is the submission %s: not overwritten\n", path,
                    term(shown, sizeof shown, names[i]->d_name));
            return 2;
        }
    }
    gl_error err = {0};
    if (gl_write_report(path, data, len, &err) != GL_OK) {
        fprintf(stderr, "gpulearn: %s\n", err.msg);
        return 2;
    }
    return 0;
}

static int grade_batch(const gl_lesson *l, const char *dir, const char *prefix_arg,
                       const gl_grade_opts *opts)
{
    char prefix[PATH_MAX];
    int rc = report_prefix(l, dir, prefix_arg, prefix, sizeof prefix);
    if (rc)
        return rc;
    struct dirent **names = NULL;
    int n = scandir(dir, &names, is_cu, by_name);
    if (n < 0) {
        fprintf(stderr, "gpulearn: %s: cannot read the folder: %s\n", dir, strerror(errno));
        return 2;
    }
    if (n == 0) {
        free(names);
        fprintf(stderr,
                "gpulearn: %s: no .cu files to grade (one submission per learner, "
                "each a .cu file in the folder)\n",
                dir);
        return 2;
    }
    char csv_path[PATH_MAX + 8], json_path[PATH_MAX + 8];
    snprintf(csv_path, sizeof csv_path, "%s.csv", prefix);
    snprintf(json_path, sizeof json_path, "%s.json", prefix);
    /* a link or a folder in a report's place is refused before any grading (and again
     * when written: gl_write_report) */
    const char *const outs[] = {csv_path, json_path};
    for (int i = 0; i < 2; i++) {
        struct stat st;
        if (lstat(outs[i], &st) == 0 && !S_ISREG(st.st_mode)) {
            fprintf(stderr,
                    "gpulearn: %s: %s: the report is written to a regular file only, never "
                    "through a link (--out PREFIX names another place)\n",
                    outs[i], S_ISLNK(st.st_mode) ? "is a symbolic link" : "is not a regular file");
            for (int k = 0; k < n; k++)
                free(names[k]);
            free(names);
            return 2;
        }
    }
    char *csv_text = NULL;
    size_t csv_len = 0;
    FILE *csv = open_memstream(&csv_text, &csv_len);
    if (!csv) {
        fprintf(stderr, "gpulearn: out of memory\n");
        for (int i = 0; i < n; i++)
            free(names[i]);
        free(names);
        return 2;
    }
    /* Header: the report's checks, in order. */
    fputs("submission,verdict,checks_passed,checks_total", csv);
    char check_names[64][64];
    const int ncheck_names = grade_check_names(l->exercise, check_names, 64);
    for (int c = 0; c < ncheck_names; c++) {
        fputc(',', csv);
        csv_field(csv, check_names[c]);
    }
    fputs(",first_failure\n", csv);

    /* one seed for the whole class: every submission gets the same inputs */
    gl_grade_opts class_opts = *opts;
    if (!class_opts.seed_given)
        class_opts.seed = grade_new_seed(), class_opts.seed_given = 1;
    opts = &class_opts;
    char shown[4096], shown2[2048];
    printf("grading %s with random inputs from seed %llu (--seed %llu repeats them)\n",
           term(shown, sizeof shown, dir), (unsigned long long)class_opts.seed,
           (unsigned long long)class_opts.seed);
    cJSON *summary = cJSON_CreateObject();
    add_text(summary, "lesson", l->id);
    add_text(summary, "folder", dir);
    cJSON_AddNumberToObject(summary, "seed", (double)class_opts.seed);
    cJSON *subs = cJSON_AddArrayToObject(summary, "submissions");
    int npassed = 0, nfailed = 0, nerrors = 0;
    /* submissions in parallel, each in a worker of its own; fewer submissions than
     * workers share the rest among their runs (gl_grade_opts.jobs) */
    const int jobs = class_opts.jobs > 1 ? class_opts.jobs : 1;
    const int workers = jobs < n ? jobs : n;
    class_opts.jobs = jobs / workers;
    batch_jobs bj = {l, dir, names, opts};
    batch_progress prog = {.on = isatty(STDERR_FILENO), .t0 = gl_child_now(), .total = n};
    const gl_pool_opts po = {.workers = workers,
                             .njobs = n,
                             .body = batch_child,
                             .ctx = &bj,
                             .max_message = BATCH_REPORT_MAX,
                             .job_timeout_s = BATCH_SUBMISSION_SECONDS,
                             .progress = progress_update,
                             .progress_ctx = &prog};
    gl_pool *pool = gl_pool_new(&po);
    if (!pool) {
        fprintf(stderr, "gpulearn: out of memory\n");
        fclose(csv);
        free(csv_text);
        cJSON_Delete(summary);
        for (int i = 0; i < n; i++)
            free(names[i]);
        free(names);
        return 2;
    }
    for (int i = 0; i < n; i++) {
        char why[512] = "";
        gl_grade_report report;
        cJSON *rep = NULL;
        if (batch_report(gl_pool_wait(pool, i), &report, why, sizeof why) == 0) {
            rep = grade_report_to_json(&report);
            grade_report_free(&report);
            if (!rep)
                snprintf(why, sizeof why, "out of memory for the report");
        }
        progress_clear(&prog);
        /* a name (or a message quoting it) may hold any bytes but '/' and NUL: the
         * terminal gets it escaped, one line per submission */
        term(shown, sizeof shown, names[i]->d_name);
        csv_field(csv, names[i]->d_name);
        if (!rep) {
            nerrors++;
            fprintf(csv, ",error,0,%d", l->exercise->nchecks + 1);
            for (int c = 0; c <= l->exercise->nchecks; c++)
                fputs(",", csv);
            fputc(',', csv);
            csv_field(csv, why);
            fputc('\n', csv);
            cJSON *o = cJSON_CreateObject();
            add_text(o, "file", names[i]->d_name);
            cJSON_AddStringToObject(o, "verdict", "error");
            add_text(o, "error", why);
            cJSON_AddItemToArray(subs, o);
            printf("%-32s ERROR  %s\n", shown, term(shown2, sizeof shown2, why));
            fflush(stdout);
            progress_draw(&prog);
            continue;
        }
        int passed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rep, "passed"));
        const cJSON *checks = cJSON_GetObjectItemCaseSensitive(rep, "checks");
        int total = cJSON_GetArraySize(checks), ok = 0;
        const cJSON *c;
        /* the first check that failed; only when none did, the first not run */
        const char *first = "", *first_not_run = "";
        cJSON_ArrayForEach(c, checks)
        {
            int p = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "passed"));
            const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "status"));
            const char *nm = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "name"));
            ok += p;
            if (!p && st && strcmp(st, "not_run") == 0) {
                if (!*first_not_run && nm)
                    first_not_run = nm;
            } else if (!p && !*first && nm) {
                first = nm;
            }
        }
        if (!*first)
            first = first_not_run;
        fprintf(csv, ",%s,%d,%d", passed ? "pass" : "fail", ok, total);
        cJSON_ArrayForEach(c, checks)
        {
            const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "status"));
            fprintf(csv, ",%s", st ? st : "fail"); /* pass, fail or not_run */
        }
        fputc(',', csv);
        csv_field(csv, first ? first : "");
        fputc('\n', csv);
        npassed += passed;
        nfailed += !passed;
        printf("%-32s %s  %d of %d checks%s%s\n", shown, passed ? "PASS " : "FAIL ", ok, total,
               *first ? "; first failure: " : "", term(shown2, sizeof shown2, first));
        fflush(stdout);
        progress_draw(&prog);
        add_text(rep, "file", names[i]->d_name);
        cJSON_AddStringToObject(rep, "verdict", passed ? "pass" : "fail");
        cJSON_AddItemToArray(subs, rep);
    }
    gl_pool_free(pool);
    progress_clear(&prog);
    cJSON_AddNumberToObject(summary, "passed", npassed);
    cJSON_AddNumberToObject(summary, "failed", nfailed);
    cJSON_AddNumberToObject(summary, "errors", nerrors);
    rc = fclose(csv) == 0 && csv_text ? 0 : 2;
    if (rc)
        fprintf(stderr, "gpulearn: out of memory\n");
    char *js = cJSON_Print(summary);
    cJSON_Delete(summary);
    if (!rc)
        rc = write_report(csv_path, csv_text, csv_len, dir, names, n);
    if (!rc && !js) {
        fprintf(stderr, "gpulearn: out of memory\n");
        rc = 2;
    }
    if (!rc)
        rc = write_report(json_path, js, strlen(js), dir, names, n);
    free(js);
    free(csv_text);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    printf("%d submissions: %d passed, %d failed, %d could not be graded\n", n, npassed, nfailed,
           nerrors);
    if (rc)
        return rc;
    printf("wrote %s and %s\n", term(shown, sizeof shown, csv_path),
           term(shown2, sizeof shown2, json_path));
    return nfailed || nerrors ? 1 : 0;
}

int cmd_grade(int argc, char **argv)
{
    /* Options this command adds to the shared parser's: --batch DIR, --out PREFIX,
     * --format junit, --seed N, --memory-limit SIZE, --jobs N. */
    const char *batch = NULL, *out = NULL, *format = NULL, *seed = NULL, *memory = NULL,
               *jobs = NULL;
    int unsafe = 0, similarity = 0;
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    int nrest = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = strcmp(a, "--batch") == 0          ? &batch
                            : strcmp(a, "--out") == 0          ? &out
                            : strcmp(a, "--format") == 0       ? &format
                            : strcmp(a, "--seed") == 0         ? &seed
                            : strcmp(a, "--memory-limit") == 0 ? &memory
                            : strcmp(a, "--jobs") == 0         ? &jobs
                                                               : NULL;
        if (strcmp(a, "--unsafe-no-sandbox") == 0) {
            unsafe = 1;
            continue;
        }
        if (strcmp(a, "--similarity") == 0) {
            similarity = 1;
            continue;
        }
        if (slot) {
            if (i + 1 >= argc) {
                free(rest);
                return cli_usage_error("%s needs a value", a);
            }
            *slot = argv[++i];
        } else {
            rest[nrest++] = argv[i];
        }
    }
    if (format && strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "junit")) {
        free(rest);
        return cli_usage_error("--format must be text, json or junit, not '%s'", format);
    }
    cli c = {0};
    int rc = cli_parse_args(nrest, rest, &c,
                            "--backend --compiler --arch --sim-tier --sim-threads --verbose");
    free(rest);
    if (rc)
        return rc;
    if (c.npos < 1 || c.npos > 2 || (batch && c.npos != 1))
        return cli_usage_error("grade needs a lesson and optionally a .cu file "
                               "(gpulearn grade LESSON [FILE.cu] or "
                               "gpulearn grade LESSON --batch DIR)%s",
                               "");
    if ((out || similarity) && !batch)
        return cli_usage_error("%s goes with --batch", out ? "--out" : "--similarity");
    char why[256];
    const int njobs = gl_pool_workers(jobs, why, sizeof why);
    if (njobs < 0)
        return cli_usage_error("%s", why);
    gl_lesson l;
    if ((rc = cli_exercise_lesson(c.pos[0], "grade", &l)) != 0)
        return rc;
    gl_error err = {0};
    gl_status st;
    gl_grade_opts opts = {.backend = c.backend,
                          .compile = {.compiler = c.compiler,
                                      .verbose = c.verbose,
                                      .arch = c.arch,
                                      .arch_origin = c.arch ? "--arch" : NULL},
                          .jobs = njobs};
    if (seed) {
        char *end = NULL;
        errno = 0;
        unsigned long long v = strtoull(seed, &end, 10);
        if (!*seed || *end || errno || v > 0xffffffffull || seed[0] == '-') {
            lesson_free(&l);
            return cli_usage_error("--seed must be a whole number from 0 to 4294967295, not '%s'",
                                   seed);
        }
        opts.seed = v, opts.seed_given = 1;
    }
    if (memory &&
        (gl_parse_bytes(memory, &opts.memory_limit) != 0 || opts.memory_limit < (1u << 20))) {
        lesson_free(&l);
        return cli_usage_error("--memory-limit must be a size of at least 1 MiB (e.g. 512M, 2G), "
                               "not '%s'",
                               memory);
    }
    /* Submissions compile in a sandbox (runtime/sandbox.h). Without one, a class's
     * batch is not graded unless the instructor says so. */
    opts.no_sandbox = unsafe;
    if (!unsafe && !gl_sandbox_available()) {
        if (batch) {
            fprintf(stderr,
                    "gpulearn: refusing to grade %s without a sandbox: this kernel offers "
                    "no Landlock (Linux 5.13 or later with landlock in its LSM list), so a "
                    "submission could #include and quote any file you can read. Grade on a "
                    "machine that has it, or pass --unsafe-no-sandbox\n",
                    batch);
            lesson_free(&l);
            return 2;
        }
        fprintf(stderr, "gpulearn: warning: no sandbox (the kernel offers no Landlock): the "
                        "submission compiles with your rights\n");
    }
    if (batch) {
        rc = grade_batch(&l, batch, out, &opts);
        char prefix[PATH_MAX]; /* the copied-work report beside the grades */
        if (similarity && rc != 2 && report_prefix(&l, batch, out, prefix, sizeof prefix) == 0) {
            const int src = cmd_similar_batch(&l, batch, prefix);
            rc = src ? src : rc;
        }
        lesson_free(&l);
        return rc;
    }
    /* No file: the learner's copy when there is one, else the starter. */
    char copy[PATH_MAX];
    const char *file = c.npos == 2 ? c.pos[1] : NULL;
    if (!file && workspace_has_copy(&l, copy, sizeof copy))
        file = copy;
    gl_grade_report rep;
    st = grade_exercise(&l, file, &opts, &rep, &err);
    if (st == GL_OK) {
        if (format && strcmp(format, "json") == 0)
            grade_report_write_json(stdout, &rep);
        else if (format && strcmp(format, "junit") == 0)
            grade_report_write_junit(stdout, &rep);
        else
            grade_report_write_text(stdout, &rep);
        rc = rep.passed ? 0 : 1;
        if (rep.passed && file == copy) {
            gl_error perr = {0};
            if (progress_mark_passed(l.id, &perr) != GL_OK)
                fprintf(stderr, "gpulearn: warning: progress not saved: %s\n", perr.msg);
        }
    } else {
        rc = cli_die(st, err.msg);
    }
    grade_report_free(&rep);
    lesson_free(&l);
    return rc;
}

/* cmd_grade.c — `gpulearn grade LESSON [FILE.cu] [--format text|json|junit]
 * [--report FILE.json] [--check NAME]` (the last two: cmd_grade_check.c),
 * `gpulearn grade LESSON --batch DIR [--shard K/N] [--out PREFIX]`, and the batch's
 * report writer (cli.h, cli_batch) that `grade merge` (cmd_merge.c) shares. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli/cli.h"
#include "runtime/cache.h"
#include "runtime/child.h"
#include "runtime/grade.h"
#include "runtime/gradebook.h"
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
    const gl_child_msg *m = res && res->nmsgs >= 1 ? &res->msgs[0] : NULL;
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

int cli_batch_name_ok(const char *name)
{
    const size_t n = strlen(name);
    return name[0] != '.' && n > 3 && strcmp(name + n - 3, ".cu") == 0 && !strchr(name, '/');
}

static int is_cu(const struct dirent *d)
{
    return cli_batch_name_ok(d->d_name);
}

/* When the submission dir/name was last modified (its mtime, UTC, into when[32]), the
 * time `gpulearn gradebook --due` compares; NULL when it cannot be read. */
static const char *submitted_at(const char *dir, const char *name, char when[32])
{
    char path[PATH_MAX * 2];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (lstat(path, &st) != 0)
        return NULL;
    gl_gradebook_utc_format(when, 32, st.st_mtime);
    return when;
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

int cli_batch_open(cli_batch *b, const gl_lesson *l, const char *folder, uint64_t seed, int echo)
{
    memset(b, 0, sizeof *b);
    b->l = l, b->echo = echo;
    b->csv = open_memstream(&b->csv_text, &b->csv_len);
    b->summary = cJSON_CreateObject();
    if (!b->csv || !b->summary) {
        if (b->csv)
            fclose(b->csv);
        free(b->csv_text);
        cJSON_Delete(b->summary);
        memset(b, 0, sizeof *b);
        return 2;
    }
    /* Header: the report's checks, in order. */
    fputs("submission,verdict,checks_passed,checks_total", b->csv);
    char check_names[64][64];
    const int ncheck_names = grade_check_names(l->exercise, check_names, 64);
    for (int c = 0; c < ncheck_names; c++) {
        fputc(',', b->csv);
        gl_gradebook_csv_field(b->csv, check_names[c]);
    }
    fputs(",first_failure,score,max_score\n", b->csv);
    b->nchecks = ncheck_names;
    b->max_score = 0; /* what a submission passing every check earns */
    for (int c = 0; c < ncheck_names; c++)
        b->max_score += lesson_check_points(l->exercise, check_names[c]);
    add_text(b->summary, "lesson", l->id);
    add_text(b->summary, "folder", folder);
    cJSON_AddNumberToObject(b->summary, "seed", (double)seed);
    cJSON_AddNumberToObject(b->summary, "max_score", b->max_score);
    b->subs = cJSON_AddArrayToObject(b->summary, "submissions");
    return 0;
}

void cli_batch_add(cli_batch *b, const char *name, cJSON *rep, const char *why,
                   const char *submitted)
{
    FILE *csv = b->csv;
    char shown[4096], shown2[2048];
    /* a name (or a message quoting it) may hold any bytes but '/' and NUL: the
     * terminal gets it escaped, one line per submission */
    term(shown, sizeof shown, name);
    gl_gradebook_csv_field(csv, name);
    if (!rep) {
        b->nerrors++;
        fprintf(csv, ",error,0,%d", b->nchecks);
        for (int c = 0; c < b->nchecks; c++)
            fputs(",", csv);
        fputc(',', csv);
        gl_gradebook_csv_field(csv, why);
        fprintf(csv, ",0,%d\n", b->max_score);
        cJSON *o = cJSON_CreateObject();
        add_text(o, "file", name);
        cJSON_AddStringToObject(o, "verdict", "error");
        add_text(o, "error", why);
        cJSON_AddNumberToObject(o, "score", 0);
        cJSON_AddNumberToObject(o, "max_score", b->max_score);
        if (submitted)
            add_text(o, "submitted", submitted);
        cJSON_AddItemToArray(b->subs, o);
        if (b->echo)
            printf("%-32s ERROR  %s\n", shown, term(shown2, sizeof shown2, why));
        return;
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
    gl_gradebook_csv_field(csv, first ? first : "");
    fprintf(csv, ",%d,%d\n",
            (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(rep, "score")),
            (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(rep, "max_score")));
    b->npassed += passed;
    b->nfailed += !passed;
    if (b->echo)
        printf("%-32s %s  %d of %d checks%s%s\n", shown, passed ? "PASS " : "FAIL ", ok, total,
               *first ? "; first failure: " : "", term(shown2, sizeof shown2, first));
    add_text(rep, "file", name);
    cJSON_AddStringToObject(rep, "verdict", passed ? "pass" : "fail");
    if (submitted)
        add_text(rep, "submitted", submitted);
    cJSON_AddItemToArray(b->subs, rep);
}

int cli_batch_close(cli_batch *b, cJSON *shard, char **csv, size_t *csv_len, char **json)
{
    cJSON_AddNumberToObject(b->summary, "passed", b->npassed);
    cJSON_AddNumberToObject(b->summary, "failed", b->nfailed);
    cJSON_AddNumberToObject(b->summary, "errors", b->nerrors);
    if (shard)
        cJSON_AddItemToObject(b->summary, "shard", shard);
    const int ok = fclose(b->csv) == 0 && b->csv_text;
    *json = cJSON_Print(b->summary);
    cJSON_Delete(b->summary);
    *csv = b->csv_text, *csv_len = b->csv_len;
    if (ok && *json)
        return 0;
    free(*json), free(*csv);
    *json = *csv = NULL;
    return 2;
}

static void free_names(struct dirent **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int cli_submission_sha256(const char *dir, const char *name, char hex[65])
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    hex[0] = '\0';
    const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -1;
    }
    gl_cache_sha256 h;
    gl_cache_sha256_init(&h);
    char buf[1 << 16];
    ssize_t got;
    while ((got = read(fd, buf, sizeof buf)) > 0)
        gl_cache_sha256_update(&h, buf, (size_t)got);
    close(fd);
    if (got < 0)
        return -1;
    gl_cache_sha256_hex(&h, hex);
    return 0;
}

void cli_names_sha256(const char *const *names, int n, char hex[65])
{
    gl_cache_sha256 h;
    gl_cache_sha256_init(&h);
    for (int i = 0; i < n; i++)
        gl_cache_sha256_field(&h, "name", names[i], strlen(names[i]));
    gl_cache_sha256_hex(&h, hex);
}

/* The "shard" object of share k of n (cli.h, cli_batch_close): the folder's listing
 * (all[nall], sorted) as its count and hash, and each of the share's files with its
 * SHA-256. NULL when out of memory. */
static cJSON *shard_object(const cli_shard *sh, struct dirent **all, int nall,
                           struct dirent **share, int n, const char *dir)
{
    const char **list = malloc(((size_t)nall + 1) * sizeof *list);
    cJSON *o = cJSON_CreateObject();
    if (!list || !o) {
        free(list);
        cJSON_Delete(o);
        return NULL;
    }
    for (int i = 0; i < nall; i++)
        list[i] = all[i]->d_name;
    char hex[65];
    cli_names_sha256(list, nall, hex);
    free(list);
    cJSON_AddNumberToObject(o, "index", sh->k);
    cJSON_AddNumberToObject(o, "of", sh->n);
    cJSON_AddNumberToObject(o, "names", nall);
    cJSON_AddStringToObject(o, "names_sha256", hex);
    cJSON *files = cJSON_AddArrayToObject(o, "files");
    for (int i = 0; i < n; i++) {
        cJSON *f = cJSON_CreateObject();
        add_text(f, "file", share[i]->d_name);
        cli_submission_sha256(dir, share[i]->d_name, hex);
        cJSON_AddStringToObject(f, "sha256", hex);
        cJSON_AddItemToArray(files, f);
    }
    return o;
}

/* `grade --batch DIR [--shard K/N]`: every .cu of dir (sh NULL), or share sh->k of
 * sh->n of them (the places i of the sorted listing with i % n == k), graded into
 * PREFIX.csv and PREFIX.json. */
static int grade_batch(const gl_lesson *l, const char *dir, const char *prefix_arg,
                       const gl_grade_opts *opts, const cli_shard *sh)
{
    char prefix[PATH_MAX];
    int rc = report_prefix(l, dir, prefix_arg, prefix, sizeof prefix);
    if (rc)
        return rc;
    struct dirent **all = NULL;
    const int nall = scandir(dir, &all, is_cu, by_name);
    if (nall < 0) {
        fprintf(stderr, "gpulearn: %s: cannot read the folder: %s\n", dir, strerror(errno));
        return 2;
    }
    if (nall == 0) {
        free(all);
        fprintf(stderr,
                "gpulearn: %s: no .cu files to grade (one submission per learner, "
                "each a .cu file in the folder)\n",
                dir);
        return 2;
    }
    /* a share's names travel in JSON to `grade merge`, which must rebuild the CSV from
     * them: they must be text JSON holds as it is */
    for (int i = 0; sh && i < nall; i++) {
        char *clean = gl_utf8_clean(all[i]->d_name);
        const int same = clean && strcmp(clean, all[i]->d_name) == 0;
        free(clean);
        if (!same) {
            char shown[1200];
            fprintf(stderr,
                    "gpulearn: %s/%s: the name is not valid UTF-8: rename it to grade the "
                    "folder in shares (--shard)\n",
                    dir, term(shown, sizeof shown, all[i]->d_name));
            free_names(all, nall);
            return 2;
        }
    }
    /* the share: every sh->n-th name from the sh->k-th, so that shares differ in size by
     * at most one (a share may be empty) */
    struct dirent **names = all;
    int n = nall;
    if (sh) {
        names = calloc((size_t)nall / (size_t)sh->n + 1, sizeof *names);
        if (!names) {
            fprintf(stderr, "gpulearn: out of memory\n");
            free_names(all, nall);
            return 2;
        }
        n = 0;
        for (int i = sh->k; i < nall; i += sh->n)
            names[n++] = all[i];
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
            if (names != all)
                free(names);
            free_names(all, nall);
            return 2;
        }
    }
    /* one seed for the whole class: every submission gets the same inputs */
    gl_grade_opts class_opts = *opts;
    if (!class_opts.seed_given)
        class_opts.seed = grade_new_seed(), class_opts.seed_given = 1;
    opts = &class_opts;
    char shown[4096], shown2[2048];
    if (sh)
        printf("grading share %d of %d of %s (%d of its %d submissions) with random inputs "
               "from seed %llu\n",
               sh->k, sh->n, term(shown, sizeof shown, dir), n, nall,
               (unsigned long long)class_opts.seed);
    else
        printf("grading %s with random inputs from seed %llu (--seed %llu repeats them)\n",
               term(shown, sizeof shown, dir), (unsigned long long)class_opts.seed,
               (unsigned long long)class_opts.seed);
    cli_batch bw;
    cJSON *shard = NULL;
    if (cli_batch_open(&bw, l, dir, class_opts.seed, 1) != 0 ||
        (sh && !(shard = shard_object(sh, all, nall, names, n, dir)))) {
        fprintf(stderr, "gpulearn: out of memory\n");
        if (bw.summary) {
            char *t1, *t2;
            size_t len;
            if (cli_batch_close(&bw, NULL, &t1, &len, &t2) == 0)
                free(t1), free(t2);
        }
        if (names != all)
            free(names);
        free_names(all, nall);
        return 2;
    }
    /* submissions in parallel, each in a worker of its own; fewer submissions than
     * workers share the rest among their runs (gl_grade_opts.jobs) */
    const int jobs = class_opts.jobs > 1 ? class_opts.jobs : 1;
    const int workers = jobs < n ? jobs : n > 0 ? n : 1;
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
    if (!pool)
        fprintf(stderr, "gpulearn: out of memory\n");
    for (int i = 0; pool && i < n; i++) {
        char why[512] = "";
        gl_grade_report report;
        cJSON *rep = NULL;
        if (batch_report(gl_pool_wait(pool, i), &report, why, sizeof why) == 0) {
            grade_report_set_points(&report, l->exercise); /* the lesson's, not the worker's */
            rep = grade_report_to_json(&report);
            grade_report_free(&report);
            if (!rep)
                snprintf(why, sizeof why, "out of memory for the report");
        }
        progress_clear(&prog);
        char when[32];
        cli_batch_add(&bw, names[i]->d_name, rep, why, submitted_at(dir, names[i]->d_name, when));
        fflush(stdout);
        progress_draw(&prog);
    }
    gl_pool_free(pool);
    progress_clear(&prog);
    const int npassed = bw.npassed, nfailed = bw.nfailed, nerrors = bw.nerrors;
    char *csv_text = NULL, *js = NULL;
    size_t csv_len = 0;
    rc = cli_batch_close(&bw, shard, &csv_text, &csv_len, &js);
    if (rc || !pool) {
        if (!rc)
            fprintf(stderr, "gpulearn: out of memory\n");
        rc = 2;
    }
    if (!rc)
        rc = write_report(csv_path, csv_text, csv_len, dir, all, nall);
    if (!rc)
        rc = write_report(json_path, js, strlen(js), dir, all, nall);
    free(js);
    free(csv_text);
    if (names != all)
        free(names);
    free_names(all, nall);
    printf("%d submissions: %d passed, %d failed, %d could not be graded\n", n, npassed, nfailed,
           nerrors);
    if (rc)
        return rc;
    printf("wrote %s and %s\n", term(shown, sizeof shown, csv_path),
           term(shown2, sizeof shown2, json_path));
    return nfailed || nerrors ? 1 : 0;
}

int cli_parse_shard(const char *s, cli_shard *sh)
{
    char *end = NULL;
    if (!isdigit((unsigned char)s[0]))
        return -1;
    errno = 0;
    const unsigned long k = strtoul(s, &end, 10);
    if (errno || *end != '/' || !isdigit((unsigned char)end[1]))
        return -1;
    const char *n_text = end + 1;
    const unsigned long n = strtoul(n_text, &end, 10);
    if (errno || *end || n < 1 || n > CLI_SHARDS_MAX || k >= n)
        return -1;
    sh->k = (int)k, sh->n = (int)n;
    return 0;
}

int cmd_grade(int argc, char **argv)
{
    if (argc >= 1 && strcmp(argv[0], "merge") == 0)
        return cmd_grade_merge(argc - 1, argv + 1);
    /* Options this command adds to the shared parser's: --batch DIR, --out PREFIX,
     * --format junit, --seed N, --memory-limit SIZE, --jobs N, --shard K/N. */
    const char *batch = NULL, *out = NULL, *format = NULL, *seed = NULL, *memory = NULL,
               *jobs = NULL, *report = NULL, *check = NULL, *shard = NULL;
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
                            : strcmp(a, "--report") == 0       ? &report
                            : strcmp(a, "--check") == 0        ? &check
                            : strcmp(a, "--shard") == 0        ? &shard
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
    if (batch && (report || check))
        return cli_usage_error("%s grades one submission, not a --batch",
                               report ? "--report" : "--check");
    cli_shard sh;
    if (shard && !batch)
        return cli_usage_error("--shard goes with --batch%s", "");
    if (shard && cli_parse_shard(shard, &sh) != 0)
        return cli_usage_error("--shard must be K/N, share K (0 to N-1, as Slurm's "
                               "SLURM_ARRAY_TASK_ID) of N (1 to 4096), not '%s'",
                               shard);
    if (shard && similarity)
        return cli_usage_error("--similarity compares the whole folder, not a share: run "
                               "`gpulearn similar` once for the class%s",
                               "");
    if (shard && !seed)
        return cli_usage_error("--shard needs --seed N: every share must grade with the "
                               "same random inputs for `grade merge` to join them%s",
                               "");
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
        rc = grade_batch(&l, batch, out, &opts, shard ? &sh : NULL);
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
    if (report || check) {
        rc = grade_check_or_save(&l, file, &opts, format, report, check);
        lesson_free(&l);
        return rc;
    }
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
            if (workspace_mark_passed(l.id, &perr) != GL_OK)
                fprintf(stderr, "gpulearn: warning: progress not saved: %s\n", perr.msg);
        }
    } else {
        rc = cli_die(st, err.msg);
    }
    grade_report_free(&rep);
    lesson_free(&l);
    return rc;
}

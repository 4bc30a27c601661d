/* cmd_merge.c — `gpulearn grade merge OUT PARTS... [--batch DIR] [--lesson LESSON]
 * [--seed S]`:
 * joins the shares of a batch (`grade LESSON --batch DIR --shard K/N --seed S`, one a
 * Slurm array task) into the reports the whole batch writes (`grade LESSON --batch DIR
 * --seed S`), byte for byte, through the batch's own writer (cli_batch).
 *
 * A part is read as untrusted input: it is refused (exit 2, the file and what is wrong
 * named) unless it is exactly what `grade --shard` writes for what it holds (its CSV and
 * JSON are rebuilt from its reports and compared byte for byte), its reports have the
 * lesson's checks, and the parts together are one grading: one lesson, seed and folder
 * listing (its names' SHA-256), every share once, every submission in its own share.
 * With --batch DIR each submission's SHA-256 is checked against the folder's file,
 * with --lesson and --seed the parts' lesson and seed against those given. This
 * finds a part edited by hand, mixed up or cut short; it is no signature: whoever can
 * write the parts can also write the merged reports. Names from a part never become
 * paths but under --batch DIR, as names the folder's listing holds. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "runtime/grade.h"
#include "runtime/gradebook.h"
#include "runtime/lesson.h"

/* The largest part file read, bytes (a share of 500 submissions' reports is a few MiB). */
#define MERGE_FILE_MAX ((off_t)512 << 20)
/* The most submissions a folder listing may name. */
#define MERGE_NAMES_MAX 100000

/* One part: PREFIX.json and PREFIX.csv as `grade --shard` wrote them. */
typedef struct part {
    char json_path[PATH_MAX], csv_path[PATH_MAX];
    char *json_text, *csv_text;
    size_t json_len, csv_len;
    cJSON *root;
    int k;
} part;

/* A submission of the merged batch: its name, and its report (NULL: why). */
typedef struct merged_sub {
    const char *name; /* in its part's root */
    cJSON *rep;       /* owned until added */
    const char *why;
    int part;
    const char *sha256;
    const char *submitted; /* its "submitted" (UTC), or NULL */
} merged_sub;

/* Prints "gpulearn: FILE: <message>" (what the message quotes from a part already
 * escaped by the caller, term()) and returns 2. */
static int __attribute__((format(printf, 2, 3))) refuse(const char *file, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gpulearn: ");
    gl_fputs_term(stderr, file, 0);
    fprintf(stderr, ": %s\n", msg);
    return 2;
}

/* s (text from a part) escaped for a message. */
static const char *term(char *buf, size_t len, const char *s)
{
    gl_escape_term(buf, len, s, 0);
    return buf;
}

/* Reads regular file path whole (at most MERGE_FILE_MAX bytes), NUL-terminated: 0, or 2
 * after the message. */
static int read_whole(const char *path, char **text, size_t *len)
{
    *text = NULL, *len = 0;
    const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd < 0)
        return refuse(path, "%s", strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MERGE_FILE_MAX) {
        close(fd);
        return refuse(path, "not a regular file of at most %d MiB", (int)(MERGE_FILE_MAX >> 20));
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (buf && got < (size_t)st.st_size) {
        const ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (!buf || got != (size_t)st.st_size) {
        free(buf);
        return refuse(path, "cannot be read whole");
    }
    buf[got] = '\0';
    if (strlen(buf) != got) {
        free(buf);
        return refuse(path, "holds a NUL byte: not a report gpulearn wrote");
    }
    *text = buf, *len = got;
    return 0;
}

/* Whether s ends with suffix. */
static int ends_with(const char *s, const char *suffix)
{
    const size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* A whole number in [lo, hi] at obj[key]: 0 with *v set, else -1. */
static int get_int(const cJSON *obj, const char *key, double lo, double hi, double *v)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsNumber(it) || it->valuedouble < lo || it->valuedouble > hi ||
        it->valuedouble != (double)(long long)it->valuedouble)
        return -1;
    *v = it->valuedouble;
    return 0;
}

/* The string at obj[key], or NULL. */
static const char *get_str(const cJSON *obj, const char *key)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(obj, key));
}

/* Whether obj's keys are exactly keys[n], in that order. */
static int keys_are(const cJSON *obj, const char *const *keys, int n)
{
    const cJSON *it = obj ? obj->child : NULL;
    for (int i = 0; i < n; i++, it = it->next)
        if (!it || !it->string || strcmp(it->string, keys[i]) != 0)
            return 0;
    return it == NULL;
}

/* Whether s is 64 lowercase hex digits, or "" (a file that could not be read). */
static int is_sha256(const char *s)
{
    if (!s)
        return 0;
    size_t n = 0;
    for (; s[n]; n++)
        if (!strchr("0123456789abcdef", s[n]))
            return 0;
    return n == 0 || n == 64;
}

/* Whether s is a time as the batch writes "submitted" (gl_gradebook_utc_format: the seconds
 * form, "YYYY-MM-DDTHH:MM:SSZ"). */
static int is_utc_time(const char *s)
{
    time_t t;
    return s && strlen(s) == 20 && gl_gradebook_utc_parse(s, &t) == 0;
}

/* The installed lesson whose id is `id` (from a part: it is matched against the
 * lessons' ids, never used as a path): 0, or 2 after the message. */
static int lesson_by_id(const char *file, const char *id, gl_lesson *l)
{
    char shown[256];
    gl_lesson *ls = NULL;
    int n = 0;
    gl_error err = {0};
    if (lesson_list(&ls, &n, &err) != GL_OK)
        return cli_die(GL_ERR_INPUT, err.msg);
    int found = -1;
    for (int i = 0; i < n && found < 0; i++)
        if (strcmp(ls[i].id, id) == 0 && ls[i].exercise)
            found = i;
    if (found >= 0) {
        *l = ls[found];
        memset(&ls[found], 0, sizeof ls[found]);
    }
    lesson_list_free(ls, n);
    if (found < 0)
        return refuse(file,
                      "lesson '%s' is not an installed lesson with an exercise (--lesson "
                      "names the lesson folder it was graded from)",
                      term(shown, sizeof shown, id));
    return 0;
}

/* The first line where a and b differ, 1-based. */
static int first_diff_line(const char *a, size_t alen, const char *b, size_t blen)
{
    int line = 1;
    for (size_t i = 0; i < alen && i < blen && a[i] == b[i]; i++)
        line += a[i] == '\n';
    return line;
}

/* A report rebuilt from a part's submission object `s`: the keys a report has
 * (grade_report_to_json's, `tmpl`), copied; the batch's own ("file", "verdict" and
 * whatever cli_batch_add writes) are left for cli_batch_add to write again. NULL with
 * why set when s does not hold a report of lesson l graded with seed. */
static cJSON *rebuild_report(const cJSON *s, const cJSON *tmpl, const gl_lesson *l, double seed,
                             char *why, size_t why_len)
{
    cJSON *rep = cJSON_CreateObject();
    for (const cJSON *k = tmpl->child; rep && k; k = k->next) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(s, k->string);
        if (!v) {
            snprintf(why, why_len, "its report has no \"%s\"", k->string);
            cJSON_Delete(rep);
            return NULL;
        }
        cJSON_AddItemToObject(rep, k->string, cJSON_Duplicate(v, 1));
    }
    if (!rep) {
        snprintf(why, why_len, "out of memory");
        return NULL;
    }
    const char *lesson = get_str(rep, "lesson");
    double rseed;
    char names[64][64];
    const int nnames = grade_check_names(l->exercise, names, 64);
    const cJSON *checks = cJSON_GetObjectItemCaseSensitive(rep, "checks");
    const cJSON *passed = cJSON_GetObjectItemCaseSensitive(rep, "passed");
    if (!lesson || strcmp(lesson, l->id) != 0)
        snprintf(why, why_len, "its report is of another lesson");
    else if (get_int(rep, "seed", 0, 4294967295.0, &rseed) != 0 || rseed != seed)
        snprintf(why, why_len, "its report was graded with another seed");
    else if (!cJSON_IsBool(passed) || !get_str(rep, "submission") || !get_str(rep, "backend") ||
             !cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(rep, "compiled")) ||
             !cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(rep, "sandboxed")))
        snprintf(why, why_len,
                 "its report's passed, compiled, sandboxed, submission or "
                 "backend is missing or of the wrong type");
    else if (!cJSON_IsArray(checks) || cJSON_GetArraySize(checks) != nnames)
        snprintf(why, why_len, "its report has %d checks, the lesson's exercise %d",
                 cJSON_GetArraySize(checks), nnames);
    else {
        static const char *const check_keys[] = {"name", "passed", "status", "points", "detail"};
        int i = 0, all = 1, score = 0, max = 0;
        const cJSON *c;
        cJSON_ArrayForEach(c, checks)
        {
            const char *nm = get_str(c, "name"), *st = get_str(c, "status");
            const cJSON *p = cJSON_GetObjectItemCaseSensitive(c, "passed");
            const int pts = lesson_check_points(l->exercise, names[i]);
            double got_pts;
            if (!keys_are(c, check_keys, 5) || !nm || strcmp(nm, names[i]) != 0 || !st ||
                !cJSON_IsBool(p) || !get_str(c, "detail") ||
                get_int(c, "points", 0, 1000000, &got_pts) || got_pts != pts ||
                (strcmp(st, "pass") && strcmp(st, "fail") && strcmp(st, "not_run")) ||
                cJSON_IsTrue(p) != (strcmp(st, "pass") == 0)) {
                snprintf(why, why_len,
                         "its check %d is not the lesson's \"%s\" (%d point%s) with a passed "
                         "that agrees with its status",
                         i + 1, names[i], pts, pts == 1 ? "" : "s");
                cJSON_Delete(rep);
                return NULL;
            }
            all &= cJSON_IsTrue(p);
            score += cJSON_IsTrue(p) ? pts : 0;
            max += pts;
            i++;
        }
        double got_score, got_max;
        if (cJSON_IsTrue(passed) != all)
            snprintf(why, why_len, "its report says passed: %s, its checks say otherwise",
                     cJSON_IsTrue(passed) ? "true" : "false");
        else if (get_int(rep, "score", 0, 1e9, &got_score) ||
                 get_int(rep, "max_score", 0, 1e9, &got_max) || got_score != score ||
                 got_max != max)
            snprintf(why, why_len,
                     "its score is not the %d its passed checks are worth, of %d points", score,
                     max);
        else
            return rep;
    }
    cJSON_Delete(rep);
    return NULL;
}

/* The reference a part is compared with: the first part's. */
typedef struct merge_ref {
    const char *file;
    const char *lesson, *folder, *names_sha256;
    double seed, of, names;
} merge_ref;

/* Reads part p (paths set; parts[pi]) and checks it alone and against ref (ref->file
 * NULL: p is the first, and sets it, and *lp to the lesson, loaded into lesson_store);
 * its submissions go to subs[*nsubs...] (at most ref->names in all). 0, or 2 after the
 * message. */
static int read_part(part *p, merge_ref *ref, const gl_lesson **lp, gl_lesson *lesson_store,
                     const char *lesson_arg, const cJSON *tmpl, merged_sub *subs, int *nsubs,
                     int pi)
{
    char shown[1200], shown2[1200];
    int rc = read_whole(p->json_path, &p->json_text, &p->json_len);
    if (!rc)
        rc = read_whole(p->csv_path, &p->csv_text, &p->csv_len);
    if (rc)
        return rc;
    const char *end = NULL;
    p->root = cJSON_ParseWithOpts(p->json_text, &end, 1);
    const char *const f = p->json_path;
    if (!cJSON_IsObject(p->root))
        return refuse(f, "not JSON (at byte %zu): not a report gpulearn wrote",
                      end ? (size_t)(end - p->json_text) : 0);
    const cJSON *r = p->root;
    const cJSON *sh = cJSON_GetObjectItemCaseSensitive(r, "shard");
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(sh, "files");
    const cJSON *sublist = cJSON_GetObjectItemCaseSensitive(r, "submissions");
    merge_ref me = {
        f, get_str(r, "lesson"), get_str(r, "folder"), get_str(sh, "names_sha256"), 0, 0, 0};
    double k;
    if (!cJSON_IsObject(sh))
        return refuse(f, "no \"shard\": the reports of a whole batch, not of a share "
                         "(grade --batch DIR --shard K/N writes those)");
    if (!me.lesson || !me.folder || !cJSON_IsArray(sublist) ||
        get_int(r, "seed", 0, 4294967295.0, &me.seed) ||
        get_int(sh, "of", 1, CLI_SHARDS_MAX, &me.of) || get_int(sh, "index", 0, me.of - 1, &k) ||
        get_int(sh, "names", 1, MERGE_NAMES_MAX, &me.names) || !me.names_sha256 ||
        strlen(me.names_sha256) != 64 || !is_sha256(me.names_sha256) || !cJSON_IsArray(files))
        return refuse(f, "its lesson, folder, seed, submissions or shard (index, of, names, "
                         "names_sha256, files) is missing or out of range");
    p->k = (int)k;
    if (!ref->file) {
        *ref = me;
        if (lesson_arg) {
            gl_lesson *l = lesson_store;
            if ((rc = cli_exercise_lesson(lesson_arg, "merge", l)) != 0)
                return rc;
            if (strcmp(l->id, me.lesson) != 0) {
                rc = refuse(f, "graded lesson '%s', not --lesson %s's '%s'",
                            term(shown, sizeof shown, me.lesson), lesson_arg, l->id);
                lesson_free(l);
                return rc;
            }
        } else if ((rc = lesson_by_id(f, me.lesson, lesson_store)) != 0) {
            return rc;
        }
        *lp = lesson_store;
    }
    /* one grading: what the first part says, every part says */
    const char *what = strcmp(me.lesson, ref->lesson)   ? "lesson"
                       : strcmp(me.folder, ref->folder) ? "folder"
                       : me.seed != ref->seed           ? "seed"
                       : me.of != ref->of               ? "number of shares"
                       : me.names != ref->names || strcmp(me.names_sha256, ref->names_sha256)
                           ? "folder listing"
                           : NULL;
    if (what)
        return refuse(f,
                      "its %s differs from %s's: parts of another grading (every share "
                      "must come from one `classroom slurm` script: one lesson, folder, "
                      "seed and number of shares)",
                      what, term(shown, sizeof shown, ref->file));
    /* its files: names the folder could hold, sorted, each with its SHA-256, and its
     * submissions the same names in the same order */
    const int nfiles = cJSON_GetArraySize(files);
    if (cJSON_GetArraySize(sublist) != nfiles)
        return refuse(f, "%d submissions but %d files in its shard", cJSON_GetArraySize(sublist),
                      nfiles);
    static const char *const file_keys[] = {"file", "sha256"};
    static const char *const error_keys[] = {"file",  "verdict",   "error",
                                             "score", "max_score", "submitted"};
    const cJSON *fe = files->child, *s = sublist->child;
    const char *prev = NULL;
    for (; fe && s; fe = fe->next, s = s->next) {
        const char *name = get_str(fe, "file"), *sname = get_str(s, "file");
        const char *verdict = get_str(s, "verdict");
        if (!keys_are(fe, file_keys, 2) || !name || !cli_batch_name_ok(name) ||
            !is_sha256(get_str(fe, "sha256")))
            return refuse(f, "its shard's file %s is not a NAME.cu with a SHA-256",
                          term(shown, sizeof shown, name ? name : "(none)"));
        if (prev && strcmp(prev, name) >= 0)
            return refuse(f, "its files are not in sorted order, or one is there twice (%s)",
                          term(shown, sizeof shown, name));
        if (!sname || strcmp(sname, name) != 0)
            return refuse(f, "its submission %s is not its shard's file %s",
                          term(shown, sizeof shown, sname ? sname : "(none)"),
                          term(shown2, sizeof shown2, name));
        if (*nsubs >= (int)ref->names)
            return refuse(f, "more submissions than the folder listing's %.0f", ref->names);
        merged_sub *m = &subs[(*nsubs)++];
        *m = (merged_sub){name, NULL, NULL, pi, get_str(fe, "sha256"), get_str(s, "submitted")};
        if (cJSON_GetObjectItemCaseSensitive(s, "submitted") && !is_utc_time(m->submitted))
            return refuse(f, "submission %s: its \"submitted\" is not a UTC time",
                          term(shown, sizeof shown, name));
        char why[512];
        if (verdict && strcmp(verdict, "error") == 0) {
            m->why = get_str(s, "error");
            if (!keys_are(s, error_keys, m->submitted ? 6 : 5) || !m->why)
                return refuse(f, "submission %s: an error without its message",
                              term(shown, sizeof shown, name));
        } else if (!(m->rep = rebuild_report(s, tmpl, *lp, ref->seed, why, sizeof why))) {
            return refuse(f, "submission %s: %s", term(shown, sizeof shown, name), why);
        }
        prev = name;
    }
    return 0;
}

/* The reports cli_batch writes for subs[n] (lesson l, folder, seed; shard: the part's
 * "shard", copied, or NULL), into *csv and *json (caller frees): 0, or 2. The reports
 * in subs are copied, so the caller keeps them. Counts in *counts (passed, failed,
 * errors). */
static int write_batch(const gl_lesson *l, const char *folder, double seed, const cJSON *shard,
                       merged_sub *subs, int n, char **csv, size_t *csv_len, char **json,
                       int counts[3])
{
    cli_batch b;
    if (cli_batch_open(&b, l, folder, (uint64_t)seed, 0) != 0)
        return 2;
    for (int i = 0; i < n; i++)
        cli_batch_add(&b, subs[i].name, subs[i].rep ? cJSON_Duplicate(subs[i].rep, 1) : NULL,
                      subs[i].why, subs[i].submitted);
    counts[0] = b.npassed, counts[1] = b.nfailed, counts[2] = b.nerrors;
    return cli_batch_close(&b, shard ? cJSON_Duplicate(shard, 1) : NULL, csv, csv_len, json);
}

/* Checks that part p is exactly what grade --shard writes for its submissions (subs[n]):
 * its counts, then its CSV and JSON byte for byte. 0, or 2 after the message. */
static int check_part_bytes(const part *p, const gl_lesson *l, const merge_ref *ref,
                            merged_sub *subs, int n)
{
    char *csv = NULL, *json = NULL;
    size_t csv_len = 0;
    int counts[3];
    if (write_batch(l, ref->folder, ref->seed, cJSON_GetObjectItemCaseSensitive(p->root, "shard"),
                    subs, n, &csv, &csv_len, &json, counts) != 0) {
        fprintf(stderr, "gpulearn: out of memory\n");
        return 2;
    }
    static const char *const count_keys[] = {"passed", "failed", "errors"};
    int rc = 0;
    for (int i = 0; i < 3 && !rc; i++) {
        double v;
        if (get_int(p->root, count_keys[i], 0, MERGE_NAMES_MAX, &v) || (int)v != counts[i])
            rc = refuse(p->json_path,
                        "its counts do not add up: \"%s\" should be %d for its submissions",
                        count_keys[i], counts[i]);
    }
    if (!rc && (p->csv_len != csv_len || memcmp(p->csv_text, csv, csv_len) != 0))
        rc = refuse(p->csv_path,
                    "not the CSV grade --shard writes for the reports in %s (line %d "
                    "differs): edited, or from another grading",
                    p->json_path, first_diff_line(p->csv_text, p->csv_len, csv, csv_len));
    if (!rc && (p->json_len != strlen(json) || memcmp(p->json_text, json, p->json_len) != 0))
        rc = refuse(p->json_path,
                    "not the JSON grade --shard writes for what it holds (line %d "
                    "differs): edited",
                    first_diff_line(p->json_text, p->json_len, json, strlen(json)));
    free(csv);
    free(json);
    return rc;
}

static int by_sub_name(const void *a, const void *b)
{
    return strcmp(((const merged_sub *)a)->name, ((const merged_sub *)b)->name);
}

static int is_cu(const struct dirent *d)
{
    return cli_batch_name_ok(d->d_name);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* With --batch DIR: the folder's listing is the one graded, and each file's SHA-256 the
 * one recorded (subs[n], sorted by name). 0, or 2 after the message. */
static int check_folder(const char *dir, const merge_ref *ref, const part *parts,
                        const merged_sub *subs, int n)
{
    char shown[1200], hex[65];
    struct dirent **ents = NULL;
    const int nents = scandir(dir, &ents, is_cu, by_name);
    if (nents < 0)
        return refuse(dir, "cannot read the folder: %s", strerror(errno));
    const char **list = malloc(((size_t)nents + 1) * sizeof *list);
    int rc = 0;
    if (!list) {
        fprintf(stderr, "gpulearn: out of memory\n");
        rc = 2;
    }
    for (int i = 0; list && i < nents; i++)
        list[i] = ents[i]->d_name;
    if (!rc)
        cli_names_sha256(list, nents, hex);
    if (!rc && (nents != n || strcmp(hex, ref->names_sha256) != 0))
        rc = refuse(dir,
                    "holds %d submissions, not the %d graded, or under other names: a "
                    "file was added, removed or renamed since",
                    nents, n);
    for (int i = 0; !rc && i < n; i++) {
        cli_submission_sha256(dir, subs[i].name, hex);
        if (strcmp(hex, subs[i].sha256) != 0)
            rc = refuse(dir,
                        "%s: its SHA-256 is not the one %s recorded when it was graded: the "
                        "file changed since (or the part was edited)",
                        term(shown, sizeof shown, subs[i].name), parts[subs[i].part].json_path);
    }
    for (int i = 0; i < nents; i++)
        free(ents[i]);
    free(ents);
    free(list);
    return rc;
}

/* The paths of part `arg` (PREFIX, PREFIX.json or PREFIX.csv) into p: 0, or 2. */
static int part_paths(const char *arg, part *p)
{
    size_t n = strlen(arg);
    if (ends_with(arg, ".json"))
        n -= 5;
    else if (ends_with(arg, ".csv"))
        n -= 4;
    if (n + 6 > sizeof p->json_path)
        return refuse(arg, "the path is too long");
    snprintf(p->json_path, sizeof p->json_path, "%.*s.json", (int)n, arg);
    snprintf(p->csv_path, sizeof p->csv_path, "%.*s.csv", (int)n, arg);
    return 0;
}

int cmd_grade_merge(int argc, char **argv)
{
    const char *batch = NULL, *lesson_arg = NULL, *out = NULL, *seed_arg = NULL;
    const char **args = calloc((size_t)argc + 1, sizeof *args);
    int nargs = 0;
    if (!args)
        return 2;
    for (int i = 0; i < argc; i++) {
        const char **slot = strcmp(argv[i], "--batch") == 0    ? &batch
                            : strcmp(argv[i], "--lesson") == 0 ? &lesson_arg
                            : strcmp(argv[i], "--seed") == 0   ? &seed_arg
                                                               : NULL;
        if (slot && i + 1 < argc) {
            *slot = argv[++i];
        } else if (slot || (argv[i][0] == '-' && argv[i][1])) {
            free(args);
            return cli_usage_error(slot ? "%s needs a value" : "merge: unknown option '%s'",
                                   argv[i]);
        } else {
            args[nargs++] = argv[i];
        }
    }
    if (nargs < 2) {
        free(args);
        return cli_usage_error("merge needs the merged reports' prefix and the shares' "
                               "reports (gpulearn grade merge OUT PART...)%s",
                               "");
    }
    out = args[0];
    const int nparts = nargs - 1;
    part *parts = calloc((size_t)nparts, sizeof *parts);
    int nsubs = 0, rc = 0;
    gl_lesson lesson = {0};
    const gl_lesson *l = NULL;
    merge_ref ref = {0};
    gl_grade_report empty = {0};
    cJSON *tmpl = grade_report_to_json(&empty); /* the keys of a report */
    char csv_out[PATH_MAX + 8], json_out[PATH_MAX + 8], shown[1200];
    /* at most MERGE_NAMES_MAX submissions: a few MiB */
    merged_sub *subs = calloc(MERGE_NAMES_MAX, sizeof *subs);
    if (!parts || !tmpl || !subs) {
        fprintf(stderr, "gpulearn: out of memory\n");
        rc = 2;
    }
    for (int i = 0; !rc && i < nparts; i++) {
        rc = part_paths(args[i + 1], &parts[i]);
        const int first = nsubs;
        if (!rc)
            rc = read_part(&parts[i], &ref, &l, &lesson, lesson_arg, tmpl, subs, &nsubs, i);
        for (int j = 0; !rc && j < i; j++)
            if (parts[j].k == parts[i].k)
                rc = refuse(parts[i].json_path, "share %d of %d again: %s holds it too", parts[i].k,
                            (int)ref.of, parts[j].json_path);
        if (!rc)
            rc = check_part_bytes(&parts[i], l, &ref, subs + first, nsubs - first);
    }
    /* every share once, and every submission in its own share */
    if (!rc && nparts != (int)ref.of) {
        int missing = 0;
        for (int k = 0; k < (int)ref.of; k++) {
            int have = 0;
            for (int j = 0; j < nparts; j++)
                have |= parts[j].k == k;
            if (!have) {
                missing = k;
                break;
            }
        }
        rc = refuse(out,
                    "%d parts for %d shares: share %d of %d is missing (pass every "
                    "part the job array wrote)",
                    nparts, (int)ref.of, missing, (int)ref.of);
    }
    if (!rc) {
        qsort(subs, (size_t)nsubs, sizeof *subs, by_sub_name);
        const char **list = malloc(((size_t)nsubs + 1) * sizeof *list);
        char hex[65];
        for (int i = 0; list && i < nsubs; i++)
            list[i] = subs[i].name;
        if (list)
            cli_names_sha256(list, nsubs, hex);
        free(list);
        if (!list) {
            fprintf(stderr, "gpulearn: out of memory\n");
            rc = 2;
        }
        for (int i = 1; !rc && i < nsubs; i++)
            if (strcmp(subs[i - 1].name, subs[i].name) == 0)
                rc = refuse(parts[subs[i].part].json_path, "submission %s is also in %s",
                            term(shown, sizeof shown, subs[i].name),
                            parts[subs[i - 1].part].json_path);
        if (!rc && (nsubs != (int)ref.names || strcmp(hex, ref.names_sha256) != 0))
            rc = refuse(out,
                        "the parts hold %d submissions, not the folder listing of %.0f they "
                        "were graded from",
                        nsubs, ref.names);
        for (int i = 0; !rc && i < nsubs; i++)
            if (i % (int)ref.of != parts[subs[i].part].k)
                rc = refuse(parts[subs[i].part].json_path,
                            "submission %s is in share %d, but the folder's listing puts it "
                            "in share %d",
                            term(shown, sizeof shown, subs[i].name), parts[subs[i].part].k,
                            i % (int)ref.of);
    }
    char *seed_end = NULL;
    if (!rc && seed_arg &&
        (!isdigit((unsigned char)seed_arg[0]) || strtod(seed_arg, &seed_end) != ref.seed ||
         *seed_end))
        rc = refuse(parts[0].json_path, "graded with seed %.0f, not --seed %s", ref.seed,
                    term(shown, sizeof shown, seed_arg));
    if (!rc && batch)
        rc = check_folder(batch, &ref, parts, subs, nsubs);
    /* the merged reports: never over a part */
    if (!rc) {
        snprintf(csv_out, sizeof csv_out, "%s.csv", out);
        snprintf(json_out, sizeof json_out, "%s.json", out);
        for (int i = 0; !rc && i < nparts; i++)
            if (gl_same_file(csv_out, parts[i].csv_path) ||
                gl_same_file(json_out, parts[i].json_path))
                rc = refuse(out, "is the part %s: the merged reports go elsewhere",
                            parts[i].json_path);
    }
    int counts[3] = {0, 0, 0};
    if (!rc) {
        char *csv = NULL, *json = NULL;
        size_t csv_len = 0;
        gl_error err = {0};
        if (write_batch(l, ref.folder, ref.seed, NULL, subs, nsubs, &csv, &csv_len, &json,
                        counts) != 0) {
            fprintf(stderr, "gpulearn: out of memory\n");
            rc = 2;
        } else if (gl_write_report(csv_out, csv, csv_len, &err) != GL_OK ||
                   gl_write_report(json_out, json, strlen(json), &err) != GL_OK) {
            fprintf(stderr, "gpulearn: %s\n", err.msg);
            rc = 2;
        }
        free(csv);
        free(json);
    }
    if (!rc) {
        printf("merged %d shares of %s (lesson %s, seed %.0f): %d submissions: %d passed, %d "
               "failed, %d could not be graded\n",
               nparts, term(shown, sizeof shown, ref.folder), l->id, ref.seed, nsubs, counts[0],
               counts[1], counts[2]);
        printf("wrote ");
        gl_fputs_term(stdout, csv_out, 0);
        printf(" and ");
        gl_fputs_term(stdout, json_out, 0);
        printf("\n");
        rc = counts[1] || counts[2] ? 1 : 0;
    }
    for (int i = 0; i < nsubs; i++)
        cJSON_Delete(subs[i].rep);
    free(subs);
    for (int i = 0; parts && i < nparts; i++) {
        cJSON_Delete(parts[i].root);
        free(parts[i].json_text);
        free(parts[i].csv_text);
    }
    free(parts);
    cJSON_Delete(tmpl);
    if (l)
        lesson_free(&lesson);
    free(args);
    return rc;
}
